import type { Database } from "../../../db/client.ts";
import type { RoleName } from "../../shared/enums.ts";
import { permissionsOf } from "../../shared/permissions.ts";

/** The signed-in user as the login call returns it (the same fields the viewer query offers). */
export async function loadViewer(db: Database, userId: string) {
  const user = await db.query.users.findFirst({
    where: { id: userId },
    columns: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      verified: true,
      isSSO: true,
      twoFactorAuthenticationActivated: true,
      twoFactorAuthenticationIsSet: true,
    },
    with: { role: true, organisation: { columns: { id: true, name: true, slug: true } } },
  });
  if (!user) return null;
  return { ...user, role: { ...user.role, permissions: permissionsOf(user.role.name as RoleName) } };
}
