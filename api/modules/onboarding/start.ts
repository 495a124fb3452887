import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { prospects, users } from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { badInput } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { mailFailureReason } from "../../lib/mailer.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { ALMOST_DONE, CONFIRMATION_SENT, INVALID_INVITE } from "../../shared/messages.ts";
import { admit, hashInLane } from "../abuse/guard.ts";
import { recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { findOpenInviteByToken } from "../invites/accept.ts";
import { publicPlanRow } from "../plans/service.ts";
import { OnboardStartInput, type OnboardStart } from "./inputs.ts";
import { confirmationMail, existingAccountMail } from "./mails.ts";
import { requireInvitedAccount, type SsoProof } from "./sso.ts";

/** A confirmation link may wait in a mailbox over a night, like a verification code (decision 029). */
export const CONFIRMATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const INVITE_EMAIL_LOCKED = "The email address must be the one the invite was sent to.";
export const SIGN_IN_WITH_MICROSOFT = "This organisation signs in with Microsoft accounts: choose Sign in With Microsoft Account to accept the invite.";

export interface StartAnswer {
  prospectID: string;
  title: string;
  message: string;
  email: string;
}

function requireSignUpFields(input: OnboardStart): void {
  const missing = (["organisationName", "organisationABN"] as const).filter((field) => !input[field]);
  if (missing.length) throw badInput("Required", missing.map((field) => ({ field, message: "Required" })));
}

/**
 * POST /api/auth/onboard_start (spec §4 'Onboarding'; decision 036). Makes a prospect, or updates the
 * one this browser started (its cookie), and mails a confirmation link. Nothing is created until the
 * link is followed. The answer is the same whether or not the address has an account: an address
 * with one gets a mail saying so instead of a link.
 */
export async function startOnboarding(services: Services, rawInput: unknown, options: { browserSecret?: string | undefined; sso?: () => Promise<SsoProof>; now?: Date }) {
  const now = options.now ?? new Date();
  const { db } = services.database;
  const input = parseWith(OnboardStartInput, rawInput);
  // Every start counts against its address (the bot check of forgot_password_submit): a few an hour are free.
  const attempt = { action: "onboard_submit", subjectKey: await subjectKey(db, "onboarding", input.email), solution: input.verifyToken, now } as const;
  const admission = await admit(db, attempt);
  await recordFailure(db, attempt.subjectKey, now, { pressure: false });

  const invite = input.inviteToken ? await findOpenInviteByToken(db, input.inviteToken, now) : null;
  if (input.inviteToken && !invite) throw badInput(INVALID_INVITE);
  if (invite && invite.email.toLowerCase() !== input.email) throw badInput(INVITE_EMAIL_LOCKED, [{ field: "email", message: INVITE_EMAIL_LOCKED }]);
  if (!invite) requireSignUpFields(input);
  const plan = !invite && input.productPlanID ? await publicPlanRow(db, input.productPlanID) : null;
  // An invite to a single-sign-on organisation makes an account without a password, bound to the
  // Microsoft account that proved the invite's address (decision 036). A server without single
  // sign-on set up cannot ask Microsoft: the mailed link alone proves the address, and the first
  // Microsoft sign-in binds the account (decision 031).
  const sso = invite?.organisation.enableSSO === true;
  if (sso && services.config.sso && !options.sso) throw badInput(SIGN_IN_WITH_MICROSOFT);
  const ssoIdentity = sso && options.sso ? requireInvitedAccount(await options.sso(), invite.email) : null;

  const browserHash = options.browserSecret ? hashToken(options.browserSecret) : null;
  const [existing] = browserHash
    ? await db
        .select({ id: prospects.id, passwordHash: prospects.passwordHash })
        .from(prospects)
        .where(and(eq(prospects.browserHash, browserHash), eq(prospects.completed, false), invite ? eq(prospects.inviteId, invite.id) : and(isNull(prospects.inviteId), eq(prospects.type, "Organisation"))))
        .limit(1)
    : [];
  // Single sign-on accounts have no password; everyone else chooses one, kept when an update leaves it blank.
  if (!sso && !input.password && !existing?.passwordHash) throw badInput("Required", [{ field: "password", message: "Required" }]);
  const passwordHash = sso ? null : input.password ? await hashInLane(db, attempt, admission, (lane) => hashPassword(input.password!, lane)) : existing!.passwordHash;

  const code = newToken();
  const browserSecret = existing && options.browserSecret ? options.browserSecret : newToken();
  const values = {
    type: invite ? ("Member" as const) : ("Organisation" as const),
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    username: input.username || null,
    organisationName: invite ? null : input.organisationName,
    organisationABN: invite ? null : input.organisationABN,
    passwordHash,
    inviteId: invite?.id ?? null,
    productPlanId: plan?.id ?? null,
    ssoIdentity,
    confirmationHash: hashToken(code),
    confirmationExpiresAt: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS),
    browserHash: hashToken(browserSecret),
  };
  const prospectId = existing
    ? (await db.update(prospects).set(values).where(eq(prospects.id, existing.id)).returning({ id: prospects.id }))[0]!.id
    : (await db.insert(prospects).values(values).returning({ id: prospects.id }))[0]!.id;
  const [account] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`).limit(1);
  const mail = account ? existingAccountMail(services.config, input.email) : confirmationMail(services.config, input.email, code);
  // Sent after the answer, so an address with an account is answered exactly as fast as one without.
  void services.mailer.send(mail).catch((error: unknown) => logError("Could not send a sign-up confirmation", undefined, { reason: mailFailureReason(error) }));
  const answer: StartAnswer = { prospectID: prospectId, title: ALMOST_DONE, message: CONFIRMATION_SENT, email: input.email };
  return { answer, browserSecret };
}

/**
 * Onboardings nobody confirmed in time hold a name, an address and a password hash for nothing: the
 * housekeeping round removes them. Finished ones go too once their link would have lapsed; the
 * account they made is what remains.
 */
export async function forgetStaleProspects(db: Database, now: Date): Promise<void> {
  await db.delete(prospects).where(lt(prospects.confirmationExpiresAt, now));
}
