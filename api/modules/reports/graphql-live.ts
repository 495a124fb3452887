import type { InputObjectRef, ObjectRef } from "@pothos/core";
import { Repeater } from "graphql-yoga";
import type { Ctx } from "../../context.ts";
import { builder } from "../../graphql/builder.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { requirePermission, requireStaff } from "../access/policy.ts";
import { liveScope, watchScope, type LiveScope } from "../conversations/list.ts";
import { activityTopic } from "../conversations/write.ts";
import { newReportTopic } from "../reporting/complete.ts";
import { reportUpdatedTopic } from "./events.ts";
import type { DateFilter } from "./list.ts";
import { organisationUserStats, reportStats, userStats, type OrganisationUserStats, type ReportStats, type UserStats } from "./stats.ts";

/**
 * The live dashboard and sidebar numbers (spec section 7, Subscriptions): each sends the value at
 * once, then again whenever an event in the subscriber's scope may have changed it. Events carry
 * ids only, so the value is recomputed with the query's own function and the subscriber's context.
 */

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

// The queries' types, by name: graphql-queries.ts keeps its refs to itself, and a second ref of the
// same name would be a duplicate type. Pothos resolves a name once every module has registered.
const ReportStatsRef = "ReportStats" as unknown as ObjectRef<Types, ReportStats>;
const OrganisationUserStatsRef = "OrganisationUserStats" as unknown as ObjectRef<Types, OrganisationUserStats>;
const UserStatsRef = "UserStats" as unknown as ObjectRef<Types, UserStats>;
const DateFilterRef = "DateFilterInput" as unknown as InputObjectRef<Types, NonNullable<DateFilter>>;

/** A burst of events (a bulk change, a chatty conversation) costs one recomputation per window. */
export const LIVE_DEBOUNCE_MS = 250;

type Listen = (changed: () => void) => () => void;

/**
 * `first`, then `compute()` after events, at most once per window and only when the value
 * changed. Losing access (a UserError) ends the stream with that error; anything else is logged
 * and the stream waits for the next event.
 */
export function liveValue<T>(first: T, compute: () => Promise<T>, listen: Listen): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    let last = JSON.stringify(first);
    let timer: ReturnType<typeof setTimeout> | null = null;
    let running = false;
    let again = false;
    const run = async () => {
      timer = null;
      running = true;
      try {
        const value = await compute();
        const text = JSON.stringify(value);
        if (text !== last) {
          last = text;
          void push(value);
        }
      } catch (error) {
        if (error instanceof UserError) stop(error);
        else logError("Could not recompute a live value", error);
      } finally {
        running = false;
        if (again) {
          again = false;
          schedule();
        }
      }
    };
    // An event during a recomputation may not be in its result: it earns one more run after.
    const schedule = () => {
      if (running) again = true;
      else timer ??= setTimeout(() => void run(), LIVE_DEBOUNCE_MS);
    };
    const off = listen(schedule);
    void push(first);
    await stop;
    off();
    if (timer) clearTimeout(timer);
    timer = null;
    again = false;
  });
}

/** Chat presence changes no number; messages and reads change the unread counts. */
const countsChat = (topic: string, payload: Record<string, unknown>) => !topic.startsWith(activityTopic("")) || payload.action !== "presence";

function listenTo(ctx: Ctx, scope: LiveScope, topics: ((organisationId: string) => string)[]): Listen {
  return (changed) => watchScope(ctx.services.pubsub, scope, topics, (topic, payload) => countsChat(topic, payload) && changed());
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
      const query = { organisationID: idOrNull(args.organisationID), dateFilter: args.dateFilter };
      // Checks the arguments (organisation, dates) before anything is listened to.
      const first = await reportStats(ctx, query);
      const scope = await liveScope(ctx, actor, query.organisationID);
      return liveValue(first, () => reportStats(ctx, query), listenTo(ctx, scope, [newReportTopic, reportUpdatedTopic]));
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
      const query = { organisationID: idOrNull(args.organisationID) };
      const first = await organisationUserStats(ctx, query);
      const scope = await liveScope(ctx, actor, query.organisationID);
      return liveValue(first, () => organisationUserStats(ctx, query), listenTo(ctx, scope, [newReportTopic, reportUpdatedTopic, activityTopic]));
    },
    resolve: (value) => value,
  }),
  userStats: t.field({
    type: UserStatsRef,
    description: "The Guest Access menu's counts, live.",
    authScopes: { staff: true },
    subscribe: async (_root, _args, ctx) => {
      requireStaff(ctx);
      const first = await userStats(ctx);
      // Report invites and guest memberships come from any organisation's reports, and every
      // change to them is a report change; a change elsewhere recomputes to the same value and
      // is not sent.
      return liveValue(first, () => userStats(ctx), listenTo(ctx, { all: true }, [reportUpdatedTopic]));
    },
    resolve: (value) => value,
  }),
}));
