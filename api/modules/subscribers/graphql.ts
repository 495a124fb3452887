import { builder } from "../../graphql/builder.ts";
import { createSubscriber, deleteSubscriber, listSubscribers, type SubscriberView } from "./service.ts";

/** The spec's Subscriber (§3): the organisation's one email subscriber. */
const SubscriberType = builder.objectRef<SubscriberView>("OrganisationEmailSubscriber").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    organisationID: t.exposeID("organisationId"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const SubscriberListType = builder.objectRef<{ total: number; list: SubscriberView[] }>("OrganisationEmailSubscriberList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [SubscriberType] }) }),
});

// Every field optional here so that a missing one is answered 'Required' by the server's validation, as the form words it.
const SubscriberInput = builder.inputType("OrganisationEmailSubscriberInput", {
  fields: (t) => ({ firstName: t.string(), lastName: t.string(), email: t.string() }),
});

const idOrNull = (id: string | number | null | undefined) => (id == null ? null : String(id));

builder.queryFields((t) => ({
  organisationEmailSubscribers: t.field({
    type: SubscriberListType,
    args: { organisationID: t.arg.id(), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "OrganisationEmailSubscriberList" },
    resolve: (_root, args, ctx) => listSubscribers(ctx, { ...args, organisationID: idOrNull(args.organisationID) }),
  }),
}));

builder.mutationFields((t) => ({
  organisationEmailSubscriberCreate: t.field({
    type: SubscriberType,
    args: { organisationID: t.arg.id(), input: t.arg({ type: SubscriberInput, required: true }) },
    authScopes: { permission: "OrganisationEmailSubscriberCreate" },
    resolve: (_root, args, ctx) => createSubscriber(ctx, idOrNull(args.organisationID), args.input),
  }),
  organisationEmailSubscriberDelete: t.field({
    type: SubscriberType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "OrganisationEmailSubscriberDelete" },
    resolve: (_root, args, ctx) => deleteSubscriber(ctx, String(args.id)),
  }),
}));
