import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";

let server: TestServer;
let owner: StaffClient;
let member: StaffClient;
let superAdmin: StaffClient;
let homeUserId: string;
let otherUserId: string;
let homeId: string;
let otherId: string;

beforeAll(async () => {
  server = await startTestServer();
  homeId = (await createOrganisation(server.db)).id;
  otherId = (await createOrganisation(server.db)).id;
  const ownerUser = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: homeId });
  const memberUser = await createUser(server.db, { role: "MEMBER", organisationId: homeId });
  const superUser = await createUser(server.db, { role: "SUPER_ADMIN", organisationId: null });
  homeUserId = memberUser.id;
  otherUserId = (await createUser(server.db, { role: "MEMBER", organisationId: otherId })).id;
  owner = await loginAs(server, ownerUser.email, ownerUser.password);
  member = await loginAs(server, memberUser.email, memberUser.password);
  superAdmin = await loginAs(server, superUser.email, superUser.password);
});
afterAll(() => server.stop());

const VIEWER = `{ viewer { id email role { name label rank permissions } organisation { id } } }`;
const ROLES = `{ roles { name label rank permissions } }`;
const USERS = `query ($organisationID: ID, $limit: Int) { users(organisationID: $organisationID, limit: $limit) { total list { id organisation { id } } } }`;
const USER_GET = `query ($id: ID!) { userGet(id: $id) { id email } }`;

describe("viewer and roles", () => {
  test("viewer is the signed-in user, and null for anonymous callers", async () => {
    const result = await member.gql<{ viewer: { id: string; role: { name: string; label: string }; organisation: { id: string } } }>(VIEWER);
    expect(result.data?.viewer.id).toBe(homeUserId);
    expect(result.data?.viewer.role).toMatchObject({ name: "MEMBER", label: "Member" });
    expect(result.data?.viewer.organisation.id).toBe(homeId);
    expect((await anonymous(server).gql(VIEWER)).data).toEqual({ viewer: null });
  });

  test("roles lists the five roles with ranks and labels to staff only", async () => {
    const result = await member.gql<{ roles: { name: string; label: string; rank: number; permissions: string[] }[] }>(ROLES);
    expect(result.data?.roles.map((r) => [r.name, r.rank, r.label])).toEqual([
      ["SUPER_ADMIN", 1, "Super Admin"],
      ["ORGANISATION_OWNER", 2, "Owner"],
      ["ORGANISATION_ADMIN", 3, "Admin"],
      ["MEMBER", 4, "Member"],
      ["GUEST_MEMBER", 4, "Guest Member"],
    ]);
    expect((await anonymous(server).gql(ROLES)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("users and userGet", () => {
  test("allowed: the owner lists only their own organisation's users", async () => {
    const result = await owner.gql<{ users: { total: number; list: { organisation: { id: string } }[] } }>(USERS, {});
    expect(result.data?.users.total).toBe(2);
    expect(result.data?.users.list.every((u) => u.organisation.id === homeId)).toBe(true);
  });

  test("an invalid limit falls back to 20", async () => {
    const result = await owner.gql<{ users: { list: unknown[] } }>(USERS, { limit: -5 });
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.list.length).toBe(2);
  });

  test("denied: members cannot list users; the owner cannot name another organisation", async () => {
    expect((await member.gql(USERS, {})).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await owner.gql(USERS, { organisationID: otherId })).errors?.[0]?.message).toBe("Organisation is not found");
  });

  test("allowed: a super admin lists any organisation's users", async () => {
    const result = await superAdmin.gql<{ users: { total: number } }>(USERS, { organisationID: otherId });
    expect(result.data?.users.total).toBe(1);
  });

  test("userGet: own organisation yes, another organisation's user is not found", async () => {
    expect((await owner.gql<{ userGet: { id: string } }>(USER_GET, { id: homeUserId })).data?.userGet.id).toBe(homeUserId);
    const denied = await owner.gql(USER_GET, { id: otherUserId });
    expect(denied.errors?.[0]?.message).toBe("User is not found");
    expect(denied.data).toBeNull();
  });
});

describe("malformed ids", () => {
  test("an id that is not a uuid is simply not found, never a server fault", async () => {
    expect((await owner.gql(USER_GET, { id: "'; drop table users; --" })).errors?.[0]?.message).toBe("User is not found");
    expect((await owner.gql(USERS, { organisationID: "not-a-uuid" })).errors?.[0]?.message).toBe("Organisation is not found");
    const organisation = await owner.gql(`query ($id: ID!) { organisation(id: $id) { id } }`, { id: "42" });
    expect(organisation.errors?.[0]?.message).toBe("Organisation is not found");
  });
});
