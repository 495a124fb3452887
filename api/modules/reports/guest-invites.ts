import { and, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { guestMemberships, guestReportInvites, organisations, reportSubmissionAssignees, reportSubmissions, roles, users } from "../../../db/schema/index.ts";
import type { Config } from "../../config.ts";
import type { Ctx } from "../../context.ts";
import { UserError, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { parseWith } from "../../lib/validation.ts";
import type { GuestInviteStatus } from "../../shared/enums.ts";
import { TWO_FACTOR_FOR_INVITES } from "../../shared/messages.ts";
import { mutate, requirePermission, requireStaff } from "../access/policy.ts";
import { changeReport, publishReportUpdated, recordReportChange } from "./events.ts";
import { isOrganisationManager, reportFor, type ReportAccess } from "./policy.ts";
import { addToTeam, personById } from "./team.ts";
import { hasTwoFactor } from "./two-factor-gate.ts";

/**
 * Guest report invites: an owner of a report who runs its organisation invites an outsider by
 * email; the guest accepts (joining the team) or rejects from /admin/manage/report-invites.
 */

export const ALREADY_INVITED = "This person has already been invited to this report.";
export const INVITEE_ON_TEAM = "This person is already on this report's team.";
export const INVITE_NOT_FOUND = "Invite is not found";
export const INVITES_PATH = "/admin/manage/report-invites";

export interface GuestInviteView {
  id: string;
  reportSubmissionID: string;
  reportID: string;
  email: string;
  status: GuestInviteStatus;
  organisationName: string;
  createdAt: Date;
  archived: boolean;
  archivedAt: Date | null;
}

async function inviteViews(db: Database, where: SQL): Promise<GuestInviteView[]> {
  return db
    .select({
      id: guestReportInvites.id,
      reportSubmissionID: guestReportInvites.submissionId,
      reportID: sql<string>`coalesce(${reportSubmissions.reportId}, '')`,
      email: guestReportInvites.email,
      status: guestReportInvites.status,
      organisationName: organisations.name,
      createdAt: guestReportInvites.createdAt,
      archived: guestReportInvites.archived,
      archivedAt: guestReportInvites.archivedAt,
    })
    .from(guestReportInvites)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, guestReportInvites.submissionId))
    .innerJoin(organisations, eq(organisations.id, guestReportInvites.organisationId))
    .where(where)
    .orderBy(desc(guestReportInvites.createdAt), desc(guestReportInvites.id));
}

/** The spec: the Invites section is only for an owner of the report who is an owner or admin of its organisation. */
function requireInviter(access: ReportAccess): void {
  if (!(access.isOwner && isOrganisationManager(access.actor) && access.actor.organisationId === access.submission.organisationId)) throw forbidden();
}

const EmailInput = v.object({ email: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.email("Invalid email"), v.maxLength(254, "Invalid email"), v.toLowerCase()) });

/** Where the invitee signs in and finds the invite; the mail carries nothing else. */
export function invitesLink(config: Config): string {
  // Outside production the console is reached on the server's own port; in production a proxy serves 443.
  const port = config.production ? "" : `:${config.port}`;
  return `${config.protocol}://${config.appDomain}${port}${INVITES_PATH}`;
}

