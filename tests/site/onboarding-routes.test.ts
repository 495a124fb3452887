import { describe, expect, test } from "bun:test";
import { useAdminRoutes } from "../helpers/admin-routes.ts";
import { permissionsOf } from "../../api/shared/permissions.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** Where the sign-up screens and the product plans live (decisions 036, 037), signed out and signed in. */

const adminRoutes = useAdminRoutes();

const viewerOf = (role: "SUPER_ADMIN" | "ORGANISATION_OWNER"): Viewer => ({
  id: "user-1",
  email: "someone@example.test",
  firstName: "Test",
  lastName: "User",
  verified: true,
  isSSO: false,
  twoFactorAuthenticationActivated: true,
  twoFactorAuthenticationIsSet: true,
  pass2FA: true,
  hasRecoveryCode: true,
  role: { name: role, label: role, permissions: permissionsOf(role) },
  organisation: role === "SUPER_ADMIN" ? null : { id: "org-1", name: "Org", slug: "org" },
});

type Result = ReturnType<typeof import("../../site/src/admin/routes.tsx").resolveSignedOutRoute>;
type Element = { type?: { name?: string; displayName?: string }; props: Record<string, unknown> & { children?: Element } };

/** The screen a route shows, looking through the Suspense boundary of a lazy chunk. */
function shown(result: Result): { layout: string; page: string | undefined; props: Record<string, unknown> } | { redirect: string } {
  if (result.kind === "redirect") return { redirect: result.to };
  let element = result.element as Element;
  while (element.props.children && typeof element.props.children === "object" && !element.type?.displayName) element = element.props.children;
  return { layout: result.layout, page: element.type?.displayName ?? element.type?.name, props: element.props };
}
const signedOut = (pathname: string) => shown(adminRoutes().resolveSignedOutRoute({ pathname, search: "" }));
const signedIn = (pathname: string, role: "SUPER_ADMIN" | "ORGANISATION_OWNER" = "ORGANISATION_OWNER") => shown(adminRoutes().resolveSignedInRoute({ pathname, search: "" }, viewerOf(role)));

describe("onboarding routes", () => {
  test("sign-up, invites and the confirmation link open bare, signed in or not", () => {
    for (const resolve of [signedOut, (path: string) => signedIn(path)]) {
      expect(resolve("/onboarding/sign-up")).toMatchObject({ layout: "bare", page: "SignUpPage", props: { kind: "sign-up", productID: undefined } });
      expect(resolve("/onboarding/sign-up/plan-1")).toMatchObject({ layout: "bare", page: "SignUpPage", props: { kind: "sign-up", productID: "plan-1" } });
      expect(resolve("/onboarding/abc_DEF-123")).toMatchObject({ layout: "bare", page: "SignUpPage", props: { kind: "invite", token: "abc_DEF-123" } });
      expect(resolve("/verify/code_1")).toMatchObject({ layout: "bare", page: "ConfirmSignUpPage", props: { code: "code_1" } });
      expect(resolve("/verify")).toEqual({ redirect: "/admin/verify" });
    }
  });

  test("the Microsoft callback is sign-in's unless an invite is waiting for it in this tab", () => {
    expect(signedOut("/login-ms/callback")).toMatchObject({ page: "SsoCallbackPage" });
  });

  test("product plans are the super admin's screen only", () => {
    expect(signedIn("/admin/manage/product-plans", "SUPER_ADMIN")).toMatchObject({ layout: "shell", page: "ProductPlansPage" });
    expect(signedIn("/admin/manage/product-plans")).toMatchObject({ page: "NotFoundPage" });
  });
});
