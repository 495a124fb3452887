import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeMasterKeyText } from "../../../api/config.ts";
import { masterKeyId } from "../../../api/lib/master-key.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { SEND } from "../../helpers/sealed-journey.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs } from "../../helpers/session.ts";
import { usingPostgres } from "../../setup/template.ts";
import { cli, emptyInstallation, expectStoryOn, installationOf, LIST, reporterLogin, startRestored, tellStory, type Installation, type Story } from "./backup-support.ts";

/**
 * An operator backs up a Lantern that is serving, restores the archive into an empty installation
 * and starts it with the same master key: every report, file, message and login is back.
 */

const archives = mkdtempSync(join(tmpdir(), "lantern-archives-"));
const KEY_ID = masterKeyId(decodeMasterKeyText(TEST_MASTER_KEY)!);
const targets: { remove(): Promise<void> }[] = [];
let source: TestServer;
let story: Story;

beforeAll(async () => {
  source = await startTestServer();
  story = await tellStory(source);
}, 120_000);

afterAll(async () => {
  await source.stop();
  for (const target of targets) await target.remove();
  rmSync(archives, { recursive: true, force: true });
}, 60_000);

async function restoredInto(archive: string): Promise<Installation> {
  const target = await emptyInstallation();
  targets.push(target);
  const restored = await cli(target, "restore", "--from", archive);
  expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: "" });
  expect(restored.stdout).toContain(`needs master key ${KEY_ID}`);
  return target;
}

describe("backup and restore", () => {
  const archive = join(archives, "lantern.tar.gz");

  test("a backup is taken while the server answers staff and a reporter, and names the master key it needs", async () => {
    const owner = await loginAs(source, "owner@demo.test", DEMO_PASSWORD);
    const reporter = await reporterLogin(source, story.reporter.reportID, story.reporter.generatedPassword);
    let backupDone = false;
    const answers: boolean[] = [];
    const traffic = (async () => {
      for (let i = 0; !backupDone || i < 3; i++) {
        const [list, sent] = await Promise.all([owner.gql(LIST), reporter.gql(SEND, { text: `Still here ${i}` })]);
        answers.push(!list.errors && !sent.errors);
      }
    })();
    const backup = await cli(installationOf(source), "backup", "--to", archive);
    backupDone = true;
    await traffic;
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
    // The embedded database is the server's alone: the archive comes through its owner-only socket.
    expect(backup.stdout).toContain(usingPostgres() ? "through the database" : "through the running server");
    if (!usingPostgres()) expect(statSync(join(source.dataDir, "backup.sock")).mode & 0o777).toBe(0o600);
    expect(backup.stdout).toContain(`needs master key ${KEY_ID}`);
    expect(answers.every(Boolean)).toBe(true);
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(await Bun.file(archive).text()).not.toContain(story.message);
  }, 120_000);

  test("restored into an empty installation, the reporters sign in, read their chat and download their file; staff see the same reports", async () => {
    const target = await restoredInto(archive);
    const server = await startRestored(target);
    try {
      await expectStoryOn(server, story);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test("an archive goes through an embedded installation, backed up with no server running, and back into this run's database", async () => {
    const embedded = await emptyInstallation();
    targets.push(embedded);
    const intoEmbedded = await cli({ ...embedded, databaseUrl: null }, "restore", "--from", archive);
    expect({ code: intoEmbedded.code, stderr: intoEmbedded.stderr }).toEqual({ code: 0, stderr: "" });
    const second = join(archives, "from-embedded.tar");
    const backup = await cli({ ...embedded, databaseUrl: null }, "backup", "--to", second);
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
    expect(backup.stdout).toContain("through the database");
    const server = await startRestored(await restoredInto(second));
    try {
      await expectStoryOn(server, story);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
