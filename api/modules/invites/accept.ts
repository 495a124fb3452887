import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { onboardInvites, organisations, roles } from "../../../db/schema/index.ts";
import { hashToken } from "../../lib/tokens.ts";
import { isTokenShaped } from "../account-access/mailed-tokens.ts";

/**
 * What accepting an invite needs: the onboarding flow (/onboarding/:inviteToken) reads an invite by
 * the token in its link and marks it Onboarded; the Invites page writes them.
 */

/**
 * The invite a link opens, or null when the token is unknown (never issued, or voided by a resend),
 * expired, archived, already Onboarded, or its organisation is archived.
 */
export async function findOpenInviteByToken(db: Database, token: string, now: Date) {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .select({
      id: onboardInvites.id,
      email: onboardInvites.email,
      firstName: onboardInvites.firstName,
      lastName: onboardInvites.lastName,
      type: onboardInvites.type,
      status: onboardInvites.status,
      roleId: onboardInvites.roleId,
      roleName: roles.name,
      expiresAt: onboardInvites.expiresAt,
      organisation: { id: organisations.id, name: organisations.name, enableSSO: organisations.enableSSO, archived: organisations.archived },
    })
    .from(onboardInvites)
    .innerJoin(organisations, eq(organisations.id, onboardInvites.organisationId))
    .innerJoin(roles, eq(roles.id, onboardInvites.roleId))
    .where(
      and(
        eq(onboardInvites.tokenHash, hashToken(token)),
        eq(onboardInvites.status, "Invited"),
        eq(onboardInvites.archived, false),
        gt(onboardInvites.expiresAt, now),
        eq(organisations.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Invited → Onboarded in one statement, only from Invited and not archived, so of two acceptances
 * racing for one invite only one wins (the other gets false and must roll back).
 */
export async function markInviteOnboarded(tx: Database, inviteId: string): Promise<boolean> {
  const rows = await tx
    .update(onboardInvites)
    .set({ status: "Onboarded", updatedAt: new Date() })
    .where(and(eq(onboardInvites.id, inviteId), eq(onboardInvites.status, "Invited"), eq(onboardInvites.archived, false)))
    .returning({ id: onboardInvites.id });
  return rows.length === 1;
}
