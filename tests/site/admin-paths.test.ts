import { describe, expect, test } from "bun:test";
import { testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import {
  conversationsPath,
  formTemplateCreatePath,
  formTemplateEditPath,
  formTemplateListPath,
  matchScreen,
  reportDetailPath,
  reportFormCreatePath,
  reportFormListPath,
  reportFormPath,
  reportListPath,
} from "../../site/src/admin/paths.ts";
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

describe("report form and form template paths", () => {
  test("the forms list, create, and each form's pages have the spec's addresses", () => {
    expect(reportFormListPath()).toBe("/admin/manage/report-forms");
    expect(reportFormListPath("org 1")).toBe("/admin/manage/organisations/report-forms/org%201");
    expect(reportFormCreatePath()).toBe("/admin/manage/report-forms/create");
    expect(reportFormCreatePath("org-1", "tpl 1")).toBe("/admin/manage/organisations/report-forms/create/org-1?template_id=tpl%201");
    expect(reportFormPath("overview", "form-1")).toBe("/admin/manage/report-forms/overview/form-1");
    expect(reportFormPath("internal-notes", "form-1", "org-1")).toBe("/admin/manage/organisations/report-forms/internal-notes/org-1/form-1");
    expect(reportFormPath("edit", "form-1")).toBe("/admin/manage/report-forms/edit/form-1");
    expect(formTemplateListPath()).toBe("/admin/manage/form-templates");
    expect(formTemplateCreatePath()).toBe("/admin/manage/form-templates/create");
    expect(formTemplateEditPath("tpl/1")).toBe("/admin/manage/form-templates/edit/tpl%2F1");
  });

  test("what a path makes is what it reads back as", () => {
    expect(matchScreen(reportFormListPath())).toEqual({ name: "report-form-list" });
    expect(matchScreen(reportFormListPath("org 1"))).toEqual({ name: "report-form-list", organisationID: "org 1" });
    expect(matchScreen(reportFormCreatePath())).toEqual({ name: "report-form-create" });
    expect(matchScreen(reportFormCreatePath("org-1").split("?")[0]!)).toEqual({ name: "report-form-create", organisationID: "org-1" });
    for (const tab of ["overview", "edit", "internal-notes"] as const) {
      expect(matchScreen(reportFormPath(tab, "form-1"))).toEqual({ name: "report-form", tab, reportFormID: "form-1" });
      expect(matchScreen(reportFormPath(tab, "form-1", "org-1"))).toEqual({ name: "report-form", tab, reportFormID: "form-1", organisationID: "org-1" });
    }
    expect(matchScreen(formTemplateListPath())).toEqual({ name: "form-template-list" });
    expect(matchScreen(formTemplateCreatePath())).toEqual({ name: "form-template-create" });
    expect(matchScreen(formTemplateEditPath("tpl 1"))).toEqual({ name: "form-template-edit", reportFormTemplateID: "tpl 1" });
  });

  test("near misses are not form screens", () => {
    for (const path of [
      "/admin/manage/report-forms/extra",
      "/admin/manage/report-forms/notes/form-1",
      "/admin/manage/report-forms/overview/form-1/extra",
      "/admin/manage/report-forms/create/extra",
      "/admin/manage/organisations/report-forms",
      "/admin/manage/organisations/report-forms/internal-notes/form-1",
      "/admin/manage/form-templates/edit",
      "/admin/manage/form-templates/create/x",
      "/admin/manage/form-templates/tpl-1",
      "/admin/manage/organisations/form-templates",
    ]) {
      expect({ path, screen: matchScreen(path) }).toEqual({ path, screen: { name: "not-found" } });
    }
  });
});

const adminRoutes = useAdminRoutes();

const viewerOf = (role: RoleName, organisationId: string | null = "org-1"): Viewer => testViewer(role, { organisationId });

const resolve = (pathname: string, viewer: Viewer) => adminRoutes().resolveSignedInRoute({ pathname, search: "" }, viewer);
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

describe("the route table's report form and template cases", () => {
  const at = (pathname: string, search = "") => ({ pathname, search });
  const routed = (pathname: string, viewer: Viewer, search = "") => adminRoutes().resolveSignedInRoute(at(pathname, search), viewer);
  // The form screens are lazy chunks inside a Suspense: the screen is the Suspense's child.
  const screenOf = (result: ReturnType<typeof resolve>) => {
    if (result.kind !== "page") return undefined;
    const child = (result.element as { props: { children?: { type?: { displayName?: string; name?: string }; props: Record<string, unknown> } } }).props.children;
    const name = child?.type?.displayName ?? (result.element as { type?: { name?: string } }).type?.name;
    return { name, props: child?.props ?? {} };
  };

  test("owners and admins get the list, the form's pages and the builder", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) {
      const viewer = viewerOf(role);
      expect(screenOf(routed("/admin/manage/report-forms", viewer))?.name).toBe("FormsPage");
      expect(screenOf(routed("/admin/manage/report-forms/overview/form-1", viewer))).toMatchObject({ name: "FormPage", props: { tab: "overview", reportFormID: "form-1" } });
      expect(screenOf(routed("/admin/manage/report-forms/internal-notes/form-1", viewer))).toMatchObject({ name: "FormPage", props: { tab: "internal-notes" } });
      expect(screenOf(routed("/admin/manage/report-forms/edit/form-1", viewer))).toMatchObject({ name: "FormBuilderPage", props: { kind: "form", reportFormID: "form-1" } });
      expect(screenOf(routed("/admin/manage/report-forms/create", viewer, "?template_id=tpl-9"))).toMatchObject({ name: "FormBuilderPage", props: { kind: "form", templateID: "tpl-9" } });
      // Templates are the super admin's to manage.
      expect(screenOf(routed("/admin/manage/form-templates", viewer))?.name).toBe("NotFoundPage");
      expect(screenOf(routed("/admin/manage/form-templates/create", viewer))?.name).toBe("NotFoundPage");
    }
  });

  test("members get Not Found on every form screen; guest members go to their organisations list", () => {
    for (const path of ["/admin/manage/report-forms", "/admin/manage/report-forms/create", "/admin/manage/report-forms/overview/f", "/admin/manage/report-forms/edit/f", "/admin/manage/report-forms/internal-notes/f", "/admin/manage/form-templates"]) {
      expect({ path, screen: screenOf(routed(path, viewerOf("MEMBER")))?.name }).toEqual({ path, screen: "NotFoundPage" });
      expect({ path, route: routed(path, viewerOf("GUEST_MEMBER")) }).toEqual({ path, route: { kind: "redirect", to: "/admin/manage/organisations" } });
    }
  });

  test("each form tab needs its own permission", () => {
    const withoutPermission = (permission: string) => {
      const viewer = viewerOf("ORGANISATION_OWNER");
      viewer.role.permissions = viewer.role.permissions.filter((held) => held !== permission);
      return viewer;
    };
    expect(screenOf(routed("/admin/manage/report-forms/overview/f", withoutPermission("ReportFormRead")))?.name).toBe("NotFoundPage");
    expect(screenOf(routed("/admin/manage/report-forms/internal-notes/f", withoutPermission("ReportFormRead")))?.name).toBe("FormPage");
    expect(screenOf(routed("/admin/manage/report-forms/internal-notes/f", withoutPermission("ReportFormNoteList")))?.name).toBe("NotFoundPage");
    expect(screenOf(routed("/admin/manage/report-forms/edit/f", withoutPermission("ReportFormUpdate")))?.name).toBe("NotFoundPage");
    expect(screenOf(routed("/admin/manage/report-forms/create", withoutPermission("ReportFormCreate")))?.name).toBe("NotFoundPage");
    expect(screenOf(routed("/admin/manage/report-forms", withoutPermission("ReportFormList")))?.name).toBe("NotFoundPage");
  });

  test("a super admin gets the templates and an organisation's forms, carrying the organisation to the shell", () => {
    const superAdmin = viewerOf("SUPER_ADMIN", null);
    expect(screenOf(routed("/admin/manage/form-templates", superAdmin))?.name).toBe("FormTemplatesPage");
    expect(screenOf(routed("/admin/manage/form-templates/create", superAdmin))).toMatchObject({ name: "FormBuilderPage", props: { kind: "template" } });
    expect(screenOf(routed("/admin/manage/form-templates/edit/tpl-1", superAdmin))).toMatchObject({ name: "FormBuilderPage", props: { kind: "template", reportFormTemplateID: "tpl-1" } });
    const list = routed("/admin/manage/organisations/report-forms/org-2", superAdmin);
    expect(screenOf(list)).toMatchObject({ name: "FormsPage", props: { organisationID: "org-2" } });
    expect(list.kind === "page" && list.organisationID).toBe("org-2");
    expect(screenOf(routed("/admin/manage/organisations/report-forms/overview/org-2/form-1", superAdmin))).toMatchObject({ name: "FormPage", props: { organisationID: "org-2", reportFormID: "form-1" } });
    expect(screenOf(routed("/admin/manage/organisations/report-forms/create/org-2", superAdmin))).toMatchObject({ name: "FormBuilderPage", props: { organisationID: "org-2" } });
    // The organisation variants are not an owner's.
    expect(screenOf(routed("/admin/manage/organisations/report-forms/org-2", viewerOf("ORGANISATION_OWNER")))?.name).toBe("NotFoundPage");
  });
});

