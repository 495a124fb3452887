import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { blobs, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { blobStoreState } from "../../fixtures/attachments.ts";
import * as files from "../../fixtures/files.ts";
import { createUser } from "../../factories/users.ts";

let server: TestServer;
let demoId: string;
let northwindOwner: StaffClient;
let demoOwner: StaffClient;

const CHANGE_AVATAR = `mutation ($file: File!) { changeAvatar(file: $file) { id avatar { id fileURL } } }`;
const CHANGE_DETAILS = `mutation ($input: ChangeDetailsInput!) { changeDetails(input: $input) { id avatar { id fileURL } } }`;

type Avatar = { id: string; fileURL: string } | null;
type Answer = { status: number; data?: { changeAvatar: { id: string; avatar: Avatar } } | null; errors?: { message: string; extensions?: { code?: string } }[] };

/** The console's upload: a GraphQL multipart request with the picture under "0". */
async function upload(client: { fetch(path: string, init?: RequestInit): Promise<Response> }, name: string, data: Uint8Array<ArrayBuffer> | string): Promise<Answer> {
  const body = new FormData();
  body.append("operations", JSON.stringify({ query: CHANGE_AVATAR, variables: { file: null } }));
  body.append("map", JSON.stringify({ 0: ["variables.file"] }));
  body.append("0", new Blob([data], { type: "image/png" }), name);
  const response = await client.fetch("/api/gql/query", { method: "POST", body });
  return { status: response.status, ...((await response.json()) as Omit<Answer, "status">) };
}

async function freshMember() {
  const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId });
  return { user, client: await loginAs(server, user.email, user.password) };
}

const avatarOf = async (id: string) => (await server.db.select({ avatarBlobId: users.avatarBlobId }).from(users).where(eq(users.id, id)))[0]!.avatarBlobId;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ demoId } = await demoOrganisationIds(server));
  northwindOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  demoOwner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
});
afterAll(() => server.stop());

