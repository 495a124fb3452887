import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { userActivities } from "../../../db/schema/index.ts";
import type { RoleName } from "../../../api/shared/enums.ts";
import { outranks } from "../../../api/shared/roles.ts";
import { ACTOR_ROLES, codeOf, messageOf, USER_DELETE, USER_SUSPEND, USER_UNSUSPEND, USER_UPDATE, usersWorld } from "./users-fixture.ts";

/**
 * Spec §6: acting on a user needs a role that outranks theirs, and (but for a super admin) the same
 * organisation. Every operation, every acting role, every kind of target: allowed exactly then.
 */
const world = usersWorld();

type Target = { label: string; role: RoleName; organisation: "home" | "other" | "none" };
const TARGETS: Target[] = [
  { label: "a super admin", role: "SUPER_ADMIN", organisation: "none" },
  { label: "an owner", role: "ORGANISATION_OWNER", organisation: "home" },
  { label: "an admin", role: "ORGANISATION_ADMIN", organisation: "home" },
  { label: "a member", role: "MEMBER", organisation: "home" },
  { label: "a guest member", role: "GUEST_MEMBER", organisation: "home" },
  { label: "another organisation's member", role: "MEMBER", organisation: "other" },
];

/** What the rules say: allowed, or the error code the actor gets. */
function expected(actor: RoleName, target: Target): "allowed" | "FORBIDDEN" | "NOT_FOUND" {
  if (actor === "MEMBER" || actor === "GUEST_MEMBER") return "FORBIDDEN";
  if (actor !== "SUPER_ADMIN" && target.organisation !== "home") return "NOT_FOUND";
  return outranks(actor, target.role) ? "allowed" : "FORBIDDEN";
}

const organisationOf = (target: Target) => (target.organisation === "none" ? null : target.organisation === "home" ? world.homeId : world.otherId);
const outcome = (answer: { errors?: { extensions?: { code?: string } }[] }) => (answer.errors ? codeOf(answer) : "allowed");
const auditCount = async (objectId: string) => (await world.server.db.select({ n: count() }).from(userActivities).where(and(eq(userActivities.objectType, "User"), eq(userActivities.objectId, objectId))))[0]!.n;

describe("who may act on whom", () => {
  for (const actor of ACTOR_ROLES) {
    for (const target of TARGETS) {
      test(`${actor} on ${target.label}: ${expected(actor, target)}`, async () => {
        const want = expected(actor, target);
        const client = world.as[actor];

        const victim = await world.target(target.role, organisationOf(target));
        const suspended = await client.gql(USER_SUSPEND, { id: victim.id });
        expect(outcome(suspended)).toBe(want);
        expect((await world.userRow(victim.id))!.suspended).toBe(want === "allowed");
        if (want === "allowed") {
          expect(outcome(await client.gql(USER_UNSUSPEND, { id: victim.id }))).toBe("allowed");
          expect((await world.userRow(victim.id))!.suspended).toBe(false);
        } else {
          // A refused unsuspension of someone suspended by a super admin.
          await world.as.SUPER_ADMIN.gql(USER_SUSPEND, { id: victim.id });
          if (target.role !== "SUPER_ADMIN") expect(outcome(await client.gql(USER_UNSUSPEND, { id: victim.id }))).toBe(want);
        }

        const edited = await world.target(target.role, organisationOf(target));
        const update = await client.gql(USER_UPDATE, { id: edited.id, input: { firstName: "Renamed" } });
        expect(outcome(update)).toBe(want);
        expect((await world.userRow(edited.id))!.firstName).toBe(want === "allowed" ? "Renamed" : "Test");

        const doomed = await world.target(target.role, organisationOf(target));
        expect(outcome(await client.gql(USER_DELETE, { id: doomed.id }))).toBe(want);
        expect(Boolean(await world.userRow(doomed.id))).toBe(want !== "allowed");
        // The audit entry exists exactly when the change does.
        expect(await auditCount(doomed.id)).toBe(want === "allowed" ? 1 : 0);
      });
    }
  }
});

describe("one's own account", () => {
  test("nobody suspends or deletes themselves; one's own role cannot change, one's own name can", async () => {
    for (const actor of ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) {
      const client = world.as[actor];
      expect(codeOf(await client.gql(USER_SUSPEND, { id: client.userId }))).toBe("FORBIDDEN");
      expect(codeOf(await client.gql(USER_DELETE, { id: client.userId }))).toBe("FORBIDDEN");
      const role = await client.gql(USER_UPDATE, { id: client.userId, input: { roleID: world.roleIds.MEMBER } });
      expect(messageOf(role)).toBe("You cannot change your own role.");
      const renamed = await client.gql<{ userUpdate: { firstName: string; role: { name: string } } }>(USER_UPDATE, { id: client.userId, input: { firstName: "Me", roleID: world.roleIds[actor] } });
      expect(renamed.errors).toBeUndefined();
      expect(renamed.data?.userUpdate).toMatchObject({ firstName: "Me", role: { name: actor } });
    }
  });
});

describe("role changes", () => {
  test("only to roles below the actor; nobody is made a super admin by an edit", async () => {
    const member = await world.target("MEMBER");
    const owner = world.as.ORGANISATION_OWNER;
    const admin = world.as.ORGANISATION_ADMIN;
    expect(codeOf(await admin.gql(USER_UPDATE, { id: member.id, input: { roleID: world.roleIds.ORGANISATION_ADMIN } }))).toBe("FORBIDDEN");
    expect(codeOf(await owner.gql(USER_UPDATE, { id: member.id, input: { roleID: world.roleIds.ORGANISATION_OWNER } }))).toBe("FORBIDDEN");
    expect(codeOf(await world.as.SUPER_ADMIN.gql(USER_UPDATE, { id: member.id, input: { roleID: world.roleIds.SUPER_ADMIN } }))).toBe("FORBIDDEN");
    const promoted = await owner.gql<{ userUpdate: { role: { name: string } } }>(USER_UPDATE, { id: member.id, input: { roleID: world.roleIds.ORGANISATION_ADMIN } });
    expect(promoted.data?.userUpdate.role.name).toBe("ORGANISATION_ADMIN");
    // Now the admin's equal: the admin can no longer touch them.
    expect(codeOf(await admin.gql(USER_UPDATE, { id: member.id, input: { firstName: "Nope" } }))).toBe("FORBIDDEN");
    expect(messageOf(await owner.gql(USER_UPDATE, { id: member.id, input: { roleID: "not-a-role" } }))).toBe("Role is not found");
  });
});
