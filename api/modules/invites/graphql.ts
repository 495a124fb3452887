import { builder } from "../../graphql/builder.ts";
import { INVITE_STATUSES } from "../../shared/enums.ts";
import type { SeatUsage } from "../organisations/seats.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { RoleNameEnum } from "../users/graphql.ts";
import { createInvite, resendInvite, setInviteArchived } from "./service.ts";
import { listInvites, type InviteList, type InviteView } from "./views.ts";

const InviteStatusEnum = builder.enumType("InviteStatus", { values: INVITE_STATUSES });

const InviteOrganisationType = builder.objectRef<InviteView["organisation"]>("OnboardInviteOrganisation").implement({
  fields: (t) => ({ id: t.exposeID("id"), name: t.exposeString("name"), enableSSO: t.exposeBoolean("enableSSO") }),
});

/** The spec's Invite (admin console §3; reporter and access §3 OnboardInvite). The onboarding pages reuse it. */
export const OnboardInviteType = builder.objectRef<InviteView>("OnboardInvite").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email"),
    status: t.expose("status", { type: InviteStatusEnum }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    roleID: t.exposeID("roleId"),
    roleName: t.expose("roleName", { type: RoleNameEnum }),
    roleLabel: t.exposeString("roleLabel"),
    organisation: t.field({ type: InviteOrganisationType, resolve: (invite) => invite.organisation }),
  }),
});

const SeatsType = builder.objectRef<SeatUsage>("OrganisationSeats").implement({
  fields: (t) => ({ openSeatNumber: t.exposeInt("openSeatNumber"), activeUsers: t.exposeInt("activeUsers"), pendingInvites: t.exposeInt("pendingInvites") }),
});

const OnboardInviteListType = builder.objectRef<InviteList>("OnboardInviteList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    list: t.expose("list", { type: [OnboardInviteType] }),
    seats: t.expose("seats", { type: SeatsType, nullable: true }),
  }),
});

const InviteCreateResultType = builder.objectRef<{ hasEmailSent: boolean; invite: InviteView }>("OnboardInviteCreateResult").implement({
  fields: (t) => ({ hasEmailSent: t.exposeBoolean("hasEmailSent"), invite: t.expose("invite", { type: OnboardInviteType }) }),
});

// Every field optional here so that a missing one is answered 'Required' by the server's validation, as the modal words it.
const OnboardInviteInput = builder.inputType("OnboardInviteInput", {
  fields: (t) => ({ firstName: t.string(), lastName: t.string(), email: t.string(), roleID: t.id() }),
});

// The fields check only that someone is signed in: the verbs refuse a role without the invite
// permissions with the spec's 'Members cannot create invites' rather than a bare refusal.
builder.queryFields((t) => ({
  onboardInvites: t.field({
    type: OnboardInviteListType,
    args: { organisationID: t.arg.id(), search: t.arg.string(), filter: t.arg({ type: ListFilterEnum }), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => listInvites(ctx, { ...args, organisationID: args.organisationID ? String(args.organisationID) : null }),
  }),
}));

builder.mutationFields((t) => ({
  onboardInviteCreate: t.field({
    type: InviteCreateResultType,
    args: { input: t.arg({ type: OnboardInviteInput, required: true }), organisationID: t.arg.id() },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => createInvite(ctx, args.organisationID ? String(args.organisationID) : null, { ...args.input, roleID: args.input.roleID == null ? args.input.roleID : String(args.input.roleID) }),
  }),
  resendOnboardInvite: t.field({
    type: OnboardInviteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => resendInvite(ctx, String(args.id)),
  }),
  onboardInviteArchive: t.field({
    type: OnboardInviteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => setInviteArchived(ctx, String(args.id), true),
  }),
  onboardInviteUnarchive: t.field({
    type: OnboardInviteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => setInviteArchived(ctx, String(args.id), false),
  }),
}));