describe("changeAvatar", () => {
  test("a photo is stored without its EXIF and GPS, under a neutral name, and audited as Self", async () => {
    const { user, client } = await freshMember();
    const answer = await upload(client, "IMG_2041 Jane at home.jpg", files.jpegWithMetadata());
    expect(answer.errors).toBeUndefined();
    const avatar = answer.data!.changeAvatar.avatar!;
    expect(avatar.fileURL).toBe(`/api/files/avatars/${avatar.id}`);
    const [row] = await server.db.select().from(blobs).where(eq(blobs.id, avatar.id));
    expect(row).toMatchObject({ purpose: "Avatar", organisationId: demoId, fileName: "avatar.jpg", mimeType: "image/jpeg" });
    const stored = await server.lantern.services.blobs.get(row!.storageKey);
    expect(stored).toEqual(files.plainJpeg());
    const [entry] = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, user.id), eq(userActivities.action, "ChangeAvatar")));
    expect(entry).toMatchObject({ userId: user.id, objectType: "Self", organisationId: demoId });
    expect(JSON.stringify(entry)).not.toContain("Jane");
  });

  test("the picture is shown to the user and their organisation, and to nobody else", async () => {
    const { client } = await freshMember();
    const { fileURL } = (await upload(client, "me.png", files.pngWithText())).data!.changeAvatar.avatar!;
    for (const reader of [client, demoOwner]) {
      const response = await reader.fetch(fileURL);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(files.containsText(new Uint8Array(await response.arrayBuffer()), "Jane Reporter")).toBe(false);
    }
    expect((await northwindOwner.fetch(fileURL)).status).toBe(404);
    expect((await anonymous(server).fetch(fileURL)).status).toBe(404);
    expect((await client.fetch("/api/files/avatars/not-a-uuid")).status).toBe(404);
  });

  test("a new picture replaces the old one: the old file and its address are gone", async () => {
    const { user, client } = await freshMember();
    const first = (await upload(client, "a.png", files.pngWithText())).data!.changeAvatar.avatar!;
    const second = (await upload(client, "b.jpg", files.plainJpeg())).data!.changeAvatar.avatar!;
    expect(second.id).not.toBe(first.id);
    expect(await avatarOf(user.id)).toBe(second.id);
    expect(await server.db.select().from(blobs).where(eq(blobs.id, first.id))).toEqual([]);
    expect((await client.fetch(first.fileURL)).status).toBe(404);
    const state = await blobStoreState(server);
    expect(state.files).toBe(state.rows);
  });

  test("refused: other image types, renamed files, empty and oversized files; nothing is stored", async () => {
    const { user, client } = await freshMember();
    const before = await blobStoreState(server);
    const cases: [string, Uint8Array<ArrayBuffer> | string, string][] = [
      ["animation.gif", files.gifWithComment(), "Invalid file"],
      ["drawing.svg", '<svg xmlns="http://www.w3.org/2000/svg"/>', "Invalid file"],
      ["notes.png", "just some text", "Invalid file"],
      ["photo.png", files.plainJpeg(), "Invalid file"],
      ["empty.jpg", new Uint8Array(0), "Invalid file"],
      ["no-extension", files.plainJpeg(), "Invalid file"],
      ["huge.png", new Uint8Array(10_000_001), "File size too large"],
    ];
    for (const [name, data, message] of cases) {
      const answer = await upload(client, name, data);
      expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT" } });
    }
    expect(await avatarOf(user.id)).toBeNull();
    expect(await blobStoreState(server)).toEqual(before);
  });

  test("denied: no staff session, or a reporter's session, cannot upload", async () => {
    expect((await upload(anonymous(server), "a.png", files.pngWithText())).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const reporter = new ReporterClient(server, "demo.localhost");
    const form = await server.db.query.reportForms.findFirst({ where: { organisationId: demoId, type: "Custom", status: "Active" } });
    await reporter.post("/api/auth/report_start", { reportFormID: form!.id });
    const answer = await upload(reporter, "a.png", files.pngWithText());
    expect(answer.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("changeDetails avatarBlobID", () => {
  test("'-' removes the picture and its file; the current id keeps it", async () => {
    const { user, client } = await freshMember();
    const avatar = (await upload(client, "a.png", files.pngWithText())).data!.changeAvatar.avatar!;
    const kept = await client.gql<{ changeDetails: { avatar: Avatar } }>(CHANGE_DETAILS, { input: { avatarBlobID: avatar.id } });
    expect(kept.data?.changeDetails.avatar?.id).toBe(avatar.id);
    const removed = await client.gql<{ changeDetails: { avatar: Avatar } }>(CHANGE_DETAILS, { input: { avatarBlobID: "-" } });
    expect(removed.data?.changeDetails.avatar).toBeNull();
    expect(await avatarOf(user.id)).toBeNull();
    expect(await server.db.select().from(blobs).where(eq(blobs.id, avatar.id))).toEqual([]);
    const state = await blobStoreState(server);
    expect(state.files).toBe(state.rows);
  });

  test("denied: naming another user's picture (another organisation's) is refused and changes nothing", async () => {
    const other = await createUser(server.db, { role: "MEMBER", organisationId: (await demoOrganisationIds(server)).northwindId });
    const otherClient = await loginAs(server, other.email, other.password);
    const theirs = (await upload(otherClient, "theirs.png", files.pngWithText())).data!.changeAvatar.avatar!;
    const { user, client } = await freshMember();
    const answer = await client.gql(CHANGE_DETAILS, { input: { avatarBlobID: theirs.id } });
    expect(answer.errors?.[0]?.message).toBe("Invalid file");
    expect(await avatarOf(user.id)).toBeNull();
    expect(await avatarOf(other.id)).toBe(theirs.id);
    expect((await client.fetch(theirs.fileURL)).status).toBe(404);
  });
});
