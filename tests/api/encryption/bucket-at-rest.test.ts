import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startS3Server, S3RVER_ACCESS_KEY, type TestS3Server } from "../../helpers/s3-server.ts";
import { expectStaffReadJourney, reportJourney, type Journey } from "../../helpers/sealed-journey.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

/**
 * A leaked bucket must not expose a reporter (decision 049): after a whole journey with its files
 * and chat image on an S3-protocol store, no object the bucket holds carries the canary in plain
 * (neither its bytes, nor its key, nor the metadata the server files beside it), while staff
 * and the reporter still read everything through Lantern.
 */

const CANARY = "bucket-canary-71d3";

let s3: TestS3Server;
let server: TestServer;
let journey: Journey;

beforeAll(async () => {
  s3 = await startS3Server("lantern-sealed");
  server = await startTestServer({
    env: { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: S3RVER_ACCESS_KEY, S3_SECRET_ACCESS_KEY: S3RVER_ACCESS_KEY },
  });
  await seedDemo(server.db);
  journey = await reportJourney(server, CANARY);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

describe("a bucket holds nothing of a reporter in plain", () => {
  test("every object, its name and its metadata files are searched, and none holds the canary", async () => {
    expect(server.lantern.services.blobs.kind).toBe("s3");
    const files = readdirSync(s3.directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    // The attachment and the chat image are there: the search below looks at real objects.
    expect(files.filter((file) => !file.endsWith("._S3rver_metadata.json")).length).toBeGreaterThanOrEqual(2);
    const holding = files.filter((file) => file.includes(CANARY) || readFileSync(file).includes(Buffer.from(CANARY)));
    expect(holding.map((file) => file.slice(s3.directory.length))).toEqual([]);
  });

  test("staff and the reporter still read the answer, the file and the chat, opened", async () => {
    await expectStaffReadJourney(journey);
  });
});
