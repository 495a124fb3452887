import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/results.ts";
import { onboardInvites, organisations, prospects, users } from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { badInput } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { hashToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { INVALID_INVITE } from "../../shared/messages.ts";
import { hashForParty } from "../abuse/guard.ts";
import { isTokenShaped } from "../account-access/mailed-tokens.ts";
import { recordActivity } from "../audit/service.ts";
import { createStaffSession } from "../auth/sessions.ts";
import { markInviteOnboarded } from "../invites/accept.ts";
import { claimSeat } from "../organisations/seats.ts";
import { COUPON_INVALID, findCoupon, priceAfterCoupon, requirePayable } from "../plans/coupons.ts";
import { publicPlanRow } from "../plans/service.ts";
import { CONFIRMATION_INVALID, OnboardFinishInput, type OnboardFinish } from "./inputs.ts";
import { freeSlug, roleId } from "./new-organisation.ts";

export const ACCOUNT_EXISTS = "An account with this email address already exists. Please login instead.";
export const TRY_AGAIN = "Something went wrong. Please try again.";
export const PASSWORD_TO_FINISH = "Please enter the password you chose when you signed up.";
/** Seats of an organisation signed up without choosing a plan (the organisations table's default). */
export const DEFAULT_SIGN_UP_SEATS = 10;

type Prospect = typeof prospects.$inferSelect;

async function liveProspect(db: Database, input: OnboardFinish, now: Date): Promise<Prospect> {
  if (!isUuid(input.prospectID) || !isTokenShaped(input.token)) throw badInput(CONFIRMATION_INVALID);
  const [prospect] = await db
    .select()
    .from(prospects)
    .where(and(eq(prospects.id, input.prospectID), eq(prospects.confirmationHash, hashToken(input.token)), eq(prospects.completed, false), gt(prospects.confirmationExpiresAt, now)))
    .limit(1);
  if (!prospect) throw badInput(CONFIRMATION_INVALID);
  return prospect;
}

/**
 * The mailed link proves the address; the browser that started, or the password chosen there, proves
 * the finisher is who started. Without the second, whoever typed someone's address first would choose
 * the password of the account that person's click creates.
 */
async function requireStarter(prospect: Prospect, input: OnboardFinish, browserSecret: string | undefined): Promise<void> {
  if (browserSecret && prospect.browserHash === hashToken(browserSecret)) return;
  // No password was chosen (single sign-on): there is none for anyone else to have set.
  if (prospect.passwordHash === null) return;
  const matches = prospect.passwordHash && input.password ? await hashForParty(`onboard:${prospect.id}`, (lane) => verifyPassword(prospect.passwordHash, input.password!, lane)) : false;
  if (!matches) throw badInput(PASSWORD_TO_FINISH, [{ field: "password", message: PASSWORD_TO_FINISH }]);
}

async function openInviteById(tx: Database, inviteId: string, now: Date) {
  const [invite] = await tx
    .select({ id: onboardInvites.id, organisationId: onboardInvites.organisationId, roleId: onboardInvites.roleId })
    .from(onboardInvites)
    .innerJoin(organisations, eq(organisations.id, onboardInvites.organisationId))
    .where(and(eq(onboardInvites.id, inviteId), eq(onboardInvites.status, "Invited"), eq(onboardInvites.archived, false), gt(onboardInvites.expiresAt, now), eq(organisations.archived, false)))
    .limit(1);
  return invite ?? null;
}

/** An invite's seat passes to the new member: claimed first (so the seat rule counts the invite once), then Invited → Onboarded. */
async function acceptInvite(tx: Database, prospect: Prospect, now: Date): Promise<{ userId: string; organisationId: string }> {
  const invite = prospect.inviteId ? await openInviteById(tx, prospect.inviteId, now) : null;
  if (!invite) throw badInput(INVALID_INVITE);
  await claimSeat(tx, invite.organisationId, { now, releasingInviteId: invite.id });
  if (!(await markInviteOnboarded(tx, invite.id))) throw badInput(INVALID_INVITE);
  const userId = await insertUser(tx, prospect, invite.roleId, invite.organisationId);
  await recordActivity(tx, { userId }, { organisationId: invite.organisationId, objectType: "OnboardInvite", objectId: invite.id, action: "OnboardInviteAccept", metadata: { first_name: prospect.firstName, last_name: prospect.lastName } });
  return { userId, organisationId: invite.organisationId };
}

async function createSignUpOrganisation(tx: Database, prospect: Prospect, input: OnboardFinish): Promise<{ userId: string; organisationId: string }> {
  const plan = prospect.productPlanId ? await publicPlanRow(tx, prospect.productPlanId) : null;
  const coupon = input.couponCode ? await findCoupon(tx, input.couponCode) : null;
  if (input.couponCode && !coupon) throw badInput(COUPON_INVALID, [{ field: "couponCode", message: COUPON_INVALID }]);
  requirePayable(priceAfterCoupon(plan?.priceCents ?? 0, coupon), input.cardToken ?? "");
  const name = prospect.organisationName!;
  const [organisation] = await tx
    .insert(organisations)
    .values({ name, abn: prospect.organisationABN ?? "", slug: await freeSlug(tx, name), openSeatNumber: plan?.seats ?? DEFAULT_SIGN_UP_SEATS })
    .returning({ id: organisations.id });
  const organisationId = organisation!.id;
  const userId = await insertUser(tx, prospect, await roleId(tx, "ORGANISATION_OWNER"), organisationId);
  const metadata = { name, plan: plan?.name ?? null, coupon: coupon?.name ?? null };
  await recordActivity(tx, { userId }, { organisationId, objectType: "Organisation", objectId: organisationId, action: "OrganisationSignUp", metadata });
  return { userId, organisationId };
}

/** The account is verified: following the mailed link is what verifying an address means (decision 036). */
async function insertUser(tx: Database, prospect: Prospect, role: string, organisationId: string): Promise<string> {
  const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${prospect.email.toLowerCase()}`).limit(1);
  if (existing) throw badInput(ACCOUNT_EXISTS);
  const isSSO = prospect.passwordHash === null;
  const [user] = await tx
    .insert(users)
    .values({ email: prospect.email, username: prospect.username, firstName: prospect.firstName, lastName: prospect.lastName, passwordHash: prospect.passwordHash, roleId: role, organisationId, verified: true, isSSO, ssoIdentity: prospect.ssoIdentity })
    .returning({ id: users.id });
  return user!.id;
}

/**
 * POST /api/auth/onboard_finish (decision 036): spends the mailed code and, in one transaction, makes
 * the member of an invite or the new organisation and its owner, then opens their session.
 */
export async function finishOnboarding(services: Services, rawInput: unknown, browserSecret: string | undefined, now = new Date()): Promise<{ userId: string; sessionToken: string }> {
  const input = parseWith(OnboardFinishInput, rawInput);
  const { db } = services.database;
  const prospect = await liveProspect(db, input, now);
  await requireStarter(prospect, input, browserSecret);
  try {
    return await db.transaction(async (tx) => {
      // Spent by the statement that checks it is unspent: of two finishes at once, one goes on.
      const spent = await tx
        .update(prospects)
        .set({ completed: true, confirmationHash: null })
        .where(and(eq(prospects.id, prospect.id), eq(prospects.confirmationHash, hashToken(input.token)), eq(prospects.completed, false)))
        .returning({ id: prospects.id });
      if (spent.length !== 1) throw badInput(CONFIRMATION_INVALID);
      const made = prospect.type === "Member" ? await acceptInvite(tx, prospect, now) : await createSignUpOrganisation(tx, prospect, input);
      await recordActivity(tx, { userId: made.userId }, { organisationId: made.organisationId, objectType: "Self", objectId: made.userId, action: "Onboard" });
      return { userId: made.userId, sessionToken: await createStaffSession(tx, made.userId, now) };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Two sign-ups of one address finished at once, or another organisation took the slug in the same
    // instant. Nothing was written and the link is unspent, so the second can simply be tried again.
    const [account] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${prospect.email.toLowerCase()}`).limit(1);
    throw badInput(account ? ACCOUNT_EXISTS : TRY_AGAIN);
  }
}
