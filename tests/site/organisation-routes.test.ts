import { describe, expect, test } from "bun:test";
import { testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import {
  invitesPath,
  matchScreen,
  organisationEditPath,
  organisationOverviewPath,
  organisationsPath,
  userCreatePath,
  userEditPath,
  usersPath,
} from "../../site/src/admin/paths.ts";

/** The Organisations screens and the users and invites addresses in the console's address book and route table. */

const adminRoutes = useAdminRoutes();
const resolve = (pathname: string, role: RoleName) =>
  adminRoutes().resolveSignedInRoute({ pathname, search: "" }, testViewer(role, { organisationId: role === "SUPER_ADMIN" ? null : "org-1" }));

/** The screen's name, looking through the Suspense that wraps a lazy screen. */
function screenName(result: ReturnType<typeof resolve>): string | undefined {
  if (result.kind !== "page") return result.kind === "redirect" ? `redirect:${result.to}` : undefined;
  const element = result.element as { type?: { name?: string }; props: { children?: { type?: { displayName?: string } } } };
  return element.props.children?.type?.displayName ?? element.type?.name;
}

describe("organisation paths", () => {
  test("overview and edit, with and without an organisation's id, read back as what they make", () => {
    expect(organisationOverviewPath()).toBe("/admin/manage/organisations/overview");
    expect(organisationOverviewPath("org 1")).toBe("/admin/manage/organisations/overview/org%201");
    expect(organisationEditPath("org-1")).toBe("/admin/manage/organisations/edit/org-1");
    expect(matchScreen(organisationOverviewPath())).toEqual({ name: "organisation-overview" });
    expect(matchScreen(organisationOverviewPath("org 1"))).toEqual({ name: "organisation-overview", organisationID: "org 1" });
    expect(matchScreen(organisationEditPath())).toEqual({ name: "organisation-edit" });
    expect(matchScreen(organisationEditPath("org-1"))).toEqual({ name: "organisation-edit", organisationID: "org-1" });
    expect(matchScreen("/admin/manage/organisations/edit/org-1/extra")).toEqual({ name: "not-found" });
  });

  test("the users and invites addresses of spec §2, and their organisation variants", () => {
    expect(usersPath()).toBe("/admin/manage/users");
    expect(usersPath("o1")).toBe("/admin/manage/organisations/users/o1");
    expect(userCreatePath()).toBe("/admin/manage/users/create");
    expect(userCreatePath("o1")).toBe("/admin/manage/organisations/users/create/o1");
    expect(userEditPath("u1")).toBe("/admin/manage/users/edit/u1");
    expect(userEditPath("u1", "o1")).toBe("/admin/manage/organisations/users/edit/o1/u1");
    expect(invitesPath()).toBe("/admin/manage/invites");
    expect(invitesPath("o1")).toBe("/admin/manage/organisations/invites/o1");
    expect(matchScreen(usersPath())).toEqual({ name: "users" });
    expect(matchScreen("/admin/manage/users/OrganisationOwner")).toEqual({ name: "users", roleType: "OrganisationOwner" });
    expect(matchScreen(usersPath("o1"))).toEqual({ name: "users", organisationID: "o1" });
    expect(matchScreen(userCreatePath())).toEqual({ name: "user-create" });
    expect(matchScreen(userCreatePath("o1"))).toEqual({ name: "user-create", organisationID: "o1" });
    expect(matchScreen(userEditPath("u1"))).toEqual({ name: "user-edit", userID: "u1" });
    expect(matchScreen(userEditPath("u1", "o1"))).toEqual({ name: "user-edit", userID: "u1", organisationID: "o1" });
    expect(matchScreen(invitesPath())).toEqual({ name: "invites" });
    expect(matchScreen(invitesPath("o1"))).toEqual({ name: "invites", organisationID: "o1" });
  });
});

describe("organisation routes", () => {
  test("the super admin's list is the management screen", () => {
    expect(screenName(resolve(organisationsPath(), "SUPER_ADMIN"))).toBe("OrganisationsPage");
  });

  test("owner, admin and member open their own organisation's overview; guests cannot", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER"] as const) {
      expect(screenName(resolve(organisationOverviewPath(), role))).toBe("OrganisationOverviewPage");
    }
    expect(screenName(resolve(organisationOverviewPath(), "GUEST_MEMBER"))).toBe(`redirect:${organisationsPath()}`);
  });

  test("only owners and admins edit their own; members and guests are turned away", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) expect(screenName(resolve(organisationEditPath(), role))).toBe("OrganisationEditPage");
    expect(screenName(resolve(organisationEditPath(), "MEMBER"))).toBe("NotFoundPage");
    expect(screenName(resolve(organisationEditPath(), "GUEST_MEMBER"))).toBe(`redirect:${organisationsPath()}`);
  });

  test("the super admin works on an organisation by its id; without one, back to the list; others never name one", () => {
    expect(screenName(resolve(organisationOverviewPath("o1"), "SUPER_ADMIN"))).toBe("OrganisationOverviewPage");
    expect(screenName(resolve(organisationEditPath("o1"), "SUPER_ADMIN"))).toBe("OrganisationEditPage");
    const inside = resolve(organisationEditPath("o1"), "SUPER_ADMIN");
    expect(inside.kind === "page" && inside.organisationID).toBe("o1");
    expect(screenName(resolve(organisationOverviewPath(), "SUPER_ADMIN"))).toBe(`redirect:${organisationsPath()}`);
    expect(screenName(resolve(organisationEditPath("org-1"), "ORGANISATION_OWNER"))).toBe("NotFoundPage");
  });
});
