import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";

/**
 * Turns an account's two-factor authentication flag on or off directly in the database: the
 * guest-access rules read only the flag, and these tests are not about setting two-factor up.
 */
export async function setTwoFactorActivated(db: Database, email: string, on: boolean): Promise<void> {
  const changed = await db
    .update(users)
    .set({ twoFactorAuthenticationActivated: on })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  if (changed.length !== 1) throw new Error(`No account ${email}`);
}
