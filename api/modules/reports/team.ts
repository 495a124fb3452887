import { and, asc, count, eq, exists, ilike, notExists, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { guestReportInvites, reportSubmissionAssignees, reportSubmissions, roles, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, badInput, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { containsPattern, searchTextOf } from "../../lib/validation.ts";
import type { RoleName, SubmissionStatus } from "../../shared/enums.ts";
import { pageLimit, pageOffset, USER_NOT_FOUND } from "../users/service.ts";
import { changeReport } from "./events.ts";
import { canManageTeam, isOrganisationManager, isTerminal, reportFor, type ReportAccess } from "./policy.ts";
import { loadReportViews, type ReportView, type TeamMemberView } from "./views.ts";

/** The report team: docs/decisions/009-report-access.md, spec sections 2 (Team tab) and 6 (Report team). */

export const NO_SELF_REMOVAL = "Members cannot remove themselves from a report.";
export const OWNER_FIRST = "Set a new owner before removing the owner.";
export const ALREADY_ON_TEAM = "This user is already assigned to this report.";
export const NOT_OWNER_MATERIAL = "Set Owner is not offered for suspended users or users from other organisations.";
export const SUSPENDED_USER = "Suspended users cannot be assigned to a report.";
export const ASSIGN_PAGE_SIZE = 5;

export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  suspended: boolean;
  role: RoleName;
  organisationId: string | null;
}

export const fullName = (person: Pick<Person, "firstName" | "lastName">) => `${person.firstName} ${person.lastName}`.trim();

const personColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  suspended: users.suspended,
  role: roles.name,
  organisationId: users.organisationId,
};

export async function personById(db: Database, id: unknown): Promise<Person | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select(personColumns).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, id.toLowerCase()));
  return row;
}

/**
 * Who may own the report. Ownership carries the right to manage the team, which guests never have
 * (009); Set Owner is not offered for suspended users or users of other organisations (spec).
 */
export const canOwn = (person: Person, organisationId: string) => !person.suspended && person.role !== "GUEST_MEMBER" && person.organisationId === organisationId;

/** A guest invited to this report who accepted: the one way in for someone outside the organisation. */
function acceptedInvite(submissionId: string, userId: SQL): SQL {
  return exists(
    sql`(select 1 from ${guestReportInvites} where ${guestReportInvites.submissionId} = ${submissionId} and ${guestReportInvites.userId} = ${userId} and ${guestReportInvites.status} = 'Approved' and ${guestReportInvites.archived} = false)`,
  );
}

async function mayJoin(tx: Database, access: ReportAccess, person: Person): Promise<boolean> {
  if (person.organisationId === access.submission.organisationId) return true;
  if (person.role !== "GUEST_MEMBER") return false;
  const [invite] = await tx
    .select({ id: guestReportInvites.id })
    .from(guestReportInvites)
    .where(and(eq(guestReportInvites.submissionId, access.submission.id), eq(guestReportInvites.userId, person.id), eq(guestReportInvites.status, "Approved"), eq(guestReportInvites.archived, false)))
    .limit(1);
  return invite !== undefined;
}

/**
 * Puts a person on the team, in the caller's transaction with the report locked. The first
 * assignee who may own the report becomes its owner; a New report becomes Assigned.
 */
export async function addToTeam(tx: Database, submission: ReportAccess["submission"], team: ReportAccess["team"], person: Person): Promise<{ owner: boolean }> {
  const owner = !team.some((member) => member.isOwner) && canOwn(person, submission.organisationId);
  await tx.insert(reportSubmissionAssignees).values({ submissionId: submission.id, userId: person.id, isOwner: owner });
  if (submission.status === "New") await setStatus(tx, submission.id, "Assigned");
  return { owner };
}

/** Takes a person off the team; an emptied team sends an open report back to New, where Join Team is offered. */
async function removeFromTeam(tx: Database, access: ReportAccess, userId: string): Promise<SubmissionStatus> {
  await tx.delete(reportSubmissionAssignees).where(and(eq(reportSubmissionAssignees.submissionId, access.submission.id), eq(reportSubmissionAssignees.userId, userId)));
  const emptied = access.team.every((member) => member.userId === userId);
  const status = emptied && !isTerminal(access.submission.status) ? "New" : access.submission.status;
  if (status !== access.submission.status) await setStatus(tx, access.submission.id, status);
  return status;
}

const setStatus = (tx: Database, id: string, status: SubmissionStatus) => tx.update(reportSubmissions).set({ status }).where(eq(reportSubmissions.id, id));

const requireManager = (access: ReportAccess) => {
  if (!canManageTeam(access)) throw forbidden();
};

export function assignUser(ctx: Ctx, id: unknown, userId: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    requireManager(access);
    const person = await personById(tx, userId);
    // Someone the actor could not otherwise reach is "not found", so user ids cannot be probed.
    if (!person || !(await mayJoin(tx, access, person))) throw new UserError("NOT_FOUND", USER_NOT_FOUND);
    if (person.suspended) throw badInput(SUSPENDED_USER);
    if (access.team.some((member) => member.userId === person.id)) throw new UserError("CONFLICT", ALREADY_ON_TEAM);
    const { owner } = await addToTeam(tx, access.submission, access.team, person);
    return { action: "AssignUser", metadata: { userId: person.id, name: fullName(person), owner } };
  });
}

