import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { blobs, resourceDocuments, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import * as files from "../../fixtures/files.ts";
import { blobStoreState } from "../../fixtures/attachments.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { PdfBuilder, pdfWithCanary } from "../files/clean-fixtures.ts";

let server: TestServer;
let staff: DemoStaff;
let signedOut: StaffClient;

type Data = Record<string, any>;
type Answer = { status: number; data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[]; error?: string };
const DOCUMENT = "id title description archived createdAt updatedAt blob { id fileURL fileName fileSizeBytes }";
const Q = {
  list: `query ($s: String, $f: ListFilter) { resourceDocuments(search: $s, filter: $f) { total list { ${DOCUMENT} } } }`,
  create: `mutation ($input: ResourceDocumentInput!) { resourceDocumentCreate(input: $input) { ${DOCUMENT} } }`,
  update: `mutation ($id: ID!, $input: ResourceDocumentInput!) { resourceDocumentUpdate(id: $id, input: $input) { ${DOCUMENT} } }`,
  archive: `mutation ($id: ID!) { resourceDocumentArchive(id: $id) { ${DOCUMENT} } }`,
  unarchive: `mutation ($id: ID!) { resourceDocumentUnarchive(id: $id) { ${DOCUMENT} } }`,
};
const message = (result: Answer) => result.errors?.[0]?.message ?? result.error;
const code = (result: Answer) => result.errors?.[0]?.extensions?.code;
const audit = (objectId: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, objectId), eq(userActivities.action, action)));
const rowCount = async () => (await server.db.select().from(resourceDocuments)).length;

type Upload = { name: string; data: Uint8Array<ArrayBuffer> | string };

/** The console's call: a GraphQL multipart request with the file under "0", or a plain JSON request without one. */
async function send(client: StaffClient, query: string, variables: Record<string, unknown>, file?: Upload): Promise<Answer> {
  if (!file) return { status: 200, ...((await client.gql(query, variables)) as Omit<Answer, "status">) };
  const body = new FormData();
  body.append("operations", JSON.stringify({ query, variables: { ...variables, input: { ...(variables.input as object), file: null } } }));
  body.append("map", JSON.stringify({ 0: ["variables.input.file"] }));
  body.append("0", new Blob([file.data], { type: "application/pdf" }), file.name);
  const response = await client.fetch("/api/gql/query", { method: "POST", body });
  return { status: response.status, ...((await response.json()) as Omit<Answer, "status">) };
}

const input = (title: string) => ({ title, description: `About ${title}` });
const pdf: Upload = { name: "Handbook.pdf", data: files.minimalPdf() };
async function createDocument(title: string, file: Upload = pdf) {
  const answer = await send(staff.superAdmin, Q.create, { input: input(title) }, file);
  expect(answer.errors).toBeUndefined();
  return answer.data!.resourceDocumentCreate as { id: string; blob: { id: string; fileURL: string; fileName: string; fileSizeBytes: number } };
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  staff = await demoStaff(server);
  signedOut = anonymous(server);
});
afterAll(() => server.stop());

const readers = () => [staff.owner, staff.admin, staff.member, staff.guest];

