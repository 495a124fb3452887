import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { users } from "../../../db/schema/index.ts";
import type { StaffActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";

/**
 * The signed-in user's own row, locked for the rest of the transaction so two saves from two tabs
 * apply one after the other. Deleting a user deletes their sessions, so a missing row means this
 * session has just ended.
 */
export async function lockOwnAccount(tx: Database, actor: StaffActor) {
  const [row] = await tx
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isSSO: users.isSSO,
      avatarBlobId: users.avatarBlobId,
      twoFactorAuthenticationActivated: users.twoFactorAuthenticationActivated,
      organisationId: users.organisationId,
    })
    .from(users)
    .where(eq(users.id, actor.userId))
    .for("update")
    .limit(1);
  if (!row) throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  return row;
}
