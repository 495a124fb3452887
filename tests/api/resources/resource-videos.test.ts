import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { resourceVideos, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

let server: TestServer;
let staff: DemoStaff;
let signedOut: StaffClient;

// Results are checked by shape; `any` keeps each assertion to one line.
type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const VIDEO = "id title description videoSrc archived createdAt updatedAt";
const Q = {
  list: `query ($s: String, $f: ListFilter) { resourceVideos(search: $s, filter: $f) { total list { ${VIDEO} } } }`,
  create: `mutation ($input: ResourceVideoInput!) { resourceVideoCreate(input: $input) { ${VIDEO} } }`,
  update: `mutation ($id: ID!, $input: ResourceVideoInput!) { resourceVideoUpdate(id: $id, input: $input) { ${VIDEO} } }`,
  archive: `mutation ($id: ID!) { resourceVideoArchive(id: $id) { ${VIDEO} } }`,
  unarchive: `mutation ($id: ID!) { resourceVideoUnarchive(id: $id) { ${VIDEO} } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const titles = (result: Result) => result.data?.resourceVideos.list.map((v: { title: string }) => v.title);
const audit = (objectId: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, objectId), eq(userActivities.action, action)));
const video = (title: string, videoSrc = "https://videos.example.com/watch?v=1") => ({ title, description: `About ${title}`, videoSrc });
const create = async (title: string) => (await staff.superAdmin.gql<Data>(Q.create, { input: video(title) })).data!.resourceVideoCreate as { id: string };
const rowCount = async () => (await server.db.select().from(resourceVideos)).length;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  staff = await demoStaff(server);
  signedOut = anonymous(server);
});
afterAll(() => server.stop());

const readers = () => ({ owner: staff.owner, admin: staff.admin, member: staff.member, guest: staff.guest });

describe("resourceVideos", () => {
  test("allowed: every signed-in role lists the active videos, newest first; search matches title and description", async () => {
    await create("Using the dashboard");
    await create("Closing a report");
    for (const client of [staff.superAdmin, ...Object.values(readers())]) {
      const result = await client.gql<Data>(Q.list, {});
      expect(titles(result)).toEqual(["Closing a report", "Using the dashboard"]);
      expect(result.data?.resourceVideos.total).toBe(2);
    }
    expect(titles(await staff.member.gql<Data>(Q.list, { s: "about closing" }))).toEqual(["Closing a report"]);
    expect(titles(await staff.member.gql<Data>(Q.list, { s: "DASHBOARD" }))).toEqual(["Using the dashboard"]);
  });

  test("denied: signed-out callers; readers may not ask for archived videos", async () => {
    expect(code(await signedOut.gql<Data>(Q.list, {}))).toBe("UNAUTHENTICATED");
    for (const client of Object.values(readers())) {
      expect(code(await client.gql<Data>(Q.list, { f: "Archived" }))).toBe("FORBIDDEN");
      expect(code(await client.gql<Data>(Q.list, { f: "All" }))).toBe("FORBIDDEN");
    }
  });
});

describe("resourceVideoCreate", () => {
  test("allowed: a super admin adds a video, trimmed and audited in the platform log", async () => {
    const result = await staff.superAdmin.gql<Data>(Q.create, { input: { title: "  Welcome  ", description: " Start here ", videoSrc: " https://Videos.Example.com/intro " } });
    expect(result.data?.resourceVideoCreate).toMatchObject({ title: "Welcome", description: "Start here", videoSrc: "https://videos.example.com/intro", archived: false });
    const [entry] = await audit(result.data!.resourceVideoCreate.id, "ResourceVideoCreate");
    expect(entry).toMatchObject({ objectType: "Blob", organisationId: null, metadata: { name: "Welcome" } });
  });

  test("denied: owners, admins, members, guests and signed-out callers; nothing is written", async () => {
    const before = await rowCount();
    for (const client of Object.values(readers())) expect(code(await client.gql<Data>(Q.create, { input: video("Sneaky") }))).toBe("FORBIDDEN");
    expect(code(await signedOut.gql<Data>(Q.create, { input: video("Sneaky") }))).toBe("UNAUTHENTICATED");
    expect(await rowCount()).toBe(before);
  });

  test("hostile: only http and https addresses; blanks are 'Required'; NUL and overlong text are refused", async () => {
    const before = await rowCount();
    for (const videoSrc of ["javascript:alert(1)", "JaVaScRiPt:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "file:///etc/passwd", "ftp://example.com/v.mp4", "//example.com/v", "not a url", "https://"]) {
      const result = await staff.superAdmin.gql<Data>(Q.create, { input: video("Bad link", videoSrc) });
      expect(message(result)).toBe("Video URL must be a web address starting with http:// or https://");
      expect(code(result)).toBe("BAD_USER_INPUT");
    }
    for (const field of ["title", "description", "videoSrc"]) {
      expect(message(await staff.superAdmin.gql<Data>(Q.create, { input: { ...video("Blank"), [field]: "   " } }))).toBe("Required");
    }
    expect(message(await staff.superAdmin.gql<Data>(Q.create, { input: video("Nul\u0000title") }))).toBe("Text must not contain NUL characters.");
    expect(message(await staff.superAdmin.gql<Data>(Q.create, { input: { ...video("Long"), description: "x".repeat(1_000_000) } }))).toBe("Description must be at most 5,000 characters.");
    expect(message(await staff.superAdmin.gql<Data>(Q.create, { input: video("Long", `https://example.com/${"a".repeat(2000)}`) }))).toBe("Video URL must be at most 2,000 characters.");
    expect(await rowCount()).toBe(before);
  });
});

