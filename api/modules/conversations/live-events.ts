import { and, inArray } from "drizzle-orm";
import { Repeater } from "graphql-yoga";
import { reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { isUuid } from "../../lib/ids.ts";
import { requirePermission } from "../access/policy.ts";
import { newReportTopic } from "../reporting/complete.ts";
import { reportUpdatedTopic } from "../reports/events.ts";
import { reportScope, scopedReports } from "../reports/list.ts";
import { liveChannelsOf, queryKey, scopeKey } from "../reports/live-share.ts";
import { liveScope, watchScope } from "./list.ts";
import { activityTopic } from "./write.ts";

/** What the Conversations page hears: which report's conversation changed, and how. */
export interface ConversationEvent {
  submissionId: string;
  action: "message" | "presence" | "updated";
}

function eventOf(topic: string, payload: Record<string, unknown>): ConversationEvent | null {
  const submissionId = typeof payload.submissionId === "string" ? payload.submissionId : null;
  if (!submissionId) return null;
  const chat = topic.startsWith(activityTopic("")) && (payload.action === "message" || payload.action === "presence");
  return { submissionId, action: chat ? (payload.action as ConversationEvent["action"]) : "updated" };
}

/**
 * The events of the Conversations page, each only for a report the subscriber may see as it is
 * now (a member's team changes). The check is one query per burst of events, shared by every
 * subscriber of this instance whose visibility is the same SQL (all owners and admins of an
 * organisation, say) and who hears the same organisations; a member has their own.
 */
export async function conversationEvents(ctx: Ctx, organisationID: string | null): Promise<Repeater<ConversationEvent>> {
  const actor = requirePermission(ctx, "ReportConversationList");
  const scope = await liveScope(ctx, actor, organisationID);
  // The reports whose rows the page lists (list.ts narrows them the same way), decision 009.
  const visible = scopedReports(actor, await reportScope(ctx, actor, organisationID));
  const visibleReports = () => ctx.db.select({ id: reportSubmissions.id }).from(reportSubmissions);
  const key = `reportConversations\n${scopeKey(scope)}\n${queryKey(visibleReports().where(visible))}`;
  const visibleAmong = async (events: ConversationEvent[]) => {
    const ids = [...new Set(events.map((event) => event.submissionId))].filter(isUuid);
    if (ids.length === 0) return [];
    const seen = new Set((await visibleReports().where(and(inArray(reportSubmissions.id, ids), visible))).map((row) => row.id));
    return events.filter((event) => seen.has(event.submissionId));
  };
  const channels = liveChannelsOf(ctx.services.pubsub);
  return new Repeater<ConversationEvent>(async (push, stop) => {
    const leave = channels.join<ConversationEvent, ConversationEvent[]>(
      {
        name: "reportConversations",
        key,
        listen: (emit) =>
          watchScope(ctx.services.pubsub, scope, [activityTopic, reportUpdatedTopic, newReportTopic], (topic, payload) => {
            const event = eventOf(topic, payload);
            // A burst's repeats of one report's event tell the page nothing more.
            if (event) emit(`${event.submissionId} ${event.action}`, event);
          }),
      },
      {
        compute: visibleAmong,
        deliver: (events) => {
          for (const event of events) void push(event);
        },
        fail: (error) => stop(error),
      },
    );
    await stop;
    leave();
  });
}
