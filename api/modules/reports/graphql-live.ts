import type { InputObjectRef, ObjectRef } from "@pothos/core";
import { Repeater } from "graphql-yoga";
import type { Ctx } from "../../context.ts";
import { builder } from "../../graphql/builder.ts";
import { forbidden } from "../../lib/errors.ts";
import { requirePermission, requireStaff } from "../access/policy.ts";
import { liveScope, watchScope, type LiveScope } from "../conversations/list.ts";
import { activityTopic } from "../conversations/write.ts";
import { newReportTopic } from "../reporting/complete.ts";
import { getReport } from "./detail.ts";
import { reportUpdatedTopic } from "./events.ts";
import { ReportSubmissionType } from "./graphql-types.ts";
import type { DateFilter } from "./list.ts";
import { LIVE_DEBOUNCE_MS, LiveChannels, liveChannelsOf, scopeKey } from "./live-share.ts";
import { organisationUserStatsQuery, reportStatsQuery, userStatsQuery, type LiveQuery, type OrganisationUserStats, type ReportStats, type UserStats } from "./stats.ts";

/**
 * The live dashboard and sidebar numbers (spec section 7, Subscriptions): each sends the value at
 * once, then again whenever an event in the subscriber's scope may have changed it. Events carry
 * ids only, so the value is recomputed with the query's own function; subscribers whose query is
 * the same (same SQL, same organisations heard) share that recomputation (live-share.ts).
 */

export { LIVE_DEBOUNCE_MS };

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

// The queries' types, by name: graphql-queries.ts keeps its refs to itself, and a second ref of the
// same name would be a duplicate type. Pothos resolves a name once every module has registered.
const ReportStatsRef = "ReportStats" as unknown as ObjectRef<Types, ReportStats>;
const OrganisationUserStatsRef = "OrganisationUserStats" as unknown as ObjectRef<Types, OrganisationUserStats>;
const UserStatsRef = "UserStats" as unknown as ObjectRef<Types, UserStats>;
const DateFilterRef = "DateFilterInput" as unknown as InputObjectRef<Types, NonNullable<DateFilter>>;

type Listen = (changed: () => void) => () => void;

/** Where a live value is shared: its instance's channels and the key of the computation. */
interface Sharing {
  channels: LiveChannels;
  name: string;
  key: string;
}

/**
 * The value, then `compute()` after events, at most once per window and only when the value
 * changed. Without a `first`, the first value comes from the channel's computation in flight, or
 * one started at once. Losing access (a UserError) ends the stream with that error; anything else
 * is logged and the stream waits for the next event.
 */
function valueStream<T>(first: { value: T } | null, compute: () => Promise<T>, listen: Listen, { channels, name, key }: Sharing): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    let last = first ? JSON.stringify(first.value) : null;
    const leave = channels.join<void, { value: T; text: string }>(
      { name, key, listen: (emit) => listen(() => emit("", undefined)) },
      {
        wantsFirst: !first,
        compute: async () => {
          const value = await compute();
          return { value, text: JSON.stringify(value) };
        },
        deliver: ({ value, text }) => {
          if (text === last) return;
          last = text;
          void push(value);
        },
        fail: (error) => stop(error),
      },
    );
    if (first) void push(first.value);
    await stop;
    leave();
  });
}

/** `first`, then the value after events, on a channel of its own. */
export function liveValue<T>(first: T, compute: () => Promise<T>, listen: Listen): Repeater<T> {
  return valueStream({ value: first }, compute, listen, { channels: new LiveChannels(), name: "live value", key: "" });
}

/** Chat presence changes no number; messages and reads change the unread counts. */
const countsChat = (topic: string, payload: Record<string, unknown>) => !topic.startsWith(activityTopic("")) || payload.action !== "presence";

function listenTo(ctx: Ctx, scope: LiveScope, topics: ((organisationId: string) => string)[]): Listen {
  return (changed) => watchScope(ctx.services.pubsub, scope, topics, (topic, payload) => countsChat(topic, payload) && changed());
}

