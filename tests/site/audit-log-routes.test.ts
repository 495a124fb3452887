import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { AUDIT_OBJECT_TYPES } from "../../api/shared/audit-object-types.ts";
import { ALL_PERMISSIONS } from "../../api/shared/permissions.ts";
import { lazyScreenName, resolveAs, testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import { auditLogsPath } from "../../site/src/admin/paths.ts";
import { activitySentence, WORDED_ACTIONS } from "../../site/src/admin/ui/activity-sentences.ts";
import { readAuditLogParams, writeAuditLogParams } from "../../site/src/admin/features/audit-logs/audit-logs-api.ts";

/** The Audit Logs screens (spec §2 Audit logs, §3 User activity; decision 040). */

const adminRoutes = useAdminRoutes();
const resolve = (pathname: string, role: Parameters<typeof testViewer>[0]) => resolveAs(adminRoutes, pathname, role);
const screenName = lazyScreenName;

describe("audit log routes", () => {
  test("owners, admins and super admins get the list and a group's logs; members and guests are sent home", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "SUPER_ADMIN"] as const) {
      expect(screenName(resolve(auditLogsPath(), role))).toBe("AuditLogsPage");
      expect(screenName(resolve(auditLogsPath(undefined, "log-1"), role))).toBe("AuditLogsPage");
    }
    expect(resolve(auditLogsPath(), "MEMBER")).toEqual({ kind: "redirect", to: "/admin/dashboard" });
    expect(resolve(auditLogsPath(undefined, "log-1"), "GUEST_MEMBER")).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
  });

  test("the organisation variant carries the organisation to the shell", () => {
    const result = resolve(auditLogsPath("org-9", "log-1"), "SUPER_ADMIN");
    expect(result.kind === "page" && result.organisationID).toBe("org-9");
  });

  test("the filters read back as they are written, and hand-edited addresses fall back to none", () => {
    const params = { objectType: "Tag", user: "u-1", from: "2026-01-01", to: "2026-01-31", page: 3 };
    expect(readAuditLogParams(writeAuditLogParams(params))).toEqual(params);
    expect(readAuditLogParams("?type=Nope&from=31/01/2026&page=-2")).toEqual({ objectType: "", user: "", from: "", to: "", page: 1 });
  });
});

describe("audit log sentences", () => {
  const jane = { firstName: "Jane", lastName: "Doe", role: "ORGANISATION_OWNER" };

  test("who did what to what, with the names the log may show", () => {
    expect(activitySentence({ action: "Archive", objectType: "Tag", metadata: { name: "Fraud", archived: true }, user: jane })).toBe('Jane D. archived the tag "Fraud"');
    expect(activitySentence({ action: "Suspend", objectType: "User", metadata: { first_name: "Ann", last_name: "Lee" }, user: jane })).toBe('Jane D. suspended the user "Ann Lee"');
    expect(activitySentence({ action: "Update", objectType: "Tag", metadata: { name: "People & Culture", from: "HR", to: "People & Culture" }, user: jane })).toBe('Jane D. renamed the tag "HR" to "People & Culture"');
    expect(activitySentence({ action: "TagAdded", objectType: "Tag", metadata: { name: "HR" }, user: jane })).toBe('Jane D. added the tag "HR"');
    expect(activitySentence({ action: "Complete", objectType: "ReportSubmission", metadata: {}, user: null })).toBe("The reporter submitted a report");
    expect(activitySentence({ action: "NotifyNewReport", objectType: "ReportSubmission", metadata: {}, user: null })).toBe("The system emailed the subscribers about a report");
    expect(activitySentence({ action: "Login", objectType: "Self", metadata: { deleted_user: true }, user: null })).toBe("A deleted user signed in");
    expect(activitySentence({ action: "SavedReplyArchive", objectType: "Organisation", metadata: { name: "Welcome" }, user: jane })).toBe('Jane D. archived the saved reply "Welcome"');
    expect(activitySentence({ action: "SomethingNew", objectType: "Self", metadata: {}, user: jane })).toBe("Jane D.: Something New");
  });

  test("every action the server records has a sentence of its own", async () => {
    const recorded = new Set<string>();
    // Literal actions handed to the audit writers: `action: "X"`, `audit(…, "X")`, `archived ? "X" : "Y"`.
    const patterns = [/action: "([A-Z]\w+)"/g, /audit\w*\([^;]*?, "([A-Z]\w+)"/g, /\? "([A-Z]\w+)" : "([A-Z]\w+)"/g];
    for await (const file of new Glob("api/modules/**/*.ts").scan(".")) {
      const source = await Bun.file(file).text();
      if (!/recordActivity|recordReportChange|changeReport|changeForm|audit\w*\(/.test(source)) continue;
      for (const pattern of patterns) for (const match of source.matchAll(pattern)) for (const name of match.slice(1)) if (name) recorded.add(name);
    }
    // The ternaries also choose permissions, statuses and object types: those are not actions.
    const notActions = new Set<string>([...ALL_PERMISSIONS, ...AUDIT_OBJECT_TYPES, "Active", "Draft", "Published", "Outdated", "Yes", "No", "Assigned", "New", "Approved", "Rejected"]);
    const missing = [...recorded].filter((name) => !notActions.has(name) && !WORDED_ACTIONS.includes(name));
    expect(missing).toEqual([]);
    for (const template of ["Create", "Update", "Archive", "Unarchive"]) expect(WORDED_ACTIONS).toContain(`Template${template}`);
  });
});
