import { and, count, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { onboardInvites, organisations, users } from "../../../db/schema/index.ts";
import { UserError } from "../../lib/errors.ts";

/**
 * Seats (spec: 'Creating a user or an invite needs free seats'; 'Free seats exist when
 * openSeatNumber is greater than activeUsers'). An invite still waiting to be accepted holds a seat
 * too: otherwise ten invites sent into one free seat would all be accepted later and oversubscribe
 * it. So a claim counts active users plus open invites (Invited, not archived, not expired).
 *
 * Every claim first locks the organisation's row, so concurrent claims for one organisation queue
 * behind each other inside their transactions and each counts what the one before it wrote.
 */

export const NO_FREE_SEATS = "There are no free seats left in this organisation. Free a seat or ask for more seats, then try again.";

export interface SeatUsage {
  openSeatNumber: number;
  /** Staff of the organisation who are not suspended (what the console shows as activeUsers). */
  activeUsers: number;
  /** Invites sent and not yet accepted, archived or expired: each holds a seat. */
  pendingInvites: number;
}

export async function seatUsage(db: Database, organisationId: string, now = new Date()): Promise<SeatUsage | null> {
  const [row] = await db
    .select({
      openSeatNumber: organisations.openSeatNumber,
      activeUsers: sql<number>`(${db.select({ n: count() }).from(users).where(and(eq(users.organisationId, organisationId), eq(users.suspended, false)))})`.mapWith(Number),
      pendingInvites: sql<number>`(${db
        .select({ n: count() })
        .from(onboardInvites)
        .where(and(eq(onboardInvites.organisationId, organisationId), eq(onboardInvites.status, "Invited"), eq(onboardInvites.archived, false), gt(onboardInvites.expiresAt, now)))})`.mapWith(Number),
    })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return row ?? null;
}

export const hasFreeSeat = (usage: SeatUsage) => usage.openSeatNumber > usage.activeUsers + usage.pendingInvites;

/**
 * Takes one seat for a new user or invite, inside the caller's transaction: locks the organisation,
 * then refuses with NO_FREE_SEATS when none is free. The caller's insert is what fills the seat.
 * `releasingInviteId` names an open invite being accepted: it hands its own seat on to the new user.
 */
export async function claimSeat(tx: Database, organisationId: string, options: { now?: Date; releasingInviteId?: string } = {}): Promise<void> {
  await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, organisationId)).for("update");
  const usage = await seatUsage(tx, organisationId, options.now);
  if (!usage) throw new UserError("NOT_FOUND", "Organisation is not found");
  const released = options.releasingInviteId ? 1 : 0;
  if (usage.openSeatNumber <= usage.activeUsers + usage.pendingInvites - released) throw new UserError("CONFLICT", NO_FREE_SEATS);
}
