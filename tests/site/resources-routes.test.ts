import { describe, expect, test } from "bun:test";
import { testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import { RESOURCES_PATH } from "../../site/src/admin/paths.ts";
import { documentFileProblem, videoUrlProblem } from "../../site/src/admin/features/resources/resources-api.ts";

/** The Resources screen in the console's route table, and the checks its form makes before sending (spec §2, §5; decision 039). */

const adminRoutes = useAdminRoutes();
const ROLES = ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const;
const screenName = (result: ReturnType<ReturnType<typeof adminRoutes>["resolveSignedInRoute"]>) => {
  if (result.kind !== "page") return undefined;
  const element = result.element as { props: { children?: { type?: { displayName?: string } } } };
  return element.props.children?.type?.displayName;
};

describe("resources route", () => {
  test("every signed-in role opens it, a guest member without two-factor authentication included", () => {
    for (const role of ROLES) {
      const viewer = testViewer(role, { organisationId: role === "SUPER_ADMIN" ? null : "org-1" });
      expect({ role, screen: screenName(adminRoutes().resolveSignedInRoute({ pathname: RESOURCES_PATH, search: "" }, viewer)) }).toEqual({ role, screen: "ResourcesPage" });
    }
    const guest = testViewer("GUEST_MEMBER", { twoFactor: false });
    expect(screenName(adminRoutes().resolveSignedInRoute({ pathname: RESOURCES_PATH, search: "" }, guest))).toBe("ResourcesPage");
  });

  test("signed out, the address goes to the login page and is remembered", () => {
    expect(adminRoutes().resolveSignedOutRoute({ pathname: RESOURCES_PATH, search: "" })).toEqual({ kind: "redirect", to: "/admin?bounced=1", rememberReturnPath: true });
  });
});

describe("resource form checks", () => {
  test("only http and https video addresses", () => {
    expect(videoUrlProblem("https://videos.example.com/a")).toBeUndefined();
    expect(videoUrlProblem("http://example.com")).toBeUndefined();
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "example.com/video", "https://"]) {
      expect(videoUrlProblem(bad)).toBe("Video URL must be a web address starting with http:// or https://");
    }
  });

  test("documents of the spec's types up to 25,000,000 bytes", () => {
    const file = (name: string, size: number) => ({ name, size }) as File;
    expect(documentFileProblem(file("Guide.PDF", 25_000_000))).toBeUndefined();
    expect(documentFileProblem(file("guide.pdf", 25_000_001))).toBe("This file is too large: a document can be at most 25,000,000 bytes.");
    expect(documentFileProblem(file("guide.exe", 10))).toStartWith("Files of this type cannot be uploaded.");
    expect(documentFileProblem(file("README", 10))).toStartWith("Files of this type cannot be uploaded.");
  });
});
