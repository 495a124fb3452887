import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, userActivities } from "../../../db/schema/index.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

/** The organisation's form language: the language its forms are written in, which translations start from. */
let server: TestServer;
let home: { id: string };
let other: { id: string };
const as = {} as Record<"owner" | "admin" | "member" | "superAdmin", StaffClient>;

beforeAll(async () => {
  server = await startTestServer();
  home = await createOrganisation(server.db, { name: "Language Home" });
  other = await createOrganisation(server.db, { name: "Language Other" });
  const make = async (role: Parameters<typeof createUser>[1]["role"], organisationId: string | null) => {
    const user = await createUser(server.db, { role, organisationId });
    return loginAs(server, user.email, user.password);
  };
  as.owner = await make("ORGANISATION_OWNER", home.id);
  as.admin = await make("ORGANISATION_ADMIN", home.id);
  as.member = await make("MEMBER", home.id);
  as.superAdmin = await make("SUPER_ADMIN", null);
}, 60_000);
afterAll(() => server.stop());

type Result = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
const UPDATE = `mutation ($id: ID!, $l: String) { organisationUpdate(id: $id, input: { formLanguage: $l }) { id formLanguage } }`;
const DETAIL = `query ($id: ID!) { organisation(id: $id) { formLanguage } }`;
const stored = async (id: string) => (await server.db.select({ l: organisations.formLanguage }).from(organisations).where(eq(organisations.id, id)))[0]!.l;

test("an organisation writes its forms in English until someone says otherwise", async () => {
  const answer = await as.member.gql<any>(DETAIL, { id: home.id });
  expect(answer.data?.organisation.formLanguage).toBe("en");
});

test("allowed: an admin changes the form language, recorded in the audit log with the field's name", async () => {
  const answer = (await as.admin.gql<any>(UPDATE, { id: home.id, l: "de" })) as Result;
  expect(answer.errors).toBeUndefined();
  expect(answer.data?.organisationUpdate.formLanguage).toBe("de");
  expect(await stored(home.id)).toBe("de");
  const [entry] = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, home.id), eq(userActivities.action, "Update")));
  expect((entry!.metadata as { fields: string[] }).fields).toContain("formLanguage");
  const owner = (await as.owner.gql<any>(UPDATE, { id: home.id, l: " zh-Hans " })) as Result;
  expect(owner.data?.organisationUpdate.formLanguage).toBe("zh-Hans");
  const superAdmin = (await as.superAdmin.gql<any>(UPDATE, { id: other.id, l: "fr" })) as Result;
  expect(superAdmin.data?.organisationUpdate.formLanguage).toBe("fr");
});

test("denied: a member may not change it, nor an owner another organisation's", async () => {
  const before = await stored(home.id);
  const member = (await as.member.gql<any>(UPDATE, { id: home.id, l: "es" })) as Result;
  expect(member.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  const elsewhere = (await as.owner.gql<any>(UPDATE, { id: other.id, l: "es" })) as Result;
  expect(elsewhere.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  expect(await stored(home.id)).toBe(before);
  expect(await stored(other.id)).toBe("fr");
});

test("hostile: anything but a language code is refused with a clear message and nothing changes", async () => {
  const before = await stored(home.id);
  for (const bad of ["", "english please", "d", "de_DE", "<script>", "de\u0000", `en-${"x".repeat(40)}`, "x".repeat(1_000_000)]) {
    const answer = (await as.owner.gql<any>(UPDATE, { id: home.id, l: bad })) as Result;
    expect(answer.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(answer.errors?.[0]?.message).toMatch(/language code|NUL|not allowed|at most/i);
  }
  expect(await stored(home.id)).toBe(before);
});
