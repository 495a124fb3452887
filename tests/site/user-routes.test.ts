import { describe, expect, test } from "bun:test";
import { testViewer, useAdminRoutes } from "../helpers/admin-routes.ts";
import type { RoleName } from "../../api/shared/enums.ts";
import { matchScreen, userCreatePath, userEditPath, usersPath, usersRolePath } from "../../site/src/admin/paths.ts";
import { assignableRoles } from "../../site/src/admin/features/users/users-api.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** The Users screens in the console's address book and route table (spec §2 Users, §6). */
const adminRoutes = useAdminRoutes();
const viewerOf = (role: RoleName): Viewer => testViewer(role, { organisationId: role === "SUPER_ADMIN" ? null : "org-1" });
const resolve = (pathname: string, viewer: Viewer) => adminRoutes().resolveSignedInRoute({ pathname, search: "" }, viewer);
function screenName(result: ReturnType<typeof resolve>): string | undefined {
  if (result.kind !== "page") return undefined;
  const element = result.element as { type?: { name?: string }; props: { children?: { type?: { displayName?: string } } } };
  return element.props.children?.type?.displayName ?? element.type?.name;
}

describe("user paths", () => {
  test("every address of the spec, and the screens they name", () => {
    expect(usersPath()).toBe("/admin/manage/users");
    expect(usersPath("o1")).toBe("/admin/manage/organisations/users/o1");
    expect(userCreatePath()).toBe("/admin/manage/users/create");
    expect(userCreatePath("o1")).toBe("/admin/manage/organisations/users/create/o1");
    expect(userEditPath("u1")).toBe("/admin/manage/users/edit/u1");
    expect(userEditPath("u1", "o1")).toBe("/admin/manage/organisations/users/edit/o1/u1");
    expect(usersRolePath("GuestMember")).toBe("/admin/manage/users/GuestMember");
    expect(matchScreen("/admin/manage/users")).toEqual({ name: "users" });
    expect(matchScreen("/admin/manage/users/OrganisationOwner")).toEqual({ name: "users", roleType: "OrganisationOwner" });
    expect(matchScreen("/admin/manage/users/create")).toEqual({ name: "user-create" });
    expect(matchScreen("/admin/manage/users/edit/u1")).toEqual({ name: "user-edit", userID: "u1" });
    expect(matchScreen("/admin/manage/organisations/users/o1")).toEqual({ name: "users", organisationID: "o1" });
    expect(matchScreen("/admin/manage/organisations/users/create/o1")).toEqual({ name: "user-create", organisationID: "o1" });
    expect(matchScreen("/admin/manage/organisations/users/edit/o1/u1")).toEqual({ name: "user-edit", organisationID: "o1", userID: "u1" });
    expect(matchScreen("/admin/manage/users/Nobody")).toEqual({ name: "not-found" });
    expect(matchScreen("/admin/manage/users/edit/u1/extra")).toEqual({ name: "not-found" });
  });
});

describe("user routes", () => {
  test("owners and admins reach the list, create and edit; members and guests are sent away", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) {
      expect(screenName(resolve("/admin/manage/users", viewerOf(role)))).toBe("UsersPage");
      expect(screenName(resolve("/admin/manage/users/create", viewerOf(role)))).toBe("UserEditPage");
      expect(screenName(resolve("/admin/manage/users/edit/u1", viewerOf(role)))).toBe("UserEditPage");
    }
    for (const role of ["MEMBER", "GUEST_MEMBER"] as const) {
      for (const path of ["/admin/manage/users", "/admin/manage/users/create", "/admin/manage/users/edit/u1"]) expect(resolve(path, viewerOf(role)).kind).toBe("redirect");
    }
  });

  test("the lists by role and the organisation variants are the super admin's", () => {
    expect(screenName(resolve("/admin/manage/users/SuperAdmin", viewerOf("SUPER_ADMIN")))).toBe("UsersPage");
    expect(resolve("/admin/manage/users/SuperAdmin", viewerOf("ORGANISATION_OWNER"))).toEqual({ kind: "redirect", to: "/admin/manage/users" });
    expect(screenName(resolve("/admin/manage/organisations/users/o1", viewerOf("SUPER_ADMIN")))).toBe("UsersPage");
    expect(screenName(resolve("/admin/manage/organisations/users/edit/o1/u1", viewerOf("SUPER_ADMIN")))).toBe("UserEditPage");
    expect(screenName(resolve("/admin/manage/organisations/users/o1", viewerOf("ORGANISATION_OWNER")))).toBe("NotFoundPage");
  });

  test("the role list: roles below the viewer; no SuperAdmin or GuestMember on an organisation page", () => {
    const roles = (["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const).map((name, rank) => ({ id: name, name, label: name, rank }));
    expect(assignableRoles(roles, "SUPER_ADMIN", false).map((role) => role.name)).toEqual(["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"]);
    expect(assignableRoles(roles, "SUPER_ADMIN", true).map((role) => role.name)).toEqual(["ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER"]);
    expect(assignableRoles(roles, "ORGANISATION_OWNER", true).map((role) => role.name)).toEqual(["ORGANISATION_ADMIN", "MEMBER"]);
    expect(assignableRoles(roles, "ORGANISATION_ADMIN", true).map((role) => role.name)).toEqual(["MEMBER"]);
  });
});