describe("the route table's two-factor gate and magic link", () => {
  test("a viewer that owes a two-factor step sees only that step, on every path", () => {
    const steps: [Partial<Viewer>, string][] = [
      [{ twoFactorAuthenticationIsSet: false, pass2FA: false }, "SetupScreen"],
      [{ pass2FA: false }, "PasscodeScreen"],
      [{ hasRecoveryCode: false }, "RecoveryDownloadScreen"],
    ];
    for (const [owed, screen] of steps) {
      for (const path of ["/admin/dashboard", "/admin/manage/report-conversations", "/admin/settings"]) {
        const result = resolve(path, { ...viewerOf("ORGANISATION_OWNER"), ...owed });
        expect(result.kind === "page" && result.layout).toBe("bare");
        // A lazy screen inside its Suspense: the lazy component keeps the screen's name.
        const child = result.kind === "page" ? (result.element as { props: { children?: { type?: { displayName?: string } } } }).props.children : undefined;
        expect(child?.type?.displayName).toBe(screen);
      }
    }
    // Nothing owed, or 2FA off: the console itself.
    expect(isConversationsPage(resolve("/admin/manage/report-conversations", viewerOf("MEMBER")))).toBe(true);
    const off = { ...viewerOf("MEMBER"), twoFactorAuthenticationActivated: false, twoFactorAuthenticationIsSet: false, pass2FA: true, hasRecoveryCode: false };
    expect(isConversationsPage(resolve("/admin/manage/report-conversations", off))).toBe(true);
  });

  test("the magic link needs both values, else it goes to the login page", () => {
    const signedOut = (search: string) => adminRoutes().resolveSignedOutRoute({ pathname: "/admin/login-verify", search });
    expect(signedOut("?email=a%40b.test")).toEqual({ kind: "redirect", to: "/admin" });
    expect(signedOut("?token=abc")).toEqual({ kind: "redirect", to: "/admin" });
    const page = signedOut("?email=a%40b.test&token=abc");
    expect(pageName(page)).toBe("LoginVerifyPage");
    expect(resolve("/admin/login-verify", viewerOf("MEMBER"))).toEqual({ kind: "redirect", to: "/admin/dashboard" });
  });
});
