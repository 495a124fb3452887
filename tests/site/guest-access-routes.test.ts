import { describe, expect, test } from "bun:test";
import { testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import { ROLE_NAMES, type RoleName } from "../../api/shared/enums.ts";
import { matchScreen, organisationsPath, reportInvitesPath } from "../../site/src/admin/paths.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** The Guest Access screens in the console's address book and route table (decision 032). */

const adminRoutes = useAdminRoutes();

const viewerOf = (role: RoleName, twoFactor: boolean): Viewer => testViewer(role, { organisationId: role === "SUPER_ADMIN" ? null : "org-1", twoFactor });

const resolve = (pathname: string, viewer: Viewer) => adminRoutes().resolveSignedInRoute({ pathname, search: "" }, viewer);
/** The screen's name, looking through the Suspense that wraps a lazy screen. */
function screenName(result: ReturnType<typeof resolve>): string | undefined {
  if (result.kind !== "page") return undefined;
  const element = result.element as { type?: { name?: string }; props: { children?: { type?: { displayName?: string } } } };
  return element.props.children?.type?.displayName ?? element.type?.name;
}

const REPORT_PATHS = ["/admin/manage/reports", "/admin/manage/reports/overview/form-1/report-1", "/admin/manage/report-conversations"];

describe("guest access routes", () => {
  test("/admin/manage/report-invites is its own screen, and only that exact path", () => {
    expect(reportInvitesPath()).toBe("/admin/manage/report-invites");
    expect(organisationsPath()).toBe("/admin/manage/organisations");
    expect(matchScreen("/admin/manage/report-invites")).toEqual({ name: "report-invites" });
    expect(matchScreen("/admin/manage/report-invites/extra")).toEqual({ name: "not-found" });
  });

  test("any signed-in user may open the report invites page (spec §2), with or without two-factor", () => {
    for (const role of ROLE_NAMES) {
      for (const twoFactor of [true, false]) expect(screenName(resolve("/admin/manage/report-invites", viewerOf(role, twoFactor)))).toBe("ReportInvitesPage");
    }
  });

  test("the organisations list is the guest's list for everyone but a super admin", () => {
    expect(screenName(resolve("/admin/manage/organisations", viewerOf("SUPER_ADMIN", false)))).toBe("OrganisationsPage");
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const) {
      expect(screenName(resolve("/admin/manage/organisations", viewerOf(role, false)))).toBe("GuestOrganisationsPage");
    }
  });

  test("a guest without two-factor is sent from the reports to the organisations list; with it they get the screens", () => {
    for (const path of REPORT_PATHS) {
      expect(resolve(path, viewerOf("GUEST_MEMBER", false))).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
      expect(resolve(path, viewerOf("GUEST_MEMBER", true)).kind).toBe("page");
    }
  });

  test("members, owners and admins are not redirected: their own organisation's reports need no two-factor", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER"] as const) {
      for (const path of REPORT_PATHS) expect(resolve(path, viewerOf(role, false)).kind).toBe("page");
    }
  });

  test("wherever a guest may not go they land on the organisations list (spec §2, §6), not on a not-found page", () => {
    const guest = viewerOf("GUEST_MEMBER", true);
    const barred = [
      "/admin/dashboard",
      "/admin/manage/users",
      "/admin/manage/users/create",
      "/admin/manage/invites",
      "/admin/manage/subscribers",
      "/admin/manage/tags",
      "/admin/manage/audit-logs",
      "/admin/manage/report-forms",
      "/admin/manage/report-forms/create",
      "/admin/manage/form-templates",
      "/admin/manage/organisations/overview",
      "/admin/manage/organisations/reports/org-2",
    ];
    for (const path of barred) expect(resolve(path, guest)).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
    // Their own screens stay open, and an address that names nothing is still not found.
    expect(screenName(resolve("/admin/settings", guest))).toBe("SettingsPage");
    expect(resolve("/admin/manage/nothing-here", guest).kind).toBe("page");
  });
});
