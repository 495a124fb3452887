import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { guestMemberships, reportConversationMessages, reportConversations, reportForms, reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import type { PubSub } from "../../lib/pubsub.ts";
import { IdText, parseWith, SearchText } from "../../lib/validation.ts";
import { CONVERSATION_SORT_KEYS, PRIORITIES, SORT_DIRECTIONS, type MessageSender, type MessageType } from "../../shared/enums.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { reportIdMatches, reportScope, scopedReports } from "../reports/list.ts";
import { isOrganisationManager, isTerminal } from "../reports/policy.ts";
import { loadReportViews, type ReportView } from "../reports/views.ts";
import { pageLimit, pageOffset } from "../users/service.ts";
import { presenceOf, type PresenceView } from "./presence.ts";

/** The Conversations page (spec section 2): one row per chat of a report the actor may see. */


export interface LastMessageView {
  type: MessageType;
  message: string;
  from: MessageSender;
  fromUser: { id: string; firstName: string; lastName: string } | null;
  createdAt: Date;
}

export interface ConversationItem extends PresenceView {
  id: string;
  createdAt: Date;
  submission: ReportView;
  lastMessage: LastMessageView | null;
  concluded: boolean;
  /** The report is closed (any terminal status) or archived: nobody can write in it as it is. */
  closed: boolean;
  unreadMessages: number;
}

const ArgsSchema = v.object({
  search: SearchText,
  organisationID: v.nullish(IdText),
  priority: v.nullish(v.picklist(PRIORITIES)),
  sortBy: v.nullish(v.picklist(CONVERSATION_SORT_KEYS)),
  sortDir: v.nullish(v.picklist(SORT_DIRECTIONS)),
  limit: v.nullish(v.number()),
  offset: v.nullish(v.number()),
});

export type ConversationListArgs = v.InferInput<typeof ArgsSchema>;

/**
 * Newest last message first by default (spec section 9); conversations without messages go last
 * either way, as "no message yet" is not older or newer than a date. The id breaks ties so rows
 * never swap between pages.
 */
function ordering(sortBy: (typeof CONVERSATION_SORT_KEYS)[number], ascending: boolean): SQL[] {
  const dir = ascending ? sql`asc` : sql`desc`;
  const lastMessage = sql`${reportConversations.lastMessageAt} ${dir} nulls last`;
  const byId = sql`${reportConversations.id} ${dir}`;
  // Postgres orders an enum by its declaration (Low, Medium, High), so descending is High first.
  if (sortBy === "Priority") return [sql`${reportSubmissions.priority} ${dir}`, lastMessage, byId];
  if (sortBy === "DateCreated") return [sql`${reportConversations.createdAt} ${dir}`, byId];
  return [lastMessage, byId];
}

export async function listConversations(ctx: Ctx, rawArgs: ConversationListArgs): Promise<{ total: number; list: ConversationItem[] }> {
  const actor = requirePermission(ctx, "ReportConversationList");
  const args = parseWith(ArgsSchema, rawArgs);
  const organisationId = await reportScope(ctx, actor, args.organisationID);
  // scopedReports holds the visibility rules (decision 009): completed, not deleted, the actor's to see.
  const conditions: (SQL | undefined)[] = [scopedReports(actor, organisationId), eq(reportForms.hasChat, true)];
  if (args.priority) conditions.push(eq(reportSubmissions.priority, args.priority));
  if (args.search) conditions.push(reportIdMatches(args.search));
  const where = and(...conditions);
  const [totalRow] = await ctx.db
    .select({ n: count() })
    .from(reportConversations)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .where(where);
  const rows = await ctx.db
    .select({ conversation: reportConversations, status: reportSubmissions.status, archived: reportSubmissions.archived })
    .from(reportConversations)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .where(where)
    .orderBy(...ordering(args.sortBy ?? "DateLastMessage", args.sortDir === "Ascending"))
    .limit(pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  const views = new Map((await loadReportViews(ctx, actor, rows.map((row) => row.conversation.submissionId))).map((view) => [view.id, view]));
  const lastMessages = await lastMessagesOf(ctx, rows.map((row) => row.conversation.id));
  const now = new Date();
  const list = rows.flatMap(({ conversation, status, archived }): ConversationItem[] => {
    const submission = views.get(conversation.submissionId);
    if (!submission) return [];
    return [
      {
        id: conversation.id,
        createdAt: conversation.createdAt,
        submission,
        lastMessage: lastMessages.get(conversation.id) ?? null,
        // Staff look at the reporter's side.
        ...presenceOf(conversation, "Guest", now),
        concluded: conversation.concluded,
        closed: isTerminal(status) || archived,
        unreadMessages: submission.unreadMessages,
      },
    ];
  });
  return { total: totalRow?.n ?? 0, list };
}

/** The newest message of each conversation, in one query, its text opened. */
async function lastMessagesOf(ctx: Ctx, conversationIds: string[]): Promise<Map<string, LastMessageView>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectDistinctOn([reportConversationMessages.conversationId], {
      conversationId: reportConversationMessages.conversationId,
      organisationId: reportConversationMessages.organisationId,
      type: reportConversationMessages.type,
      message: reportConversationMessages.message,
      from: reportConversationMessages.from,
      createdAt: reportConversationMessages.createdAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reportConversationMessages)
    .leftJoin(users, eq(users.id, reportConversationMessages.fromUserId))
    .where(inArray(reportConversationMessages.conversationId, conversationIds))
    .orderBy(reportConversationMessages.conversationId, desc(reportConversationMessages.createdAt), desc(reportConversationMessages.id));
  // A super admin's list spans organisations: one sealer each, not one per row.
  const sealers = await ctx.services.keyRing.sealers(ctx.db, rows.map((row) => row.organisationId));
  return new Map(
    rows.map((row) => [
      row.conversationId,
      {
        type: row.type,
        message: sealers.get(row.organisationId)!.openText("message", row.message),
        from: row.from,
        fromUser: row.userId ? { id: row.userId, firstName: row.firstName ?? "", lastName: row.lastName ?? "" } : null,
        createdAt: row.createdAt,
      },
    ]),
  );
}

/** The organisations whose events a live view listens to; `all` for a super admin over every organisation. */
export type LiveScope = { all: true } | { all: false; organisationIds: string[] };

/**
 * Where the reports an actor's live view draws from can change: a named organisation (checked as
 * the queries check it), every organisation for a super admin, the own organisation for owners and
 * admins, and for members and guest members also the organisations of the reports whose team they
 * are on or that they are a guest of (decision 009: they see team reports wherever they are).
 */
export async function liveScope(ctx: Ctx, actor: StaffActor, organisationID: string | null | undefined): Promise<LiveScope> {
  const named = await reportScope(ctx, actor, organisationID);
  if (named) return { all: false, organisationIds: [named] };
  if (isSuperAdmin(actor)) return { all: true };
  const own = actor.organisationId ? [actor.organisationId] : [];
  if (isOrganisationManager(actor)) return { all: false, organisationIds: own };
  const [teams, guestOf] = await Promise.all([
    ctx.db
      .selectDistinct({ id: reportSubmissions.organisationId })
      .from(reportSubmissionAssignees)
      .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAssignees.submissionId))
      .where(eq(reportSubmissionAssignees.userId, actor.userId)),
    ctx.db
      .select({ id: guestMemberships.organisationId })
      .from(guestMemberships)
      .where(and(eq(guestMemberships.userId, actor.userId), eq(guestMemberships.archived, false))),
  ]);
  return { all: false, organisationIds: [...new Set([...own, ...teams.map((row) => row.id), ...guestOf.map((row) => row.id)])] };
}

/**
 * Listens to per-organisation topics over a scope. A topic function given "" is the topic's
 * prefix, which is how "every organisation" is heard.
 */
export function watchScope(pubsub: PubSub, scope: LiveScope, topics: ((organisationId: string) => string)[], listener: (topic: string, payload: Record<string, unknown>) => void): () => void {
  const stops = scope.all
    ? topics.map((topic) => pubsub.subscribePrefix(topic(""), listener))
    : scope.organisationIds.flatMap((organisationId) => topics.map((topicOf) => {
        const topic = topicOf(organisationId);
        return pubsub.subscribe(topic, (payload) => listener(topic, payload));
      }));
  return () => {
    for (const stop of stops) stop();
  };
}
