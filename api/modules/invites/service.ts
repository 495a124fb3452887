import { eq } from "drizzle-orm";
import { onboardInvites } from "../../../db/schema/index.ts";
import type { Database } from "../../../db/client.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { mailFailureReason, type OutgoingMail } from "../../lib/mailer.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { mutate } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { claimSeat } from "../organisations/seats.ts";
import { InviteInput } from "./inputs.ts";
import { INVITE_LIFETIME_MS, inviteMail } from "./mails.ts";
import { invitableRole, lockedInvite, lockInvitingOrganisation, requireNoAccount, requireNoOpenInvite, type LockedInvite } from "./rules.ts";
import { inviteView, requireInvitePermission, type InviteView } from "./views.ts";

/**
 * Invites to an organisation's staff (spec §2 Invites, §4 Invite: Invited → Onboarded; decision 035).
 * Each change locks the organisation, writes the invite and its audit entry in one transaction,
 * and mails only after that commits, so a mail never carries a link that does not exist.
 */

export const resendFailed = (email: string) => `An error occurred when re-sending an invitation to "${email}"`;
export const ONLY_INVITED_RESEND = "Only invites that are still Invited can be resent.";
export const ARCHIVED_NO_RESEND = "An archived invite cannot be resent. Unarchive it first.";

const audit = (tx: Database, actor: StaffActor, invite: { id: string; organisationId: string; email: string; firstName: string; lastName: string }, action: string, extra: Record<string, unknown> = {}) =>
  recordActivity(tx, actor, {
    organisationId: invite.organisationId,
    objectType: "OnboardInvite",
    objectId: invite.id,
    action,
    metadata: { first_name: invite.firstName, last_name: invite.lastName, email: invite.email, ...extra },
  });

/** A fresh link secret for the invite: only its hash is stored, and the one before it stops working. */
function freshToken(now: Date) {
  const token = newToken();
  return { token, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS) };
}

/**
 * Hands the mail over after commit. A failure is logged (without the address) and recorded against
 * the invite, and answered as false: the invite stands, and Resend can try again.
 */
async function deliver(ctx: Ctx, actor: StaffActor, invite: { id: string; organisationId: string; email: string; firstName: string; lastName: string }, mail: OutgoingMail): Promise<boolean> {
  try {
    await ctx.services.mailer.send(mail);
    return true;
  } catch (error) {
    logError("Could not send an invite", undefined, { reason: mailFailureReason(error) });
    await recordActivity(ctx.db, actor, {
      organisationId: invite.organisationId,
      objectType: "OnboardInvite",
      objectId: invite.id,
      action: "InviteEmailFailed",
      metadata: { first_name: invite.firstName, last_name: invite.lastName, email: invite.email },
    }).catch((auditError: unknown) => logError("Could not record a failed invite mail", auditError));
    return false;
  }
}

/** onboardInviteCreate: needs a free seat, a role below the actor's, and an address with no account and no open invite here. */
export async function createInvite(ctx: Ctx, rawOrganisationID: unknown, rawInput: unknown, now = new Date()): Promise<{ hasEmailSent: boolean; invite: InviteView }> {
  requireInvitePermission(ctx, "OrganisationMemberInviteCreate");
  const { actor, created, mail } = await mutate(ctx, "OrganisationMemberInviteCreate", async (tx, actor) => {
    const organisation = await lockInvitingOrganisation(tx, actor, rawOrganisationID);
    const input = parseWith(InviteInput, rawInput);
    const role = await invitableRole(tx, actor, input.roleID);
    await requireNoAccount(tx, input.email);
    await requireNoOpenInvite(tx, organisation.id, input.email);
    // An open invite holds a seat until it is accepted, archived or expires (organisations/seats.ts).
    await claimSeat(tx, organisation.id, { now });
    const { token, tokenHash, expiresAt } = freshToken(now);
    const [created] = await tx
      .insert(onboardInvites)
      .values({
        organisationId: organisation.id,
        roleId: role.id,
        type: "Member",
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        tokenHash,
        invitedByUserId: actor.userId,
        expiresAt,
        createdAt: now,
      })
      .returning();
    await audit(tx, actor, created!, "Create", { role: role.name });
    return { actor, created: created!, mail: inviteMail(ctx.services.config, { email: created!.email, firstName: created!.firstName, organisationName: organisation.name }, token) };
  });
  const hasEmailSent = await deliver(ctx, actor, created, mail);
  return { hasEmailSent, invite: await inviteView(ctx.db, created.id) };
}

