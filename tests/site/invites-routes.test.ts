import { describe, expect, test } from "bun:test";
import { lazyScreenName, resolveAs, type testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import { invitesPath, matchScreen } from "../../site/src/admin/paths.ts";
import { invitableRoles, type RoleOption } from "../../site/src/admin/features/invites/invites-api.ts";

/** The Invites screens in the console's address book and route table (spec §2 Invites, §6; decision 035). */

const adminRoutes = useAdminRoutes();
const resolve = (pathname: string, role: Parameters<typeof testViewer>[0]) => resolveAs(adminRoutes, pathname, role);
const screenName = lazyScreenName;

describe("invites routes", () => {
  test("the page and its organisation variant have the spec's addresses, and read back as they are made", () => {
    expect(invitesPath()).toBe("/admin/manage/invites");
    expect(invitesPath("org-9")).toBe("/admin/manage/organisations/invites/org-9");
    expect(matchScreen(invitesPath())).toEqual({ name: "invites" });
    expect(matchScreen(invitesPath("org-9"))).toEqual({ name: "invites", organisationID: "org-9" });
    for (const near of ["/admin/manage/invites/x", "/admin/manage/organisations/invites", "/admin/manage/organisations/invites/a/b"]) {
      expect(matchScreen(near)).toEqual({ name: "not-found" });
    }
  });

  test("owners, admins and super admins get the page; members and guest members are sent home", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "SUPER_ADMIN"] as const) expect(screenName(resolve("/admin/manage/invites", role))).toBe("InvitesPage");
    expect(resolve("/admin/manage/invites", "MEMBER")).toEqual({ kind: "redirect", to: "/admin/dashboard" });
    expect(resolve("/admin/manage/invites", "GUEST_MEMBER")).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
  });

  test("the organisation variant is a super admin's, and carries the organisation to the shell", () => {
    const result = resolve(invitesPath("org-9"), "SUPER_ADMIN");
    expect(result.kind === "page" && result.organisationID).toBe("org-9");
    expect(screenName(resolve(invitesPath("org-9"), "ORGANISATION_OWNER"))).toBeUndefined();
  });

  test("the Role list offers only roles below the viewer's, never Super Admin or Guest Member", () => {
    const roles: RoleOption[] = (["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const).map((name) => ({ id: name, name, label: name }));
    const names = (actor: RoleOption["name"]) => invitableRoles(roles, actor).map((role) => role.name);
    expect(names("SUPER_ADMIN")).toEqual(["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER"]);
    expect(names("ORGANISATION_OWNER")).toEqual(["ORGANISATION_ADMIN", "MEMBER"]);
    expect(names("ORGANISATION_ADMIN")).toEqual(["MEMBER"]);
    expect(names("MEMBER")).toEqual([]);
  });
});
