import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../../../api/config.ts";
import { createBlobStore } from "../../../api/lib/blob-store.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { startS3Server, type TestS3Server } from "../../helpers/s3-server.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { cli, emptyInstallation, expectStoryOn, hasTables, installationOf, s3Settings, startRestored, tellStory, type Story } from "./backup-support.ts";

/** The same round trip with the files in an S3 bucket (a real S3-protocol server): read from one bucket, restored into another. */

const archives = mkdtempSync(join(tmpdir(), "lantern-archives-"));
const targets: { remove(): Promise<void> }[] = [];
let sourceBucket: TestS3Server;
let targetBucket: TestS3Server;
let source: TestServer;
let story: Story;

beforeAll(async () => {
  sourceBucket = await startS3Server("lantern-source");
  targetBucket = await startS3Server("lantern-target");
  source = await startTestServer({ env: s3Settings(sourceBucket) });
  story = await tellStory(source);
}, 120_000);

afterAll(async () => {
  await source.stop();
  for (const target of targets) await target.remove();
  await sourceBucket.stop();
  await targetBucket.stop();
  rmSync(archives, { recursive: true, force: true });
}, 60_000);

describe("backup and restore with the files in S3", () => {
  const archive = join(archives, "lantern.tar.gz");

  test("the archive carries the bucket's files, and a restore into an empty bucket brings every report, file and login back", async () => {
    const backup = await cli(installationOf(source, s3Settings(sourceBucket)), "backup", "--to", archive);
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
    expect(backup.stdout).toMatch(/ [1-9]\d* files/);

    const target = await emptyInstallation(s3Settings(targetBucket));
    targets.push(target);
    const restored = await cli(target, "restore", "--from", archive);
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: "" });
    const server = await startRestored(target);
    try {
      await expectStoryOn(server, story);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test("a bucket holding files the archive does not know is refused before the database is touched", async () => {
    const other = await startS3Server("lantern-other");
    try {
      const settings = s3Settings(other);
      await createBlobStore(parseConfig({ ...settings, MASTER_KEY: TEST_MASTER_KEY }).blobs).put("attachments/someone-else", new Uint8Array([1]), "text/plain");
      const target = await emptyInstallation(settings);
      targets.push(target);
      const result = await cli(target, "restore", "--from", archive);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe("The blob store is not empty (bucket lantern-other): restore into an empty one");
      expect(await hasTables(target)).toBe(false);
    } finally {
      await other.stop();
    }
  }, 60_000);
});