const isOpenSeatHolder = (invite: LockedInvite, now: Date) => invite.status === "Invited" && !invite.archived && invite.expiresAt > now;

/**
 * resendOnboardInvite: only while Invited and not archived. A new link with a new week replaces the
 * old one, which stops working at once. An expired invite held no seat, so it needs one again.
 */
export async function resendInvite(ctx: Ctx, rawId: unknown, now = new Date()): Promise<InviteView> {
  requireInvitePermission(ctx, "OrganisationMemberInviteCreate");
  const { actor, invite, mail } = await mutate(ctx, "OrganisationMemberInviteCreate", async (tx, actor) => {
    const invite = await lockedInvite(tx, actor, rawId);
    if (invite.status !== "Invited") throw new UserError("CONFLICT", ONLY_INVITED_RESEND);
    if (invite.archived) throw new UserError("CONFLICT", ARCHIVED_NO_RESEND);
    if (invite.organisation.archived) throw new UserError("CONFLICT", ORGANISATION_UNAVAILABLE);
    await requireNoAccount(tx, invite.email);
    if (!isOpenSeatHolder(invite, now)) await claimSeat(tx, invite.organisationId, { now });
    const { token, tokenHash, expiresAt } = freshToken(now);
    await tx.update(onboardInvites).set({ tokenHash, expiresAt, updatedAt: now }).where(eq(onboardInvites.id, invite.id));
    await audit(tx, actor, invite, "Resend");
    return { actor, invite, mail: inviteMail(ctx.services.config, { email: invite.email, firstName: invite.firstName, organisationName: invite.organisation.name }, token) };
  });
  if (!(await deliver(ctx, actor, invite, mail))) throw new UserError("UNAVAILABLE", resendFailed(invite.email));
  return inviteView(ctx.db, invite.id);
}

/**
 * onboardInviteArchive frees the invite's seat (archived invites hold none) and voids its link;
 * onboardInviteUnarchive brings an Invited one back only if a seat is free and it is still the
 * address's only open invite without an account.
 */
export async function setInviteArchived(ctx: Ctx, rawId: unknown, archived: boolean, now = new Date()): Promise<InviteView> {
  const permission = archived ? "OrganisationMemberInviteArchive" : "OrganisationMemberInviteUnarchive";
  requireInvitePermission(ctx, permission);
  const id = await mutate(ctx, permission, async (tx, actor) => {
    const invite = await lockedInvite(tx, actor, rawId);
    if (invite.archived === archived) throw new UserError("CONFLICT", archived ? "Invite is already archived." : "Invite is not archived.");
    if (!archived && invite.status === "Invited") {
      if (invite.organisation.archived) throw new UserError("CONFLICT", ORGANISATION_UNAVAILABLE);
      await requireNoAccount(tx, invite.email);
      await requireNoOpenInvite(tx, invite.organisationId, invite.email, invite.id);
      if (invite.expiresAt > now) await claimSeat(tx, invite.organisationId, { now });
    }
    await tx.update(onboardInvites).set({ archived, archivedAt: archived ? now : null, updatedAt: now }).where(eq(onboardInvites.id, invite.id));
    await audit(tx, actor, invite, archived ? "Archive" : "Unarchive", { archived });
    return invite.id;
  });
  return inviteView(ctx.db, id);
}
