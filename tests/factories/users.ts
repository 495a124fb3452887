import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { organisations, roles, users } from "../../db/schema/index.ts";
import { hashPassword } from "../../api/lib/passwords.ts";
import type { RoleName } from "../../api/shared/enums.ts";

let counter = 0;
const hashes = new Map<string, Promise<string>>();

/** Hashing is deliberately slow; tests reuse one hash per distinct password. */
export function cachedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export async function createOrganisation(db: Database, overrides: Partial<typeof organisations.$inferInsert> = {}) {
  counter += 1;
  const [row] = await db
    .insert(organisations)
    .values({ name: `Organisation ${counter}`, slug: `org-${counter}-${Date.now().toString(36)}`, ...overrides })
    .returning();
  return row!;
}

export async function createUser(
  db: Database,
  options: { role: RoleName; organisationId: string | null; email?: string; password?: string; suspended?: boolean },
) {
  counter += 1;
  const [role] = await db.select().from(roles).where(eq(roles.name, options.role));
  const [row] = await db
    .insert(users)
    .values({
      email: options.email ?? `user${counter}-${Date.now().toString(36)}@example.test`,
      firstName: "Test",
      lastName: `User${counter}`,
      passwordHash: await cachedHash(options.password ?? "correct-horse-1"),
      roleId: role!.id,
      organisationId: options.organisationId,
      verified: true,
      suspended: options.suspended ?? false,
    })
    .returning();
  return { ...row!, password: options.password ?? "correct-horse-1" };
}
