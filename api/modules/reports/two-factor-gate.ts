import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { users } from "../../../db/schema/index.ts";
import type { StaffActor } from "../../context.ts";

/**
 * Guest members, and anyone reaching a report of an organisation other than their own, only with
 * two-factor authentication active on their account (spec: admin console §2 Organisations, §4
 * Guest invites; reporter and access §4). Decision 032.
 *
 * The flag is read from the account at the moment of each query, never from the session's cached
 * actor, so turning two-factor off takes the reports away at once: on every instance, and on a
 * WebSocket whose actor was fixed when it connected.
 */

/** A guest member always needs it; anyone else only for another organisation's reports. */
export function needsTwoFactorFor(actor: StaffActor, organisationId: string): boolean {
  return actor.role === "GUEST_MEMBER" || actor.organisationId !== organisationId;
}

/** SQL: this account has two-factor authentication active. */
export function twoFactorActive(userId: string): SQL {
  return sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.twoFactorAuthenticationActivated} = true)`;
}

export async function hasTwoFactor(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.id, userId));
  return row?.on === true;
}