export async function inviteGuest(ctx: Ctx, id: unknown, rawEmail: unknown): Promise<GuestInviteView> {
  let inviteId = "";
  let organisationName = "";
  await changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    requireInviter(access);
    // The address is judged once the report is found and the inviter allowed (decision 065).
    const { email } = parseWith(EmailInput, { email: rawEmail });
    const submissionId = access.submission.id;
    const [open] = await tx
      .select({ id: guestReportInvites.id })
      .from(guestReportInvites)
      .where(and(eq(guestReportInvites.submissionId, submissionId), sql`lower(${guestReportInvites.email}) = ${email}`, eq(guestReportInvites.status, "Opened"), eq(guestReportInvites.archived, false)));
    if (open) throw new UserError("CONFLICT", ALREADY_INVITED);
    const [person] = await tx.select({ id: users.id, role: roles.name }).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(sql`lower(${users.email}) = ${email}`);
    if (person && access.team.some((member) => member.userId === person.id)) throw new UserError("CONFLICT", INVITEE_ON_TEAM);
    // Only a guest account can take the invite up. Any other account is left unlinked rather than
    // refused, so the answer does not tell the inviter whether an address has an account here.
    const [invite] = await tx
      .insert(guestReportInvites)
      .values({ submissionId, organisationId: access.submission.organisationId, email, userId: person?.role === "GUEST_MEMBER" ? person.id : null, invitedByUserId: access.actor.userId })
      .returning({ id: guestReportInvites.id });
    const [organisation] = await tx.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, access.submission.organisationId));
    inviteId = invite!.id;
    organisationName = organisation!.name;
    return { action: "InviteUser", metadata: { email, inviteId }, afterCommit: () => mailInvite(ctx, email, organisationName) };
  });
  return (await inviteViews(ctx.db, eq(guestReportInvites.id, inviteId)))[0]!;
}

/**
 * Mail leaves the platform in the clear: it names the organisation and links to the console,
 * never the report. A failed send does not undo the invite; the guest also finds it on sign-in.
 */
async function mailInvite(ctx: Ctx, to: string, organisationName: string): Promise<void> {
  const link = invitesLink(ctx.services.config);
  const text = [
    `${organisationName} has invited you to help with a report as a guest member.`,
    "",
    `Sign in to see and accept the invitation: ${link}`,
    "",
    "If you did not expect this invitation, you can ignore this email.",
  ].join("\n");
  await ctx.services.mailer.send({ to, subject: `Invitation from ${organisationName}`, text }).catch((error: unknown) => logError("Could not send a guest report invite", error));
}

export async function reportInvites(ctx: Ctx, reportSubmissionID: unknown): Promise<GuestInviteView[]> {
  const access = await reportFor(ctx, ctx.db, reportSubmissionID, "ReportSubmissionRead");
  requireInviter(access);
  return inviteViews(ctx.db, and(eq(guestReportInvites.submissionId, access.submission.id), eq(guestReportInvites.archived, false))!);
}

/** Withdraws an invite: an open one becomes Aborted; any is archived out of the list. */
export async function removeInvite(ctx: Ctx, inviteId: unknown): Promise<GuestInviteView> {
  requirePermission(ctx, "ReportSubmissionUpdate");
  const invite = isUuid(inviteId) ? (await ctx.db.select().from(guestReportInvites).where(eq(guestReportInvites.id, inviteId.toLowerCase())))[0] : undefined;
  if (!invite) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
  try {
    await changeReport(ctx, invite.submissionId, "ReportSubmissionUpdate", async (tx, access) => {
      requireInviter(access);
      const [locked] = await tx.select().from(guestReportInvites).where(eq(guestReportInvites.id, invite.id)).for("update");
      if (!locked || locked.archived) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
      const status: GuestInviteStatus = locked.status === "Opened" ? "Aborted" : locked.status;
      await tx.update(guestReportInvites).set({ status, archived: true, archivedAt: new Date() }).where(eq(guestReportInvites.id, invite.id));
      return { action: "InviteRemove", metadata: { email: locked.email, inviteId: invite.id, status } };
    });
  } catch (error) {
    // An invite on a report the caller cannot see answers exactly like an invite that does not exist.
    if (error instanceof UserError && error.code === "NOT_FOUND") throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
    throw error;
  }
  return (await inviteViews(ctx.db, eq(guestReportInvites.id, invite.id)))[0]!;
}

/** Invites addressed to the signed-in guest: linked to their account, or sent to their address before it existed. */
export function addressedTo(userId: string, email: string): SQL {
  return or(eq(guestReportInvites.userId, userId), and(isNull(guestReportInvites.userId), sql`lower(${guestReportInvites.email}) = ${email.toLowerCase()}`))!;
}

