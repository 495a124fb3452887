import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { onboardInvites, organisations, roles } from "../../../db/schema/index.ts";
import { hashToken } from "../../lib/tokens.ts";

/** What accepting an invite needs to know about it; the onboarding flow reads it, the staff side writes it. */
export async function findOpenInviteByToken(db: Database, token: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
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

/** Invited → Onboarded in one statement, so of two acceptances racing for one invite only one wins. */
export async function markInviteOnboarded(tx: Database, inviteId: string): Promise<boolean> {
  const rows = await tx
    .update(onboardInvites)
    .set({ status: "Onboarded" })
    .where(and(eq(onboardInvites.id, inviteId), eq(onboardInvites.status, "Invited")))
    .returning({ id: onboardInvites.id });
  return rows.length === 1;
}
