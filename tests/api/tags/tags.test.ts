import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissions, reportSubmissionTags, tags, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

let server: TestServer;
let owner: StaffClient, admin: StaffClient, member: StaffClient, guest: StaffClient, nwOwner: StaffClient, superAdmin: StaffClient;
const org: Record<string, string> = {};
const tag: Record<string, string> = {};

// Results are checked by shape; `any` keeps each assertion to one line.
type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const TAG = `id name isInternal archived updatedAt submissionsCount`;
const Q = {
  list: `query ($o: ID, $s: String, $f: ListFilter) { tags(organisationID: $o, search: $s, filter: $f) { total list { ${TAG} } } }`,
  get: `query ($id: ID!) { tagGet(id: $id) { ${TAG} } }`,
  create: `mutation ($o: ID, $name: String!) { tagCreate(organisationID: $o, name: $name) { ${TAG} } }`,
  update: `mutation ($id: ID!, $name: String!) { tagUpdate(id: $id, newName: $name) { ${TAG} } }`,
  archive: `mutation ($id: ID!) { tagArchive(id: $id) { ${TAG} } }`,
  unarchive: `mutation ($id: ID!) { tagUnarchive(id: $id) { ${TAG} } }`,
  assign: `mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id tags { id name } } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const names = (result: Result) => result.data?.tags.list.map((t: { name: string }) => t.name);
const audit = (objectId: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, objectId), eq(userActivities.action, action)));
const nameOf = async (id: string) => (await server.db.select().from(tags).where(eq(tags.id, id)))[0]!.name;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  [owner, admin, member, guest, nwOwner, superAdmin] = await Promise.all([
    login("owner@demo.test"), login("admin@demo.test"), login("member@demo.test"), login("guest@demo.test"), login("owner@northwind.test"), login("admin@lantern.test"),
  ]);
  for (const row of await server.db.select().from(organisations)) org[row.slug] = row.id;
  for (const row of await server.db.select().from(tags)) tag[`${row.organisationId === org.demo ? "demo" : "nw"}:${row.name}`] = row.id;
});
afterAll(() => server.stop());

describe("tags and tagGet", () => {
  test("allowed: staff list their organisation's tags with report counts; search and filter apply; a super admin names one", async () => {
    const own = await member.gql<Data>(Q.list, {});
    expect(names(own)).toEqual(["Escalated", "Finance", "People and Culture"]);
    expect(own.data?.tags.list.find((t: { name: string }) => t.name === "Escalated")).toMatchObject({ isInternal: true, archived: false });
    expect(own.data?.tags.list.find((t: { name: string }) => t.name === "Finance").submissionsCount).toBeGreaterThan(0);
    expect(names(await owner.gql<Data>(Q.list, { s: "FIN" }))).toEqual(["Finance"]);
    expect(names(await owner.gql<Data>(Q.list, { f: "Archived" }))).toEqual([]);
    expect(names(await superAdmin.gql<Data>(Q.list, { o: org.northwind }))).toEqual(["Escalated", "Safety", "Suppliers"]);
    expect((await owner.gql<Data>(Q.get, { id: tag["demo:Finance"] })).data?.tagGet.name).toBe("Finance");
  });

  test("denied: another organisation's tags are not found; guests and anonymous callers are refused", async () => {
    expect(message(await nwOwner.gql<Data>(Q.list, { o: org.demo }))).toBe("Organisation is not found");
    expect(message(await nwOwner.gql<Data>(Q.get, { id: tag["demo:Finance"] }))).toBe("Tag not found");
    expect(message(await owner.gql<Data>(Q.get, { id: "not-a-uuid" }))).toBe("Tag not found");
    expect(code(await guest.gql<Data>(Q.list, {}))).toBe("FORBIDDEN");
    expect(code(await anonymous(server).gql<Data>(Q.list, {}))).toBe("UNAUTHENTICATED");
  });
});

describe("tagCreate and tagUpdate", () => {
  test("allowed: an owner creates a trimmed tag, audited; names are unique per organisation, case-insensitively", async () => {
    const created = await owner.gql<Data>(Q.create, { name: "  Whistle  " });
    expect(created.data?.tagCreate).toMatchObject({ name: "Whistle", isInternal: false, archived: false, submissionsCount: 0 });
    const id = created.data?.tagCreate.id as string;
    expect((await audit(id, "Create"))[0]).toMatchObject({ objectType: "Tag", organisationId: org.demo, metadata: { name: "Whistle" } });
    const duplicate = await admin.gql<Data>(Q.create, { name: "FINANCE" });
    expect(message(duplicate)).toBe("A tag with this name already exists.");
    expect(code(duplicate)).toBe("CONFLICT");
    expect(message(await owner.gql<Data>(Q.create, { name: "   " }))).toBe("Required");
    expect(code(await owner.gql<Data>(Q.create, { name: "x".repeat(61) }))).toBe("BAD_USER_INPUT");
    // The same name in another organisation is a different tag.
    expect((await nwOwner.gql<Data>(Q.create, { name: "Finance" })).data?.tagCreate.name).toBe("Finance");
    expect((await superAdmin.gql<Data>(Q.create, { o: org.demo, name: "Platform" })).data?.tagCreate.name).toBe("Platform");
    expect(message(await superAdmin.gql<Data>(Q.create, { name: "Nowhere" }))).toBe("Required");
  });

  test("denied: members cannot create; another organisation cannot be named; nothing is written", async () => {
    expect(code(await member.gql<Data>(Q.create, { name: "Member tag" }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.create, { o: org.demo, name: "Sneaky" }))).toBe("Organisation is not found");
    const rows = await server.db.select().from(tags).where(eq(tags.organisationId, org.demo!));
    expect(rows.map((row) => row.name)).not.toContain("Member tag");
    expect(rows.map((row) => row.name)).not.toContain("Sneaky");
  });

  test("update renames, audited; reserved tags and duplicate names are refused; other organisations' tags are not found", async () => {
    const id = tag["demo:People and Culture"]!;
    const renamed = await admin.gql<Data>(Q.update, { id, name: "People & Culture" });
    expect(renamed.data?.tagUpdate.name).toBe("People & Culture");
    expect((await audit(id, "Update"))[0]?.metadata).toEqual({ name: "People & Culture", from: "People and Culture", to: "People & Culture" });
    expect((await admin.gql<Data>(Q.update, { id, name: "people & culture" })).data?.tagUpdate.name).toBe("people & culture");
    expect(message(await admin.gql<Data>(Q.update, { id, name: "finance" }))).toBe("A tag with this name already exists.");
    expect(message(await owner.gql<Data>(Q.update, { id: tag["demo:Escalated"], name: "Urgent" }))).toBe("Tag is reserved and cannot be edited.");
    expect(await nameOf(tag["demo:Escalated"]!)).toBe("Escalated");
    expect(message(await nwOwner.gql<Data>(Q.update, { id, name: "Hijacked" }))).toBe("Tag not found");
    expect(code(await member.gql<Data>(Q.update, { id, name: "Hijacked" }))).toBe("FORBIDDEN");
    expect(await nameOf(id)).toBe("people & culture");
  });
});

describe("tagArchive and tagUnarchive", () => {
  test("archive hides a tag from the active list and unarchive restores it; reserved tags cannot be deleted", async () => {
    const { id } = (await owner.gql<Data>(Q.create, { name: "Temporary" })).data?.tagCreate;
    expect((await owner.gql<Data>(Q.archive, { id })).data?.tagArchive.archived).toBe(true);
    expect(names(await owner.gql<Data>(Q.list, {}))).not.toContain("Temporary");
    expect(names(await owner.gql<Data>(Q.list, { f: "Archived" }))).toEqual(["Temporary"]);
    expect(names(await owner.gql<Data>(Q.list, { f: "All" }))).toContain("Temporary");
    expect(await audit(id, "Archive")).toHaveLength(1);
    expect((await owner.gql<Data>(Q.unarchive, { id })).data?.tagUnarchive.archived).toBe(false);
    expect(await audit(id, "Unarchive")).toHaveLength(1);

    expect(message(await owner.gql<Data>(Q.archive, { id: tag["demo:Escalated"] }))).toBe("Tag is reserved and cannot be deleted.");
    expect(message(await nwOwner.gql<Data>(Q.archive, { id }))).toBe("Tag not found");
    expect(code(await member.gql<Data>(Q.archive, { id }))).toBe("FORBIDDEN");
    expect(names(await owner.gql<Data>(Q.list, {}))).toContain("Temporary");
    const [row] = await server.db.select().from(tags).where(eq(tags.id, tag["demo:Escalated"]!));
    expect(row!.archived).toBe(false);
  });
});

describe("reportSubmissionAssignTags", () => {
  test("replaces the report's tags with active tags of its organisation, audited; refused for others", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const id = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID)))[0]!.id;
    const tagNames = (result: Result) => result.data?.reportSubmissionAssignTags.tags.map((t: { name: string }) => t.name);

    expect(tagNames(await owner.gql<Data>(Q.assign, { id, tags: [tag["demo:Finance"], tag["demo:Escalated"]] }))).toEqual(["Escalated", "Finance"]);
    expect((await audit(id, "AssignTags"))[0]?.metadata).toEqual({ tags: ["Escalated", "Finance"] });
    expect(tagNames(await owner.gql<Data>(Q.assign, { id, tags: [tag["demo:Escalated"]] }))).toEqual(["Escalated"]);

    expect(message(await owner.gql<Data>(Q.assign, { id, tags: [tag["nw:Safety"]] }))).toBe("Tag not found");
    expect(message(await nwOwner.gql<Data>(Q.assign, { id, tags: [tag["nw:Safety"]] }))).toBe("Report Submission is not found");
    expect(message(await member.gql<Data>(Q.assign, { id, tags: [] }))).toBe("Report Submission is not found");
    expect(code(await superAdmin.gql<Data>(Q.assign, { id, tags: [] }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.assign, { id, tags: [] }))).toBe("FORBIDDEN");
    const linked = await server.db.select().from(reportSubmissionTags).where(eq(reportSubmissionTags.submissionId, id));
    expect(linked.map((row) => row.tagId)).toEqual([tag["demo:Escalated"]!]);
    expect(await audit(id, "AssignTags")).toHaveLength(2);

    // An archived tag cannot be applied, and stays on reports (hidden) so unarchiving restores it.
    const { id: extra } = (await owner.gql<Data>(Q.create, { name: "Restorable" })).data?.tagCreate;
    await owner.gql<Data>(Q.assign, { id, tags: [extra] });
    await owner.gql<Data>(Q.archive, { id: extra });
    expect(message(await owner.gql<Data>(Q.assign, { id, tags: [extra] }))).toBe("Tag not found");
    expect(tagNames(await owner.gql<Data>(Q.assign, { id, tags: [] }))).toEqual([]);
    await owner.gql<Data>(Q.unarchive, { id: extra });
    const restored = await server.db.select().from(reportSubmissionTags).where(eq(reportSubmissionTags.submissionId, id));
    expect(restored.map((row) => row.tagId)).toEqual([extra]);
  });
});

describe("every tag change, per role", () => {
  test("allowed: admin and super admin (inside the organisation) rename, archive and unarchive; paging falls back to 20", async () => {
    for (const [actor, label] of [[admin, "Admin"], [superAdmin, "Super"]] as const) {
      const created = await (label === "Super" ? actor.gql<Data>(Q.create, { o: org.demo, name: `${label} made` }) : actor.gql<Data>(Q.create, { name: `${label} made` }));
      const id = created.data?.tagCreate.id as string;
      expect((await actor.gql<Data>(Q.update, { id, name: `${label} renamed` })).data?.tagUpdate.name).toBe(`${label} renamed`);
      expect((await actor.gql<Data>(Q.archive, { id })).data?.tagArchive.archived).toBe(true);
      expect((await actor.gql<Data>(Q.unarchive, { id })).data?.tagUnarchive.archived).toBe(false);
      expect((await actor.gql<Data>(Q.get, { id })).data?.tagGet.name).toBe(`${label} renamed`);
    }
    const paged = `query ($l: Int, $o: Int) { tags(limit: $l, offset: $o, filter: All) { total list { id } } }`;
    const all = await owner.gql<Data>(paged, { l: -5 });
    expect(all.data?.tags.list.length).toBe(Math.min(20, all.data?.tags.total));
    expect((await owner.gql<Data>(paged, { l: 1, o: 1 })).data?.tags.list).toHaveLength(1);
  });

  test("denied: guests and members change nothing; another organisation's owner finds nothing; a missing tag is 'Tag not found'", async () => {
    const id = tag["demo:Finance"]!;
    const { id: archived } = (await owner.gql<Data>(Q.create, { name: "Archived for roles" })).data?.tagCreate;
    await owner.gql<Data>(Q.archive, { id: archived });
    for (const actor of [guest, member]) {
      expect(code(await actor.gql<Data>(Q.create, { name: "Planted" }))).toBe("FORBIDDEN");
      expect(code(await actor.gql<Data>(Q.update, { id, name: "Planted" }))).toBe("FORBIDDEN");
      expect(code(await actor.gql<Data>(Q.archive, { id }))).toBe("FORBIDDEN");
      expect(code(await actor.gql<Data>(Q.unarchive, { id: archived }))).toBe("FORBIDDEN");
    }
    expect(code(await guest.gql<Data>(Q.get, { id }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.unarchive, { id: archived }))).toBe("Tag not found");
    for (const missing of [crypto.randomUUID(), "not-a-tag"]) {
      expect(message(await owner.gql<Data>(Q.get, { id: missing }))).toBe("Tag not found");
      expect(message(await superAdmin.gql<Data>(Q.update, { id: missing, name: "Nothing" }))).toBe("Tag not found");
      expect(message(await superAdmin.gql<Data>(Q.unarchive, { id: missing }))).toBe("Tag not found");
    }
    expect(await nameOf(id)).toBe("Finance");
    const [row] = await server.db.select().from(tags).where(eq(tags.id, archived));
    expect(row!.archived).toBe(true);
  });
});
