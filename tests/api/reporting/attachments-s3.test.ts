import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { blobs } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { startS3Server, S3RVER_ACCESS_KEY, type TestS3Server } from "../../helpers/s3-server.ts";
import { demoForm, ReporterClient } from "../../helpers/reporter.ts";
import * as fixtures from "../../fixtures/files.ts";
import { storedBytes, upload } from "../../fixtures/attachments.ts";

let s3: TestS3Server;
let server: TestServer;

beforeAll(async () => {
  s3 = await startS3Server("lantern-attachments");
  server = await startTestServer({
    env: { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: S3RVER_ACCESS_KEY, S3_SECRET_ACCESS_KEY: S3RVER_ACCESS_KEY },
  });
  await seedDemo(server.db);
});
afterAll(async () => {
  await server.stop();
  await s3.stop();
});

describe("attachments on an S3-protocol store", () => {
  test("an upload lands in the bucket without its metadata, and the reporter downloads it from there", async () => {
    expect(server.lantern.services.blobs.kind).toBe("s3");
    const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const reporter = new ReporterClient(server, "demo.localhost");
    expect((await reporter.post("/api/auth/report_start", { reportFormID: form.id })).status).toBe(200);
    const uploaded = await upload(reporter, "site-photo.jpg", fixtures.jpegWithMetadata(), "image/jpeg");
    expect(uploaded.status).toBe(200);

    const stored = await storedBytes(server, uploaded.body.id);
    expect(stored.fileName).toBe("site-photo.jpg");
    const [row] = await server.db.select().from(blobs).where(eq(blobs.id, stored.row.id));
    const client = new S3Client({ endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: S3RVER_ACCESS_KEY, secretAccessKey: S3RVER_ACCESS_KEY } });
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: row!.storageKey }));
    // The bucket holds the sealed file; opened, it is the cleaned picture.
    expect(head.ContentLength).toBe(stored.sealed.byteLength);
    expect(fixtures.containsText(stored.sealed, "JFIF")).toBe(false);
    expect(stored.bytes).toEqual(fixtures.plainJpeg());
    expect(head.Metadata ?? {}).toEqual({});
    client.destroy();

    const download = await reporter.fetch(`/api/files/report-attachments/${uploaded.body.id}`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(fixtures.plainJpeg());
  });
});