describe("resourceDocumentCreate and the download", () => {
  test("allowed: a super admin uploads a document, audited as a Blob of the platform; every signed-in user downloads it byte for byte", async () => {
    const document = await createDocument("Staff handbook");
    expect(document.blob).toMatchObject({ fileName: "Handbook.pdf", fileSizeBytes: files.minimalPdf().length, fileURL: `/api/files/resource-documents/${document.id}` });
    const [blob] = await server.db.select().from(blobs).where(eq(blobs.id, document.blob.id));
    expect(blob).toMatchObject({ purpose: "ResourceDocument", organisationId: null, mimeType: "application/pdf" });
    expect((await audit(document.id, "ResourceDocumentCreate"))[0]).toMatchObject({ objectType: "Blob", organisationId: null, metadata: { name: "Staff handbook" } });
    for (const client of [staff.superAdmin, ...readers()]) {
      const response = await client.fetch(document.blob.fileURL);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''Handbook.pdf");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(files.minimalPdf());
    }
    const listed = await staff.guest.gql<Data>(Q.list, { s: "handbook" });
    expect(listed.data?.resourceDocuments.list.map((d: { title: string }) => d.title)).toEqual(["Staff handbook"]);
  });

  test("allowed: a photo is stored and served without its metadata", async () => {
    const document = await createDocument("Office map", { name: "map.jpg", data: files.jpegWithMetadata() });
    const response = await staff.member.fetch(document.blob.fileURL);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(files.plainJpeg());
  });

  test("a PDF whose details cannot be removed (encrypted) is stored as uploaded and marked so", async () => {
    const encrypted = new PdfBuilder()
      .object(1, "<< /Type /Catalog >>")
      .object(2, "<< /Author (Someone) >>")
      .object(3, "<< /Filter /Standard /V 2 /R 3 /O <00> /U <00> /P -4 >>")
      .revision("/Root 1 0 R /Info 2 0 R /Encrypt 3 0 R")
      .bytes();
    const cleanable = await createDocument("Clean one", { name: "clean.pdf", data: pdfWithCanary() });
    const kept = await createDocument("Locked one", { name: "locked.pdf", data: encrypted });
    const flags = await server.db.select({ id: blobs.id, metadataRemoved: blobs.metadataRemoved }).from(blobs).where(inArray(blobs.id, [cleanable.blob.id, kept.blob.id]));
    expect(Object.fromEntries(flags.map((row) => [row.id, row.metadataRemoved]))).toEqual({ [cleanable.blob.id]: true, [kept.blob.id]: false });
  });

  test("denied: signed-out callers and reporters cannot download; unknown ids are not found", async () => {
    const document = await createDocument("Private to staff");
    expect((await signedOut.fetch(document.blob.fileURL)).status).toBe(404);
    expect((await signedOut.fetch(document.blob.fileURL, { host: "demo.localhost" })).status).toBe(404);
    expect((await staff.member.fetch("/api/files/resource-documents/not-a-uuid")).status).toBe(404);
    expect((await staff.member.fetch(`/api/files/resource-documents/${crypto.randomUUID()}`)).status).toBe(404);
  });

  test("denied: other roles and signed-out callers cannot upload; nothing is stored", async () => {
    const before = { rows: await rowCount(), store: await blobStoreState(server) };
    for (const client of readers()) expect(code(await send(client, Q.create, { input: input("Sneaky") }, pdf))).toBe("FORBIDDEN");
    expect(code(await send(signedOut, Q.create, { input: input("Sneaky") }, pdf))).toBe("UNAUTHENTICATED");
    expect({ rows: await rowCount(), store: await blobStoreState(server) }).toEqual(before);
  });

  test("hostile: a disguised file, a type not on the list, an empty or missing file, NUL text and a file over 25,000,000 bytes change nothing", async () => {
    const before = { rows: await rowCount(), store: await blobStoreState(server) };
    const refusals: [Upload | undefined, string][] = [
      [{ name: "report.pdf", data: files.plainJpeg() }, "The file's content does not match its type."],
      [{ name: "sheet.xlsx", data: files.minimalDocx() }, "The file's content does not match its type."],
      [{ name: "notes.txt", data: files.bytes([0x4d, 0x5a, 0x90, 0x00, 0x03]) }, "The file's content does not match its type."],
      [{ name: "setup.exe", data: files.minimalPdf() }, "Files of this type cannot be uploaded. Allowed types: .doc, .docx, .xls, .xlsx, .ppt, .pptx, .pdf, .png, .jpg, .jpeg, .gif, .txt."],
      [{ name: "page.html", data: "<script>alert(1)</script>" }, "Files of this type cannot be uploaded. Allowed types: .doc, .docx, .xls, .xlsx, .ppt, .pptx, .pdf, .png, .jpg, .jpeg, .gif, .txt."],
      [{ name: "empty.pdf", data: new Uint8Array(0) }, "This file is empty."],
      [{ name: "huge.pdf", data: files.bytes(files.minimalPdf(), new Uint8Array(25_000_001 - files.minimalPdf().length)) }, "This file is too large: a document can be at most 25,000,000 bytes."],
      [undefined, "Required"],
    ];
    for (const [file, expected] of refusals) expect(message(await send(staff.superAdmin, Q.create, { input: input("Refused") }, file))).toBe(expected);
    expect(message(await send(staff.superAdmin, Q.create, { input: input("Nul\u0000") }, pdf))).toBe("Text must not contain NUL characters.");
    expect(message(await send(staff.superAdmin, Q.create, { input: { ...input("Blank"), description: " " } }, pdf))).toBe("Required");
    expect({ rows: await rowCount(), store: await blobStoreState(server) }).toEqual(before);
  });

  test("a 25,000,000-byte document fits the console's upload limit; other staff keep the smaller one", async () => {
    const big = { name: "big.txt", data: new Uint8Array(25_000_000).fill(0x61) };
    const document = await createDocument("Largest allowed", big);
    expect(document.blob.fileSizeBytes).toBe(25_000_000);
    const answer = await send(staff.owner, Q.create, { input: input("Too big for owners") }, big);
    expect(answer.status).toBe(413);
    expect(message(answer)).toBe("413 Request Entity Too Large");
  });
});

