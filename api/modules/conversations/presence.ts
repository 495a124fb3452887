import { and, eq, ne, sql } from "drizzle-orm";
import { reportConversations } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { logError } from "../../lib/log.ts";
import type { PresenceStatus } from "../../shared/enums.ts";
import { utcDay } from "../../lib/day-grain.ts";
import { conversationFor } from "./access.ts";
import { publishActivity } from "./write.ts";

/**
 * Chat presence (spec section 4: online, typing while text is being entered, offline). Each side
 * of a conversation has one status: the reporter's, and the staff side's (shared by its team).
 */

export const presenceTopic = (submissionId: string) => `conversation.presence.${submissionId}`;

/** A status not refreshed for this long reads as Offline: the browser went away without saying so. */
export const PRESENCE_STALE_MS = 60_000;
/** Typing is sent on every keystroke; repeats within this window change nothing worth a write. */
export const TYPING_THROTTLE_MS = 2_000;

export type Side = "Guest" | "User";

export interface PresenceView {
  otherUserStatus: PresenceStatus;
  lastSeenAt: Date | null;
  lastTypedAt: Date | null;
}

export interface PresenceEvent {
  side: Side;
  status: PresenceStatus;
  lastSeenAt: string | null;
  lastTypedAt: string | null;
}

type ConversationRow = typeof reportConversations.$inferSelect;

const otherSide = (side: Side): Side => (side === "Guest" ? "User" : "Guest");

function columnsOf(conversation: ConversationRow, side: Side) {
  return side === "Guest"
    ? { status: conversation.guestStatus, lastSeenAt: conversation.guestLastSeenAt, lastTypedAt: conversation.guestLastTypedAt }
    : { status: conversation.staffStatus, lastSeenAt: conversation.staffLastSeenAt, lastTypedAt: conversation.staffLastTypedAt };
}

/**
 * A reporter who has left is "last seen" by the day only (decision 064): while they are there staff
 * see it live anyway, and the time is kept only as long as the 60-second staleness needs it.
 */
const dayOf = (at: Date | null) => (at ? utcDay(at) : null);

/** One side's presence as the other side sees it, with stale statuses read as Offline. */
export function presenceOf(conversation: ConversationRow, side: Side, now: Date = new Date()): PresenceView {
  const { status, lastSeenAt, lastTypedAt } = columnsOf(conversation, side);
  const stale = !lastSeenAt || now.getTime() - lastSeenAt.getTime() > PRESENCE_STALE_MS;
  const otherUserStatus = stale ? "Offline" : status;
  if (side === "Guest" && otherUserStatus === "Offline") return { otherUserStatus, lastSeenAt: dayOf(lastSeenAt), lastTypedAt: dayOf(lastTypedAt) };
  return { otherUserStatus, lastSeenAt, lastTypedAt };
}

export const presenceFromEvent = (event: PresenceEvent): PresenceView => ({
  otherUserStatus: event.status,
  lastSeenAt: event.lastSeenAt ? new Date(event.lastSeenAt) : null,
  lastTypedAt: event.lastTypedAt ? new Date(event.lastTypedAt) : null,
});

async function announcePresence(ctx: Ctx, organisationId: string, submissionId: string, event: PresenceEvent): Promise<void> {
  await ctx.services.pubsub.publish(presenceTopic(submissionId), { ...event }).catch((error: unknown) => logError("Could not publish presence", error));
  await publishActivity(ctx, organisationId, submissionId, "presence");
}

/**
 * Sets the caller's side of a conversation: a reporter their own report's, staff a report whose
 * team they are on (only they can reply, so only their typing means anything).
 */
export async function updateUserStatus(ctx: Ctx, reportSubmissionID: string | null | undefined, status: PresenceStatus): Promise<boolean> {
  const access = await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationCreate");
  const side = access.side;
  const now = new Date();
  const current = columnsOf(access.conversation, side);
  if (status === "Typing" && current.status === "Typing" && current.lastTypedAt && now.getTime() - current.lastTypedAt.getTime() < TYPING_THROTTLE_MS) return true;
  // Offline too marks "seen": the person was here until this moment (a reporter: this day).
  const leaving = side === "Guest" && status === "Offline";
  const lastSeenAt = leaving ? utcDay(now) : now;
  const lastTypedAt = status === "Typing" ? now : leaving ? dayOf(current.lastTypedAt) : current.lastTypedAt;
  const values =
    side === "Guest"
      ? { guestStatus: status, guestLastSeenAt: lastSeenAt, guestLastTypedAt: lastTypedAt }
      : { staffStatus: status, staffLastSeenAt: lastSeenAt, staffLastTypedAt: lastTypedAt };
  await ctx.db.update(reportConversations).set(values).where(eq(reportConversations.id, access.conversation.id));
  await announcePresence(ctx, access.submission.organisationId, access.submission.id, { side, status, lastSeenAt: lastSeenAt.toISOString(), lastTypedAt: lastTypedAt?.toISOString() ?? null });
  return true;
}

/** The other side's presence now, and whose events to listen for. */
export async function presenceWatch(ctx: Ctx, reportSubmissionID: string | null | undefined) {
  const access = await conversationFor(ctx, ctx.db, reportSubmissionID, "ReportConversationRead");
  const other = otherSide(access.side);
  return { submissionId: access.submission.id, other, current: presenceOf(access.conversation, other) };
}

/**
 * A reporter's socket closed: their page is gone, so they are Offline. Only a change is written and
 * announced. Never throws: it runs in the socket's close handler.
 */
export async function markReporterOffline(ctx: Ctx): Promise<void> {
  if (ctx.actor.kind !== "reporter" || !ctx.actor.submissionId) return;
  const submissionId = ctx.actor.submissionId;
  try {
    const today = utcDay(new Date());
    const changed = await ctx.db
      .update(reportConversations)
      .set({ guestStatus: "Offline", guestLastSeenAt: today, guestLastTypedAt: sql`date_trunc('day', ${reportConversations.guestLastTypedAt}, 'UTC')` })
      .where(and(eq(reportConversations.submissionId, submissionId), eq(reportConversations.organisationId, ctx.actor.organisationId), ne(reportConversations.guestStatus, "Offline")))
      .returning({ organisationId: reportConversations.organisationId, lastTypedAt: reportConversations.guestLastTypedAt });
    const [row] = changed;
    if (!row) return;
    await announcePresence(ctx, row.organisationId, submissionId, { side: "Guest", status: "Offline", lastSeenAt: today.toISOString(), lastTypedAt: row.lastTypedAt?.toISOString() ?? null });
  } catch (error) {
    logError("Could not mark a reporter offline", error);
  }
}
