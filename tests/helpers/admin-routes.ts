import { afterAll, beforeAll } from "bun:test";
import { permissionsOf } from "../../api/shared/permissions.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

type Routes = typeof import("../../site/src/admin/routes.tsx");

/**
 * Loads the console's route table for a test file. routes.tsx reaches the browser's location when
 * the router loads; a bare stand-in is enough here. Returns a getter, valid once beforeAll has run.
 */
export function useAdminRoutes(): () => Routes {
  const globals = globalThis as unknown as { window?: unknown };
  const hadWindow = "window" in globals;
  let routes: Routes | undefined;
  beforeAll(async () => {
    if (!hadWindow) globals.window = { location: { pathname: "/admin", search: "" }, addEventListener() {} };
    routes = await import("../../site/src/admin/routes.tsx");
  });
  afterAll(() => {
    if (!hadWindow) delete globals.window;
  });
  return () => routes!;
}

/**
 * A signed-in viewer of this role as the route table sees it: in "org-1" (null for none), with
 * two-factor set up and passed unless `twoFactor` is false (then off altogether).
 */
export function testViewer(role: RoleName, options: { organisationId?: string | null; twoFactor?: boolean } = {}): Viewer {
  const organisationId = options.organisationId === undefined ? "org-1" : options.organisationId;
  const twoFactor = options.twoFactor ?? true;
  return {
    id: `user-${role}`,
    email: `${role.toLowerCase()}@example.test`,
    firstName: "Test",
    lastName: "User",
    verified: true,
    isSSO: false,
    twoFactorAuthenticationActivated: twoFactor,
    twoFactorAuthenticationIsSet: twoFactor,
    pass2FA: true,
    hasRecoveryCode: twoFactor,
    role: { name: role, label: role, permissions: permissionsOf(role) },
    organisation: organisationId ? { id: organisationId, name: "Org", slug: "org" } : null,
  };
}

type RouteResult = ReturnType<Routes["resolveSignedInRoute"]>;

/** The lazy screen a page route shows (its chunk's display name), or undefined for a redirect or another element. */
export function lazyScreenName(result: RouteResult): string | undefined {
  if (result.kind !== "page") return undefined;
  const element = result.element as { props: { children?: { type?: { displayName?: string } } } };
  return element.props.children?.type?.displayName;
}

/** Resolves a signed-in address for a viewer of this role: in "org-1", or in none for a super admin. */
export function resolveAs(routes: () => Routes, pathname: string, role: RoleName): RouteResult {
  return routes().resolveSignedInRoute({ pathname, search: "" }, testViewer(role, { organisationId: role === "SUPER_ADMIN" ? null : "org-1" }));
}
