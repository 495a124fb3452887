import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, userActivities } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";

let server: TestServer;
let home: { id: string };
let other: { id: string };
let owner: StaffClient;
let member: StaffClient;
let guest: StaffClient;
let superAdmin: StaffClient;

beforeAll(async () => {
  server = await startTestServer();
  home = await createOrganisation(server.db, { name: "Home" });
  other = await createOrganisation(server.db, { name: "Other" });
  const make = async (role: Parameters<typeof createUser>[1]["role"], organisationId: string | null) => {
    const user = await createUser(server.db, { role, organisationId });
    return loginAs(server, user.email, user.password);
  };
  owner = await make("ORGANISATION_OWNER", home.id);
  member = await make("MEMBER", home.id);
  guest = await make("GUEST_MEMBER", home.id);
  superAdmin = await make("SUPER_ADMIN", null);
});
afterAll(() => server.stop());

const ORGANISATION = `query ($id: ID!) { organisation(id: $id) { id name usage { activeUsers } } }`;
const UPDATE = `mutation ($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { id generalEnquiryLabel staleMessageIntervalNumber name } }`;

const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

describe("organisation query", () => {
  test("allowed: staff read their own organisation; a super admin reads any", async () => {
    const own = await owner.gql<{ organisation: { id: string; usage: { activeUsers: number } } }>(ORGANISATION, { id: home.id });
    expect(own.data?.organisation.id).toBe(home.id);
    expect(own.data?.organisation.usage.activeUsers).toBeGreaterThanOrEqual(3);
    expect((await member.gql(ORGANISATION, { id: home.id })).data?.organisation).toBeDefined();
    expect((await superAdmin.gql<{ organisation: { id: string } }>(ORGANISATION, { id: other.id })).data?.organisation.id).toBe(other.id);
  });

  test("denied: another organisation is not found; guests and anonymous callers are refused", async () => {
    const result = await owner.gql(ORGANISATION, { id: other.id });
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.message).toBe("Organisation is not found");
    expect(codeOf(await guest.gql(ORGANISATION, { id: home.id }))).toBe("FORBIDDEN");
    const anon = await anonymous(server).gql(ORGANISATION, { id: home.id });
    expect(codeOf(anon)).toBe("UNAUTHENTICATED");
    expect(anon.errors?.[0]?.message).toBe("You must login to view this page");
  });
});

describe("organisationUpdate", () => {
  test("allowed: the owner changes settings, and the audit entry is written with the change", async () => {
    const result = await owner.gql<{ organisationUpdate: { generalEnquiryLabel: string } }>(UPDATE, {
      id: home.id,
      input: { generalEnquiryLabel: "Ask us anything", staleMessageIntervalNumber: 3 },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.organisationUpdate.generalEnquiryLabel).toBe("Ask us anything");
    const audit = await server.db
      .select()
      .from(userActivities)
      .where(and(eq(userActivities.objectId, home.id), eq(userActivities.action, "Update")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.metadata).toMatchObject({ fields: ["staleMessageIntervalNumber", "generalEnquiryLabel"] });
  });

  test("denied: a member may not change settings, and nothing changes", async () => {
    const result = await member.gql(UPDATE, { id: home.id, input: { generalEnquiryLabel: "Hacked" } });
    expect(codeOf(result)).toBe("FORBIDDEN");
    const [row] = await server.db.select().from(organisations).where(eq(organisations.id, home.id));
    expect(row!.generalEnquiryLabel).not.toBe("Hacked");
  });

  test("denied: an owner cannot change another organisation, nor the super-admin-only name", async () => {
    const cross = await owner.gql(UPDATE, { id: other.id, input: { generalEnquiryLabel: "Hacked" } });
    expect(cross.errors?.[0]?.message).toBe("Organisation is not found");
    const [row] = await server.db.select().from(organisations).where(eq(organisations.id, other.id));
    expect(row!.generalEnquiryLabel).toBe("Ask a Question");
    expect(codeOf(await owner.gql(UPDATE, { id: home.id, input: { name: "Renamed" } }))).toBe("FORBIDDEN");
  });

  test("bad input gets the spec's message and changes nothing", async () => {
    const result = await owner.gql(UPDATE, { id: home.id, input: { staleMessageIntervalNumber: 0 } });
    expect(result.errors?.[0]?.message).toBe("Interval Number must be greater than 0");
    expect(codeOf(result)).toBe("BAD_USER_INPUT");
    const empty = await owner.gql(UPDATE, { id: home.id, input: { generalEnquiryLabel: "   " } });
    expect(empty.errors?.[0]?.message).toBe("Required");
  });

  test("allowed: a super admin renames any organisation", async () => {
    const result = await superAdmin.gql<{ organisationUpdate: { name: string } }>(UPDATE, { id: other.id, input: { name: "Other Renamed" } });
    expect(result.data?.organisationUpdate.name).toBe("Other Renamed");
  });
});
