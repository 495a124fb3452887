import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { permissionsOf } from "../../api/shared/permissions.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import { conversationsPath, matchScreen, reportDetailPath, reportListPath } from "../../site/src/admin/paths.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** The console's address book (site/src/admin/paths.ts) and the route table's gates for it. */

describe("console paths", () => {
  test("the Conversations page has an address of its own and a super admin's per organisation", () => {
    expect(conversationsPath()).toBe("/admin/manage/report-conversations");
    expect(conversationsPath("org 1")).toBe("/admin/manage/organisations/report-conversations/org%201");
    expect(matchScreen("/admin/manage/report-conversations")).toEqual({ name: "conversations" });
    expect(matchScreen("/admin/manage/organisations/report-conversations/org-1")).toEqual({ name: "conversations", organisationID: "org-1" });
    // What a path makes is what it reads back as.
    expect(matchScreen(conversationsPath("org 1"))).toEqual({ name: "conversations", organisationID: "org 1" });
  });

  test("near misses are not the Conversations page", () => {
    for (const path of [
      "/admin/manage/report-conversations/extra",
      "/admin/manage/organisations/report-conversations",
      "/admin/manage/organisations/report-conversations/org-1/extra",
      "/admin/manage/conversations",
      "/admin/report-conversations",
      "/admin/manage/organisations/report-conversations/%E0%A4%A",
    ]) {
      expect(matchScreen(path)).toEqual({ name: "not-found" });
    }
  });

  test("the other screens still match as before", () => {
    expect(matchScreen(reportListPath())).toEqual({ name: "report-list" });
    expect(matchScreen(reportListPath("org-1"))).toEqual({ name: "report-list", organisationID: "org-1" });
    expect(matchScreen(reportDetailPath("messages", "form-1", "report-1"))).toEqual({ name: "report-detail", tab: "messages", reportFormID: "form-1", reportSubmissionID: "report-1" });
    expect(matchScreen("/admin/manage/organisations")).toEqual({ name: "organisations" });
  });
});

// routes.tsx reaches the browser's location when the router loads; a bare stand-in is enough here.
const globals = globalThis as unknown as { window?: unknown };
const hadWindow = "window" in globals;
let routes: typeof import("../../site/src/admin/routes.tsx");

beforeAll(async () => {
  if (!hadWindow) globals.window = { location: { pathname: "/admin", search: "" }, addEventListener() {} };
  routes = await import("../../site/src/admin/routes.tsx");
});
afterAll(() => {
  if (!hadWindow) delete globals.window;
});

function viewerOf(role: RoleName, organisationId: string | null = "org-1"): Viewer {
  return {
    id: `user-${role}`,
    email: `${role.toLowerCase()}@example.test`,
    firstName: "Test",
    lastName: "User",
    verified: true,
    twoFactorAuthenticationActivated: true,
    role: { name: role, label: role, permissions: permissionsOf(role) },
    organisation: organisationId ? { id: organisationId, name: "Org", slug: "org" } : null,
  };
}

const resolve = (pathname: string, viewer: Viewer) => routes.resolveSignedInRoute({ pathname, search: "" }, viewer);
const pageName = (result: ReturnType<typeof resolve>) => (result.kind === "page" ? (result.element as { type?: { name?: string } }).type?.name : undefined);
const isConversationsPage = (result: ReturnType<typeof resolve>) => pageName(result) === "ConversationsPage";

describe("the route table's Conversations case", () => {
  test("every role holding ReportConversationList gets the page", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER", "SUPER_ADMIN"] as const) {
      expect(isConversationsPage(resolve("/admin/manage/report-conversations", viewerOf(role)))).toBe(true);
    }
  });

  test("a viewer without ReportConversationList gets Not Found", () => {
    const viewer = viewerOf("MEMBER");
    viewer.role.permissions = viewer.role.permissions.filter((permission) => permission !== "ReportConversationList");
    expect(pageName(resolve("/admin/manage/report-conversations", viewer))).toBe("NotFoundPage");
  });

  test("the organisation variant is a super admin's, and carries the organisation to the shell", () => {
    const superAdmin = resolve("/admin/manage/organisations/report-conversations/org-2", viewerOf("SUPER_ADMIN", null));
    expect(isConversationsPage(superAdmin)).toBe(true);
    expect(superAdmin.kind === "page" && superAdmin.organisationID).toBe("org-2");
    expect(pageName(resolve("/admin/manage/organisations/report-conversations/org-2", viewerOf("ORGANISATION_OWNER")))).toBe("NotFoundPage");
  });
});