/** Join Team / take ownership: an owner or admin of the report's organisation puts themselves on it. */
export function joinTeam(ctx: Ctx, id: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    if (!isOrganisationManager(access.actor) || access.actor.organisationId !== access.submission.organisationId) throw forbidden();
    if (access.assigned) throw new UserError("CONFLICT", ALREADY_ON_TEAM);
    const person = (await personById(tx, access.actor.userId))!;
    const { owner } = await addToTeam(tx, access.submission, access.team, person);
    return { action: "JoinTeam", metadata: { userId: person.id, name: fullName(person), owner } };
  });
}

export function unassignUser(ctx: Ctx, id: unknown, userId: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    requireManager(access);
    const target = access.team.find((member) => isUuid(userId) && member.userId === userId.toLowerCase());
    if (!target) throw new UserError("NOT_FOUND", USER_NOT_FOUND);
    if (target.userId === access.actor.userId) throw forbidden(NO_SELF_REMOVAL);
    const person = (await personById(tx, target.userId))!;
    if (target.isOwner) {
      // The owner goes last: while anyone who could take over remains, ownership must move first.
      const others = await Promise.all(access.team.filter((member) => member.userId !== target.userId).map((member) => personById(tx, member.userId)));
      if (others.some((other) => other && canOwn(other, access.submission.organisationId))) throw new UserError("CONFLICT", OWNER_FIRST);
    }
    const status = await removeFromTeam(tx, access, target.userId);
    return { action: "UnassignUser", metadata: { userId: person.id, name: fullName(person), status } };
  });
}

export function changeOwner(ctx: Ctx, id: unknown, userId: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    requireManager(access);
    const target = access.team.find((member) => isUuid(userId) && member.userId === userId.toLowerCase());
    if (!target) throw new UserError("NOT_FOUND", USER_NOT_FOUND);
    const person = (await personById(tx, target.userId))!;
    if (!canOwn(person, access.submission.organisationId)) throw badInput(NOT_OWNER_MATERIAL);
    if (target.isOwner) throw new UserError("CONFLICT", "This user is already the owner of this report.");
    const previous = access.team.find((member) => member.isOwner);
    // The old owner steps down first: the unique partial index allows one owner per report at any moment.
    await tx.update(reportSubmissionAssignees).set({ isOwner: false }).where(and(eq(reportSubmissionAssignees.submissionId, access.submission.id), eq(reportSubmissionAssignees.isOwner, true)));
    await tx.update(reportSubmissionAssignees).set({ isOwner: true }).where(and(eq(reportSubmissionAssignees.submissionId, access.submission.id), eq(reportSubmissionAssignees.userId, person.id)));
    return { action: "ChangeOwner", metadata: { userId: person.id, name: fullName(person), previousOwnerId: previous?.userId ?? null } };
  });
}

/** Leave Report: assigned guest members give up their access; staff members are removed by a manager instead. */
export async function leaveReport(ctx: Ctx, id: unknown): Promise<boolean> {
  await changeReport(ctx, id, "ReportSubmissionRead", async (tx, access) => {
    if (access.actor.role !== "GUEST_MEMBER") throw forbidden(NO_SELF_REMOVAL);
    if (!access.assigned) throw forbidden();
    const status = await removeFromTeam(tx, access, access.actor.userId);
    return { action: "LeaveReport", metadata: { userId: access.actor.userId, status } };
  });
  return true;
}

/** The team, owner first, for anyone who may see the report. */
export async function reportTeam(ctx: Ctx, id: unknown): Promise<TeamMemberView[]> {
  const access = await reportFor(ctx, ctx.db, id, "ReportSubmissionRead");
  const [view] = await loadReportViews(ctx, access.actor, [access.submission.id]);
  const members = view?.assignedUsers ?? [];
  return [...members.filter((member) => member.owner), ...members.filter((member) => !member.owner)];
}

export interface AssignableArgs {
  reportSubmissionID: unknown;
  search?: string | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * The Assign Users dialog: active people of the report's organisation (and guests holding an
 * accepted invite to it) who are not on the team, alphabetical, five a page.
 */
export async function assignableUsers(ctx: Ctx, args: AssignableArgs): Promise<{ total: number; ids: string[] }> {
  const access = await reportFor(ctx, ctx.db, args.reportSubmissionID, "ReportSubmissionUpdate");
  requireManager(access);
  const submissionId = access.submission.id;
  const filters: SQL[] = [
    eq(users.suspended, false),
    or(eq(users.organisationId, access.submission.organisationId), and(eq(roles.name, "GUEST_MEMBER"), acceptedInvite(submissionId, sql`${users.id}`)))!,
    notExists(sql`(select 1 from ${reportSubmissionAssignees} where ${reportSubmissionAssignees.submissionId} = ${submissionId} and ${reportSubmissionAssignees.userId} = ${users.id})`),
    sql`${roles.name} <> 'SUPER_ADMIN'`,
  ];
  const search = searchTextOf(args.search);
  if (search) {
    const pattern = containsPattern(search);
    filters.push(or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern))!);
  }
  const where = and(...filters);
  const [total] = await ctx.db.select({ n: count() }).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(where);
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(args.limit == null ? ASSIGN_PAGE_SIZE : pageLimit(args.limit))
    .offset(pageOffset(args.offset));
  return { total: total?.n ?? 0, ids: rows.map((row) => row.id) };
}