describe("resourceDocumentUpdate", () => {
  test("allowed: editing without a file keeps it; a new file replaces it and the old bytes go", async () => {
    const document = await createDocument("Policy");
    const kept = await send(staff.superAdmin, Q.update, { id: document.id, input: input("Policy 2026") });
    expect(kept.data?.resourceDocumentUpdate).toMatchObject({ title: "Policy 2026", blob: { id: document.blob.id, fileName: "Handbook.pdf" } });
    const replaced = await send(staff.superAdmin, Q.update, { id: document.id, input: input("Policy 2027") }, { name: "policy.docx", data: files.minimalDocx() });
    expect(replaced.data?.resourceDocumentUpdate).toMatchObject({ title: "Policy 2027", blob: { fileName: "policy.docx" } });
    expect(await server.db.select().from(blobs).where(eq(blobs.id, document.blob.id))).toEqual([]);
    const response = await staff.member.fetch(document.blob.fileURL);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(files.minimalDocx());
    expect(await audit(document.id, "ResourceDocumentUpdate")).toHaveLength(2);
  });

  test("denied: other roles, unknown ids and a bad file change nothing", async () => {
    const document = await createDocument("Fixed");
    const before = await blobStoreState(server);
    for (const client of readers()) expect(code(await send(client, Q.update, { id: document.id, input: input("Hijacked") }))).toBe("FORBIDDEN");
    expect(code(await send(signedOut, Q.update, { id: document.id, input: input("Hijacked") }))).toBe("UNAUTHENTICATED");
    expect(message(await send(staff.superAdmin, Q.update, { id: crypto.randomUUID(), input: input("Nowhere") }, pdf))).toBe("Resource not found");
    expect(message(await send(staff.superAdmin, Q.update, { id: document.id, input: input("Disguised") }, { name: "a.png", data: files.minimalPdf() }))).toBe("The file's content does not match its type.");
    const [row] = await server.db.select().from(resourceDocuments).where(eq(resourceDocuments.id, document.id));
    expect(row).toMatchObject({ title: "Fixed", blobId: document.blob.id });
    expect(await blobStoreState(server)).toEqual(before);
  });
});

describe("resourceDocumentArchive and resourceDocumentUnarchive", () => {
  test("allowed: an archived document leaves readers' lists and downloads, stays the super admin's; unarchive restores it", async () => {
    const document = await createDocument("Old form");
    expect((await send(staff.superAdmin, Q.archive, { id: document.id })).data?.resourceDocumentArchive.archived).toBe(true);
    const titles = async (client: StaffClient, f?: string) => (await client.gql<Data>(Q.list, { f })).data?.resourceDocuments.list.map((d: { title: string }) => d.title);
    expect(await titles(staff.member)).not.toContain("Old form");
    expect(await titles(staff.superAdmin, "Archived")).toEqual(["Old form"]);
    expect((await staff.member.fetch(document.blob.fileURL)).status).toBe(404);
    expect((await staff.superAdmin.fetch(document.blob.fileURL)).status).toBe(200);
    expect((await audit(document.id, "ResourceDocumentArchive"))[0]).toMatchObject({ objectType: "Blob", metadata: { name: "Old form", archived: true } });
    expect((await send(staff.superAdmin, Q.unarchive, { id: document.id })).data?.resourceDocumentUnarchive.archived).toBe(false);
    expect((await staff.member.fetch(document.blob.fileURL)).status).toBe(200);
    expect(await audit(document.id, "ResourceDocumentUnarchive")).toHaveLength(1);
  });

  test("denied: other roles and signed-out callers cannot archive or unarchive", async () => {
    const document = await createDocument("Stays");
    for (const client of [...readers(), signedOut]) {
      expect(code(await send(client, Q.archive, { id: document.id }))).toBe(client === signedOut ? "UNAUTHENTICATED" : "FORBIDDEN");
      expect(code(await send(client, Q.unarchive, { id: document.id }))).toBe(client === signedOut ? "UNAUTHENTICATED" : "FORBIDDEN");
    }
    const [row] = await server.db.select().from(resourceDocuments).where(eq(resourceDocuments.id, document.id));
    expect(row!.archived).toBe(false);
  });
});
