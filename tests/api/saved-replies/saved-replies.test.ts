import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, savedReplies, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, loginAs, type StaffClient } from "../../helpers/session.ts";

/** Saved replies: owners and admins manage them, everyone who chats on reports reads them (decision 051). */

let server: TestServer;
let owner: StaffClient, admin: StaffClient, member: StaffClient, guest: StaffClient, nwOwner: StaffClient, superAdmin: StaffClient;
const org: Record<string, string> = {};

type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const REPLY = `id title body archived`;
const Q = {
  list: `query ($o: ID, $a: Boolean) { savedReplies(organisationID: $o, includeArchived: $a) { ${REPLY} } }`,
  create: `mutation ($o: ID, $input: SavedReplyInput!) { savedReplyCreate(organisationID: $o, input: $input) { ${REPLY} } }`,
  update: `mutation ($id: ID!, $input: SavedReplyInput!) { savedReplyUpdate(id: $id, input: $input) { ${REPLY} } }`,
  archive: `mutation ($id: ID!) { savedReplyArchive(id: $id) { ${REPLY} } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const titles = (result: Result) => result.data?.savedReplies?.map((reply: { title: string }) => reply.title);
const rowsOf = (organisationId: string) => server.db.select().from(savedReplies).where(eq(savedReplies.organisationId, organisationId));
const auditOf = (action: string) => server.db.select().from(userActivities).where(eq(userActivities.action, action));

async function created(client: StaffClient, title: string, body = "Thank you for your message.", o?: string): Promise<string> {
  const result = await client.gql<Data>(Q.create, { o, input: { title, body } });
  expect(result.errors).toBeUndefined();
  return result.data!.savedReplyCreate.id;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ owner, admin, member, guest, superAdmin } = await demoStaff(server));
  nwOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  for (const row of await server.db.select().from(organisations)) org[row.slug] = row.id;
});
afterAll(() => server.stop());

describe("managing saved replies", () => {
  test("allowed: owners and admins create, edit and archive, each with its audit entry; a super admin names the organisation", async () => {
    const id = await created(owner, "Welcome", "  Thank you for reaching out.  ");
    const [row] = await server.db.select().from(savedReplies).where(eq(savedReplies.id, id));
    expect(row).toMatchObject({ organisationId: org.demo, title: "Welcome", body: "Thank you for reaching out.", archived: false });
    const [entry] = (await auditOf("SavedReplyCreate")).filter((activity) => (activity.metadata as Data).saved_reply_id === id);
    expect(entry).toMatchObject({ objectType: "Organisation", objectId: org.demo, organisationId: org.demo });

    const updated = await admin.gql<Data>(Q.update, { id, input: { title: "Welcome back", body: "We have read your message." } });
    expect(updated.data?.savedReplyUpdate).toMatchObject({ title: "Welcome back", body: "We have read your message." });
    expect((await auditOf("SavedReplyUpdate")).some((activity) => (activity.metadata as Data).saved_reply_id === id)).toBe(true);

    expect((await admin.gql<Data>(Q.archive, { id })).data?.savedReplyArchive.archived).toBe(true);
    expect((await auditOf("SavedReplyArchive")).some((activity) => (activity.metadata as Data).saved_reply_id === id)).toBe(true);
    expect(titles(await member.gql<Data>(Q.list, {}))).not.toContain("Welcome back");
    expect(titles(await owner.gql<Data>(Q.list, { a: true }))).toContain("Welcome back");
    expect(message(await owner.gql<Data>(Q.archive, { id }))).toBe("Saved reply is already archived.");

    await created(superAdmin, "Platform made", "Hello", org.northwind);
    expect(titles(await nwOwner.gql<Data>(Q.list, {}))).toEqual(["Platform made"]);
    expect(message(await superAdmin.gql<Data>(Q.create, { input: { title: "Nowhere", body: "x" } }))).toBe("Required");
  });

  test("allowed: members and guests read their organisation's replies, by title", async () => {
    await created(owner, "b second");
    await created(owner, "A first");
    for (const client of [member, guest]) {
      const list = titles(await client.gql<Data>(Q.list, {}));
      expect(list.indexOf("A first")).toBeLessThan(list.indexOf("b second"));
      expect(list).not.toContain("Platform made");
    }
  });

  test("denied: members, guests and anonymous callers change nothing; another organisation's ids are not found", async () => {
    const id = await created(owner, "Keep me", "Original");
    const before = await rowsOf(org.demo!);
    for (const client of [member, guest, anonymous(server)]) {
      expect(message(await client.gql<Data>(Q.create, { input: { title: "Mine", body: "x" } }))).toBeString();
      expect(message(await client.gql<Data>(Q.update, { id, input: { title: "Changed", body: "x" } }))).toBeString();
      expect(message(await client.gql<Data>(Q.archive, { id }))).toBeString();
    }
    expect(message(await anonymous(server).gql<Data>(Q.list, {}))).toBeString();
    expect(message(await nwOwner.gql<Data>(Q.update, { id, input: { title: "Stolen", body: "x" } }))).toBe("Saved reply not found");
    expect(message(await nwOwner.gql<Data>(Q.archive, { id }))).toBe("Saved reply not found");
    expect(message(await nwOwner.gql<Data>(Q.list, { o: org.demo }))).toBe("Organisation is not found");
    expect(message(await nwOwner.gql<Data>(Q.create, { o: org.demo, input: { title: "In", body: "x" } }))).toBe("Organisation is not found");
    expect(message(await owner.gql<Data>(Q.update, { id: "not-an-id", input: { title: "x", body: "x" } }))).toBe("Saved reply not found");
    expect(await rowsOf(org.demo!)).toEqual(before);
  });

  test("hostile input is refused with a clear message and nothing is saved", async () => {
    const id = await created(owner, "Steady", "Body");
    const before = await rowsOf(org.demo!);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "Bad\u0000", body: "x" }, "Text must not contain NUL characters."],
      [{ title: "x", body: "a\u0000b" }, "Text must not contain NUL characters."],
      [{ title: "t".repeat(101), body: "x" }, "Title must be at most 100 characters."],
      [{ title: "x", body: "b".repeat(10_001) }, "Reply must be at most 10,000 characters."],
      [{ title: "x", body: "b".repeat(1_000_000) }, "Reply must be at most 10,000 characters."],
      [{ title: "   ", body: "x" }, "Required"],
      [{ title: "x", body: "" }, "Required"],
    ];
    for (const [input, expected] of cases) {
      expect(message(await owner.gql<Data>(Q.create, { input }))).toBe(expected);
      expect(message(await owner.gql<Data>(Q.update, { id, input }))).toBe(expected);
    }
    for (const input of [{ title: 5, body: "x" }, { title: "x", body: ["x"] }, { title: "x" }]) expect(message(await owner.gql<Data>(Q.create, { input }))).toBeString();
    expect(await rowsOf(org.demo!)).toEqual(before);
    expect((await server.db.select().from(userActivities).where(and(eq(userActivities.action, "SavedReplyUpdate"), eq(userActivities.organisationId, org.demo!)))).every((activity) => (activity.metadata as Data).saved_reply_id !== id)).toBe(true);
  });
});
