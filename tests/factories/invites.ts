import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { onboardInvites, roles } from "../../db/schema/index.ts";
import { hashToken, newToken } from "../../api/lib/tokens.ts";
import type { RoleName } from "../../api/shared/enums.ts";

let counter = 0;

/** An invite row as the staff side writes it, and the token its mail carries (/onboarding/{token}). */
export async function createInvite(
  db: Database,
  options: { organisationId: string; role?: RoleName; email?: string; expiresAt?: Date; archived?: boolean; status?: "Invited" | "Onboarded" },
) {
  counter += 1;
  const token = newToken();
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, options.role ?? "MEMBER"));
  const [invite] = await db
    .insert(onboardInvites)
    .values({
      organisationId: options.organisationId,
      roleId: role!.id,
      email: options.email ?? `invitee${counter}-${Date.now().toString(36)}@example.test`,
      firstName: "Ivy",
      lastName: `Invitee${counter}`,
      tokenHash: hashToken(token),
      expiresAt: options.expiresAt ?? new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
      archived: options.archived ?? false,
      status: options.status ?? "Invited",
    })
    .returning();
  return { invite: invite!, token, url: `/onboarding/${token}` };
}