export async function myInvites(ctx: Ctx): Promise<GuestInviteView[]> {
  const actor = requireStaff(ctx);
  // Every console user may open the invites page; only guest accounts can hold invites.
  if (actor.role !== "GUEST_MEMBER") return [];
  return inviteViews(ctx.db, and(addressedTo(actor.userId, actor.email), eq(guestReportInvites.archived, false))!);
}

/**
 * The invitee answers. Accepting joins the report team and admits the guest to the organisation,
 * and needs two-factor authentication active (spec); rejecting never does (decision 032).
 */
export async function answerInvite(ctx: Ctx, inviteId: unknown, accept: boolean): Promise<GuestInviteView> {
  const actor = requireStaff(ctx);
  const id = isUuid(inviteId) ? inviteId.toLowerCase() : null;
  if (actor.role !== "GUEST_MEMBER" || !id) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
  const submission = await mutate(ctx, "ReportSubmissionRead", async (tx) => {
    const mine = and(eq(guestReportInvites.id, id), addressedTo(actor.userId, actor.email));
    const [found] = await tx.select({ submissionId: guestReportInvites.submissionId }).from(guestReportInvites).where(mine);
    if (!found) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
    // Read inside the transaction, so an account that turns two-factor off meanwhile cannot slip through.
    if (accept && !(await hasTwoFactor(tx, actor.userId))) throw forbidden(TWO_FACTOR_FOR_INVITES);
    // Report first, then the invite: the order every report change (a withdrawal, too) takes, so none deadlock.
    const [row] = await tx
      .select()
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.id, found.submissionId), eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt)))
      .for("update");
    const [invite] = await tx.select().from(guestReportInvites).where(mine).for("update");
    if (!row || !invite || invite.archived) throw new UserError("NOT_FOUND", INVITE_NOT_FOUND);
    if (invite.status !== "Opened") throw new UserError("CONFLICT", `This invitation has already been ${invite.status === "Approved" ? "accepted" : "answered"}.`);
    await tx.update(guestReportInvites).set({ status: accept ? "Approved" : "Rejected", userId: actor.userId }).where(eq(guestReportInvites.id, invite.id));
    const access = await teamAccess(tx, ctx, row);
    if (accept) {
      if (!access.assigned) await addToTeam(tx, row, access.team, (await personById(tx, actor.userId))!);
      if (actor.organisationId !== row.organisationId) {
        await tx
          .insert(guestMemberships)
          .values({ userId: actor.userId, organisationId: row.organisationId })
          .onConflictDoUpdate({ target: [guestMemberships.userId, guestMemberships.organisationId], set: { archived: false, archivedAt: null } });
      }
    }
    await recordReportChange(tx, access, { action: accept ? "InviteAccept" : "InviteReject", metadata: { inviteId: invite.id, email: invite.email } });
    return row;
  });
  // Either answer changes the Team tab's Invites table, so open detail pages reload.
  await publishReportUpdated(ctx, submission.organisationId, submission.id);
  return (await inviteViews(ctx.db, eq(guestReportInvites.id, id)))[0]!;
}

/** The invitee's relation to the report; they are not on its team yet, so reportFor would not find it. */
async function teamAccess(tx: Database, ctx: Ctx, submission: ReportAccess["submission"]): Promise<ReportAccess> {
  const actor = requireStaff(ctx);
  const team = await tx
    .select({ userId: reportSubmissionAssignees.userId, isOwner: reportSubmissionAssignees.isOwner, isMuted: reportSubmissionAssignees.isMuted })
    .from(reportSubmissionAssignees)
    .where(eq(reportSubmissionAssignees.submissionId, submission.id));
  const mine = team.find((member) => member.userId === actor.userId);
  return { actor, submission, team, assigned: Boolean(mine), isOwner: Boolean(mine?.isOwner) };
}
