import { describe, expect, test } from "bun:test";
import { auditLogsPath, matchScreen, RESOURCES_PATH, subscribersPath, tagsPath } from "../../site/src/admin/paths.ts";

// The workspace screens' addresses (spec §2): every path the console links to names the screen it was built for.
describe("workspace addresses", () => {
  test("subscribers, tags and audit logs have their own and the organisation variants", () => {
    expect(matchScreen(subscribersPath())).toEqual({ name: "subscribers" });
    expect(matchScreen(subscribersPath("org-1"))).toEqual({ name: "subscribers", organisationID: "org-1" });
    expect(matchScreen(tagsPath())).toEqual({ name: "tags" });
    expect(matchScreen(tagsPath("org-1"))).toEqual({ name: "tags", organisationID: "org-1" });
    expect(matchScreen(auditLogsPath())).toEqual({ name: "audit-logs" });
    expect(matchScreen(auditLogsPath(undefined, "log-9"))).toEqual({ name: "audit-logs", parentAuditLogID: "log-9" });
    expect(matchScreen(auditLogsPath("org-1"))).toEqual({ name: "audit-logs", organisationID: "org-1" });
    expect(matchScreen(auditLogsPath("org-1", "log-9"))).toEqual({ name: "audit-logs", organisationID: "org-1", parentAuditLogID: "log-9" });
  });

  test("resources sit outside manage, and a tag's reports stay the report list", () => {
    expect(matchScreen(RESOURCES_PATH)).toEqual({ name: "resources" });
    expect(matchScreen("/admin/manage/tags/reports/tag-1")).toEqual({ name: "report-list", tagID: "tag-1" });
    expect(matchScreen("/admin/manage/organisations/tags/reports/org-1/tag-1")).toEqual({ name: "report-list", organisationID: "org-1", tagID: "tag-1" });
  });

  test("addresses with extra or missing parts are not found", () => {
    expect(matchScreen("/admin/manage/subscribers/extra")).toEqual({ name: "not-found" });
    expect(matchScreen("/admin/manage/tags/x/y/z")).toEqual({ name: "not-found" });
    expect(matchScreen("/admin/manage/audit-logs/a/b")).toEqual({ name: "not-found" });
    expect(matchScreen("/admin/manage/organisations/audit-logs/org-1/a/b")).toEqual({ name: "not-found" });
    expect(matchScreen("/admin/resources/x")).toEqual({ name: "not-found" });
  });
});
