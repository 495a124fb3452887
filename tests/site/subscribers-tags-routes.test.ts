import { describe, expect, test } from "bun:test";
import { lazyScreenName, resolveAs, type testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import { savedRepliesPath, subscribersPath, tagsPath } from "../../site/src/admin/paths.ts";

/** Subscribers, Tags and Saved Replies in the route table (spec §2, §6; decisions 038, 051). */

const adminRoutes = useAdminRoutes();
const resolve = (pathname: string, role: Parameters<typeof testViewer>[0]) => resolveAs(adminRoutes, pathname, role);
const screenName = lazyScreenName;

describe("subscribers and tags routes", () => {
  const pages = [
    [subscribersPath, "SubscribersPage"],
    [tagsPath, "TagsPage"],
    [savedRepliesPath, "SavedRepliesPage"],
  ] as const;

  test("owners and admins get each page; members and guest members are sent home", () => {
    for (const [path, screen] of pages) {
      for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) expect(screenName(resolve(path(), role))).toBe(screen);
      expect(resolve(path(), "MEMBER")).toEqual({ kind: "redirect", to: "/admin/dashboard" });
      expect(resolve(path(), "GUEST_MEMBER")).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
    }
  });

  test("a super admin works inside one organisation: the variant carries it to the shell, the plain address goes to the list", () => {
    for (const [path, screen] of pages) {
      const inside = resolve(path("org-9"), "SUPER_ADMIN");
      expect(screenName(inside)).toBe(screen);
      expect(inside.kind === "page" && inside.organisationID).toBe("org-9");
      expect(resolve(path(), "SUPER_ADMIN")).toEqual({ kind: "redirect", to: "/admin/manage/organisations" });
      expect(screenName(resolve(path("org-9"), "ORGANISATION_OWNER"))).toBeUndefined();
    }
  });
});