describe("resourceVideoUpdate", () => {
  test("allowed: a super admin edits a video, audited", async () => {
    const { id } = await create("Old title");
    const result = await staff.superAdmin.gql<Data>(Q.update, { id, input: video("New title", "http://example.org/new") });
    expect(result.data?.resourceVideoUpdate).toMatchObject({ id, title: "New title", videoSrc: "http://example.org/new" });
    expect(await audit(id, "ResourceVideoUpdate")).toHaveLength(1);
  });

  test("denied: other roles and signed-out callers; unknown ids are not found; a javascript: link never replaces a good one", async () => {
    const { id } = await create("Keep me");
    for (const client of Object.values(readers())) expect(code(await client.gql<Data>(Q.update, { id, input: video("Hijacked") }))).toBe("FORBIDDEN");
    expect(code(await signedOut.gql<Data>(Q.update, { id, input: video("Hijacked") }))).toBe("UNAUTHENTICATED");
    expect(message(await staff.superAdmin.gql<Data>(Q.update, { id: "not-a-uuid", input: video("Nowhere") }))).toBe("Resource not found");
    expect(message(await staff.superAdmin.gql<Data>(Q.update, { id: crypto.randomUUID(), input: video("Nowhere") }))).toBe("Resource not found");
    expect(code(await staff.superAdmin.gql<Data>(Q.update, { id, input: video("Keep me", "javascript:alert(1)") }))).toBe("BAD_USER_INPUT");
    const [row] = await server.db.select().from(resourceVideos).where(eq(resourceVideos.id, id));
    expect(row).toMatchObject({ title: "Keep me", videoSrc: "https://videos.example.com/watch?v=1" });
  });
});

describe("resourceVideoArchive and resourceVideoUnarchive", () => {
  test("allowed: archiving hides a video from readers and shows it under Archived; unarchiving restores it, each audited", async () => {
    const { id } = await create("Seasonal");
    expect((await staff.superAdmin.gql<Data>(Q.archive, { id })).data?.resourceVideoArchive.archived).toBe(true);
    expect(titles(await staff.member.gql<Data>(Q.list, {}))).not.toContain("Seasonal");
    expect(titles(await staff.superAdmin.gql<Data>(Q.list, {}))).not.toContain("Seasonal");
    expect(titles(await staff.superAdmin.gql<Data>(Q.list, { f: "Archived" }))).toEqual(["Seasonal"]);
    expect(titles(await staff.superAdmin.gql<Data>(Q.list, { f: "All" }))).toContain("Seasonal");
    expect(message(await staff.superAdmin.gql<Data>(Q.archive, { id }))).toBe("Video is already archived.");
    expect((await audit(id, "ResourceVideoArchive"))[0]?.metadata).toEqual({ name: "Seasonal", archived: true });
    expect((await staff.superAdmin.gql<Data>(Q.unarchive, { id })).data?.resourceVideoUnarchive.archived).toBe(false);
    expect(titles(await staff.guest.gql<Data>(Q.list, {}))).toContain("Seasonal");
    expect(await audit(id, "ResourceVideoUnarchive")).toHaveLength(1);
  });

  test("denied: other roles and signed-out callers change nothing", async () => {
    const { id } = await create("Stays active");
    for (const client of [...Object.values(readers()), signedOut]) {
      expect(code(await client.gql<Data>(Q.archive, { id }))).toBe(client === signedOut ? "UNAUTHENTICATED" : "FORBIDDEN");
    }
    await staff.superAdmin.gql<Data>(Q.archive, { id });
    for (const client of [...Object.values(readers()), signedOut]) {
      expect(code(await client.gql<Data>(Q.unarchive, { id }))).toBe(client === signedOut ? "UNAUTHENTICATED" : "FORBIDDEN");
    }
    const [row] = await server.db.select().from(resourceVideos).where(eq(resourceVideos.id, id));
    expect(row!.archived).toBe(true);
    expect(message(await staff.superAdmin.gql<Data>(Q.archive, { id: "x" }))).toBe("Resource not found");
  });
});