/**
 * The value now, then on events over `scope`, shared with every subscriber of this instance that
 * runs the same query over the same organisations. The query was prepared (permission, scope,
 * arguments checked) before this, so a refusal still answers the subscription itself.
 */
function sharedLiveValue<T>(ctx: Ctx, name: string, query: LiveQuery<T>, scope: LiveScope, topics: ((organisationId: string) => string)[]): Repeater<T> {
  const channels = liveChannelsOf(ctx.services.pubsub);
  return valueStream(null, query.run, listenTo(ctx, scope, topics), { channels, name, key: `${name}\n${scopeKey(scope)}\n${query.key}` });
}

/** Guest members have no dashboard (spec section 6: these subscriptions are skipped for them). */
function requireDashboard(ctx: Ctx) {
  const actor = requirePermission(ctx, "ReportSubmissionList");
  if (actor.role === "GUEST_MEMBER") throw forbidden();
  return actor;
}

const idOrNull = (id: string | number | null | undefined) => (id === null || id === undefined ? null : String(id));

builder.subscriptionFields((t) => ({
  reportStats: t.field({
    type: ReportStatsRef,
    description: "The dashboard tiles now, then whenever a report in scope arrives or changes.",
    args: { organisationID: t.arg.id(), dateFilter: t.arg({ type: DateFilterRef }) },
    authScopes: { permission: "ReportSubmissionList" },
    subscribe: async (_root, args, ctx) => {
      const actor = requireDashboard(ctx);
      const organisationID = idOrNull(args.organisationID);
      // Checks the arguments (organisation, dates) before anything is listened to.
      const query = await reportStatsQuery(ctx, { organisationID, dateFilter: args.dateFilter });
      const scope = await liveScope(ctx, actor, organisationID);
      return sharedLiveValue(ctx, "reportStats", query, scope, [newReportTopic, reportUpdatedTopic]);
    },
    resolve: (value) => value,
  }),
  organisationUserStats: t.field({
    type: OrganisationUserStatsRef,
    description: "The sidebar's unassigned and unread badges, live.",
    args: { organisationID: t.arg.id() },
    authScopes: { permission: "ReportSubmissionList" },
    subscribe: async (_root, args, ctx) => {
      const actor = requireDashboard(ctx);
      const organisationID = idOrNull(args.organisationID);
      const query = await organisationUserStatsQuery(ctx, { organisationID });
      const scope = await liveScope(ctx, actor, organisationID);
      return sharedLiveValue(ctx, "organisationUserStats", query, scope, [newReportTopic, reportUpdatedTopic, activityTopic]);
    },
    resolve: (value) => value,
  }),
  reportSubmission: t.field({
    type: ReportSubmissionType,
    description: "A report's admin view now, then after each change to it; ends with 'not found' once the subscriber may no longer see it.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    subscribe: async (_root, args, ctx) => {
      const first = await getReport(ctx, String(args.id));
      // Every change is read again as the subscriber may see it now (getReport checks access each
      // time), so an unassigned member or a deleted report ends the stream instead of leaking it.
      // A suspended user's sessions end, and their sockets close with them.
      return liveValue(
        first,
        () => getReport(ctx, first.id),
        (changed) => ctx.services.pubsub.subscribe(reportUpdatedTopic(first.organisation.id), (payload) => payload.submissionId === first.id && changed()),
      );
    },
    resolve: (view) => view,
  }),
  userStats: t.field({
    type: UserStatsRef,
    description: "The Guest Access menu's counts, live.",
    authScopes: { staff: true },
    subscribe: async (_root, _args, ctx) => {
      requireStaff(ctx);
      // Report invites and guest memberships come from any organisation's reports, and every
      // change to them is a report change; a change elsewhere recomputes to the same value and
      // is not sent. The query is the user's own, so only their own tabs share it.
      return sharedLiveValue(ctx, "userStats", userStatsQuery(ctx), { all: true }, [reportUpdatedTopic]);
    },
    resolve: (value) => value,
  }),
}));
