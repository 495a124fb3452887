import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { productPlans, prospects } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput } from "../../lib/errors.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { isUuid } from "../../lib/ids.ts";
import { hashToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { INVALID_INVITE } from "../../shared/messages.ts";
import { hashForParty } from "../abuse/guard.ts";
import { isTokenShaped } from "../account-access/mailed-tokens.ts";
import { findOpenInviteByToken } from "../invites/accept.ts";
import { PAYMENT_PROVIDER } from "../plans/coupons.ts";
import { CodeInput, CONFIRMATION_INVALID, OnboardUpdateInput } from "./inputs.ts";

/** The sign-up pages' reads, and corrections before finishing (decision 036). The mailed code is the credential. */

export interface ProspectView {
  id: string;
  type: "Organisation" | "Member";
  firstName: string;
  lastName: string;
  email: string;
  organisationName: string | null;
  organisationABN: string | null;
  isCompleted: boolean;
  /** True for an invite to a single-sign-on organisation: no password was chosen. */
  isSSO: boolean;
  plan: { id: string; name: string; seats: number; priceCents: number } | null;
  paymentsEnabled: boolean;
}

/** onboardingInviteGet(token): what the invite page shows; one message for every dead link. */
export async function inviteForPage(ctx: Ctx, token: string, now = new Date()) {
  const invite = await findOpenInviteByToken(ctx.db, token.trim(), now);
  if (!invite) throw badInput(INVALID_INVITE);
  return { id: invite.id, email: invite.email, firstName: invite.firstName, lastName: invite.lastName, roleName: invite.roleName, organisationName: invite.organisation.name, enableSSO: invite.organisation.enableSSO };
}

async function prospectByCode(db: Database, rawToken: unknown, now: Date, onlyOpen: boolean) {
  const { token } = parseWith(CodeInput, { token: rawToken });
  if (!isTokenShaped(token)) throw badInput(CONFIRMATION_INVALID);
  const live = and(eq(prospects.confirmationHash, hashToken(token)), gt(prospects.confirmationExpiresAt, now));
  const [row] = await db.select().from(prospects).where(onlyOpen ? and(live, eq(prospects.completed, false)) : live).limit(1);
  if (!row) throw badInput(CONFIRMATION_INVALID);
  return row;
}

/** onboarding(token): the onboarding a confirmation link opens, for the finishing page. */
export async function onboardingByCode(ctx: Ctx, token: string, now = new Date()): Promise<ProspectView> {
  const row = await prospectByCode(ctx.db, token, now, true);
  const [plan] = row.productPlanId ? await ctx.db.select().from(productPlans).where(eq(productPlans.id, row.productPlanId)).limit(1) : [];
  return {
    id: row.id,
    type: row.type,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    organisationName: row.organisationName,
    organisationABN: row.organisationABN,
    isCompleted: row.completed,
    isSSO: row.passwordHash === null,
    plan: plan ? { id: plan.id, name: plan.name, seats: plan.seats, priceCents: plan.priceCents } : null,
    paymentsEnabled: PAYMENT_PROVIDER !== null,
  };
}

/**
 * onboardingCheck(prospectID): whether that onboarding is finished (the 'Almost done...' page asks,
 * so a tab left open learns that the link was followed). Says nothing else; an unknown id is not finished.
 */
export async function onboardingCheck(ctx: Ctx, prospectID: string): Promise<{ isCompleted: boolean }> {
  if (!isUuid(prospectID)) return { isCompleted: false };
  const [row] = await ctx.db.select({ completed: prospects.completed }).from(prospects).where(eq(prospects.id, prospectID)).limit(1);
  return { isCompleted: row?.completed ?? false };
}

/** onboardUpdate(input): corrects names, organisation or password before finishing; a blank password is left as it was. */
export async function updateOnboarding(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<ProspectView> {
  const input = parseWith(OnboardUpdateInput, rawInput);
  const row = await prospectByCode(ctx.db, input.token, now, true);
  if (row.type === "Organisation" && (!input.organisationName || !input.organisationABN)) {
    throw badInput("Required", (["organisationName", "organisationABN"] as const).filter((field) => !input[field]).map((field) => ({ field, message: "Required" })));
  }
  const passwordHash = input.password && row.passwordHash !== null ? await hashForParty(`onboard:${row.id}`, (lane) => hashPassword(input.password!, lane)) : row.passwordHash;
  const organisation = row.type === "Organisation" ? { organisationName: input.organisationName, organisationABN: input.organisationABN } : {};
  await ctx.db.update(prospects).set({ firstName: input.firstName, lastName: input.lastName, passwordHash, ...organisation }).where(and(eq(prospects.id, row.id), eq(prospects.completed, false)));
  return onboardingByCode(ctx, input.token, now);
}
