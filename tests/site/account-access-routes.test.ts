import { describe, expect, test } from "bun:test";
import { useAdminRoutes } from "../helpers/admin-routes.ts";
import { permissionsOf } from "../../api/shared/permissions.ts";
import { resetPasswordPath, verifyAccountPath } from "../../site/src/admin/paths.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** Where the account-access screens live (spec §2), signed out and signed in. */

const adminRoutes = useAdminRoutes();

const member: Viewer = {
  id: "user-1",
  email: "member@example.test",
  firstName: "Test",
  lastName: "User",
  verified: false,
  isSSO: false,
  twoFactorAuthenticationActivated: true,
  twoFactorAuthenticationIsSet: true,
  pass2FA: true,
  hasRecoveryCode: true,
  role: { name: "MEMBER", label: "Member", permissions: permissionsOf("MEMBER") },
  organisation: { id: "org-1", name: "Org", slug: "org" },
};

type Result = ReturnType<typeof import("../../site/src/admin/routes.tsx").resolveSignedOutRoute>;
function shown(result: Result): { layout: string; page: string | undefined; props: Record<string, unknown> } | { redirect: string } {
  if (result.kind === "redirect") return { redirect: result.to };
  const element = result.element as { type?: { name?: string }; props: Record<string, unknown> };
  return { layout: result.layout, page: element.type?.name, props: element.props };
}
const signedOut = (pathname: string) => shown(adminRoutes().resolveSignedOutRoute({ pathname, search: "" }));
const signedIn = (pathname: string) => shown(adminRoutes().resolveSignedInRoute({ pathname, search: "" }, member));

describe("account-access routes", () => {
  test("forgot and reset password open on their own, signed in or not", () => {
    for (const resolve of [signedOut, signedIn]) {
      expect(resolve("/admin/forgot-password")).toMatchObject({ layout: "bare", page: "ForgotPasswordPage" });
      expect(resolve(resetPasswordPath("abc_DEF-123"))).toMatchObject({ layout: "bare", page: "ResetPasswordPage", props: { token: "abc_DEF-123" } });
    }
  });

  test("verify stands alone signed out and sits in the console signed in, with or without its code", () => {
    expect(signedOut(verifyAccountPath())).toMatchObject({ layout: "bare", page: "VerifyAccountPage", props: { viewer: null } });
    expect(signedOut(verifyAccountPath("code-1"))).toMatchObject({ layout: "bare", page: "VerifyAccountPage", props: { code: "code-1" } });
    expect(signedIn(verifyAccountPath())).toMatchObject({ layout: "shell", page: "VerifyAccountPage", props: { viewer: member } });
    expect(signedIn(verifyAccountPath("code-1"))).toMatchObject({ layout: "shell", page: "VerifyAccountPage", props: { code: "code-1" } });
  });

  test("near misses are not these screens", () => {
    for (const path of ["/admin/reset-password", "/admin/verify/a/b", "/admin/forgot-password/x", "/admin/reset-password/%E0%A4%A"]) {
      const result = signedOut(path);
      expect("page" in result ? result.page : undefined).not.toBeOneOf(["ForgotPasswordPage", "ResetPasswordPage", "VerifyAccountPage"]);
    }
  });
});
