import { builder } from "../../graphql/builder.ts";
import { AUDIT_OBJECT_TYPES } from "../../shared/audit-object-types.ts";
import { RoleNameEnum } from "../users/graphql.ts";
import type { InputObjectRef } from "@pothos/core";
import type { DateFilter } from "../reports/list.ts";
import { getActivity, listActivities, parentActivity, type ActivityView } from "./activities.ts";

/** The audit log (spec: userActivities, userActivity). The service checks scope and report access again. */

const AuditObjectTypeEnum = builder.enumType("AuditObjectType", { values: AUDIT_OBJECT_TYPES });

const UserActivityUserType = builder.objectRef<NonNullable<ActivityView["user"]>>("UserActivityUser").implement({
  fields: (t) => ({
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    role: t.expose("role", { type: RoleNameEnum }),
  }),
});

const UserActivityType = builder.objectRef<ActivityView>("UserActivity");
UserActivityType.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    action: t.exposeString("action"),
    user: t.expose("user", { type: UserActivityUserType, nullable: true, description: "Null when a reporter or the system acted, or the account is gone." }),
    createdAt: t.expose("createdAt", {
      type: "DateTime",
      description: "When it happened; for an entry with dayOnly, the start of the UTC day it happened on.",
    }),
    dayOnly: t.exposeBoolean("dayOnly", {
      description: "Only the day is recorded: an entry without a person (a reporter's, an enquirer's or the system's) keeps no time of day (decision 064).",
    }),
    objectID: t.exposeID("objectId", { nullable: true }),
    objectType: t.expose("objectType", { type: AuditObjectTypeEnum }),
    isGrouped: t.exposeBoolean("isGrouped"),
    parent: t.field({ type: UserActivityType, nullable: true, resolve: (activity, _args, ctx) => parentActivity(ctx, activity.parentId) }),
    metadata: t.field({ type: "JSONObject", description: "Only the keys a reader of the log may see.", resolve: (activity) => activity.metadata }),
  }),
});

const UserActivityListType = builder.objectRef<{ total: number; list: ActivityView[] }>("UserActivityList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [UserActivityType] }) }),
});

// The reports' DateFilterInput (inclusive YYYY-MM-DD days), referred to by name so the modules stay apart.
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
const DateFilterRef = "DateFilterInput" as unknown as InputObjectRef<Types, NonNullable<DateFilter>>;

const idOrNull = (id: string | number | null | undefined) => (id === null || id === undefined ? null : String(id));

builder.queryFields((t) => ({
  userActivities: t.field({
    type: UserActivityListType,
    args: {
      organisationID: t.arg.id(),
      parentID: t.arg.id(),
      objectID: t.arg.id(),
      objectType: t.arg({ type: AuditObjectTypeEnum }),
      userID: t.arg.id({ description: "Only this person's entries." }),
      dateFilter: t.arg({ type: DateFilterRef, description: "Inclusive days (YYYY-MM-DD, UTC) of the entry's date; none in the future." }),
      limit: t.arg.int(),
      offset: t.arg.int(),
    },
    authScopes: { permission: "UserActivityList" },
    resolve: (_root, args, ctx) =>
      listActivities(ctx, {
        organisationID: idOrNull(args.organisationID),
        parentID: idOrNull(args.parentID),
        objectID: idOrNull(args.objectID),
        objectType: args.objectType ?? null,
        userID: idOrNull(args.userID),
        dateFilter: args.dateFilter ?? null,
        limit: args.limit,
        offset: args.offset,
      }),
  }),
  userActivity: t.field({
    type: UserActivityType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "UserActivityList" },
    resolve: (_root, args, ctx) => getActivity(ctx, String(args.id)),
  }),
}));
