import { expect } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { seedDemo, type DemoReportCredential } from "../../../db/seed/demo.ts";
import { upload } from "../../fixtures/attachments.ts";
import { sendImage } from "../../fixtures/chat-images.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { S3RVER_ACCESS_KEY, type TestS3Server } from "../../helpers/s3-server.ts";
import { DETAIL, MESSAGES, ok, SEND, type Detail } from "../../helpers/sealed-journey.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { databaseUrl, usingPostgres } from "../../setup/template.ts";

/** The operator's side of a backup test: the CLI as a real process, targets that start empty. */

const ROOT = join(import.meta.dir, "..", "..", "..");

export function s3Settings(s3: TestS3Server): Record<string, string> {
  return { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: S3RVER_ACCESS_KEY, S3_SECRET_ACCESS_KEY: S3RVER_ACCESS_KEY };
}

/** What a Lantern installation is configured with: its DATA_DIR, its database URL on Postgres, its bucket. */
export interface Installation {
  dataDir: string;
  databaseUrl: string | null;
  settings: Record<string, string>;
}

export async function cli(installation: Installation, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: installation.dataDir, MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: "silent", ...installation.settings };
  delete env.DATABASE_URL;
  if (installation.databaseUrl) env.DATABASE_URL = installation.databaseUrl;
  const child = Bun.spawn(["bun", join(ROOT, "scripts", "cli.ts"), ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code, stdout, stderr };
}

/** The installation a running test server is. */
export function installationOf(server: TestServer, settings: Record<string, string> = {}): Installation {
  return { dataDir: server.dataDir, databaseUrl: server.databaseUrl, settings };
}

/** A new, empty DATA_DIR and, on Postgres, a new, empty database (no tables). */
export async function emptyInstallation(settings: Record<string, string> = {}): Promise<Installation & { remove(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-restore-"));
  let name: string | null = null;
  if (usingPostgres()) {
    name = `lantern_restore_${randomBytes(5).toString("hex")}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
  }
  return {
    dataDir,
    databaseUrl: name ? databaseUrl(name) : null,
    settings,
    async remove() {
      rmSync(dataDir, { recursive: true, force: true });
      if (!name) return;
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Whether an installation's database has any of Lantern's tables (a refused restore must leave none). */
export async function hasTables(installation: Installation): Promise<boolean> {
  if (!installation.databaseUrl) return Bun.file(join(installation.dataDir, "pglite", "PG_VERSION")).exists();
  const client = postgres(installation.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client`select count(*)::int as count from pg_tables where schemaname = 'public'`;
    return row!.count > 0;
  } finally {
    await client.end();
  }
}

/** A server over a restored installation (its database, DATA_DIR and bucket), with a master key. */
export function startRestored(installation: Installation, masterKey: string = TEST_MASTER_KEY): Promise<TestServer> {
  const env = { DATA_DIR: installation.dataDir, MASTER_KEY: masterKey, ...installation.settings };
  return installation.databaseUrl ? startTestServer({ databaseUrl: installation.databaseUrl, env }) : startTestServer({ embeddedOnDisk: true, env });
}

/** A 1×1 PNG: what the reporter sends as a chat image and later downloads. */
export const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));

/** The demo, and one reporter's report with an attached file, a message and a chat image. */
export interface Story {
  seeded: DemoReportCredential;
  reporter: { reportID: string; generatedPassword: string };
  submissionId: string;
  fileName: string;
  fileContent: Uint8Array<ArrayBuffer>;
  message: string;
  imageURL: string;
  image: Uint8Array<ArrayBuffer>;
  staffList: Record<string, unknown>;
}

export const LIST = `query { reportSubmissions { total list { id reportID } } }`;

export async function tellStory(server: TestServer): Promise<Story> {
  const seeded = (await seedDemo(server.db)).reports.find((report) => report.organisationSlug === "demo")!;
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const fileName = "statement.txt";
  const fileContent = new TextEncoder().encode(`What I saw, in my own words ${randomBytes(8).toString("hex")}\n`);
  const writer = new ReporterClient(server, "demo.localhost");
  const started = await writer.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  expect((await upload(writer, fileName, fileContent, "text/plain")).status).toBe(200);
  const reporter = await submitReport(writer, main.form.id, main.widgets);
  const follow = await reporterLogin(server, reporter.reportID, reporter.generatedPassword);
  const message = "I can add that it happened twice.";
  ok(await follow.gql(SEND, { text: message }));
  const sent = await sendImage(follow, { name: "photo.png", data: PNG, type: "image/png" });
  expect(sent.errors).toBeUndefined();
  const imageURL = sent.data!.reportConversationSendMessage.image!.fileURL;
  const image = new Uint8Array(await (await follow.fetch(imageURL)).arrayBuffer());
  const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  return { seeded, reporter, submissionId: started.body.submissionID, fileName, fileContent, message, imageURL, image, staffList: ok(await owner.gql<Record<string, unknown>>(LIST)) };
}

export async function reporterLogin(server: TestServer, reportID: string, password: string): Promise<ReporterClient> {
  const client = new ReporterClient(server, "demo.localhost");
  const login = await client.post("/api/auth/report_login", { reportID, password });
  expect(login.status).toBe(200);
  return client;
}

/** Everything the story left, as its reporter, the seeded reporter and the demo's owner find it on `server`. */
export async function expectStoryOn(server: TestServer, story: Story): Promise<void> {
  await reporterLogin(server, story.seeded.reportId, story.seeded.password);
  const reporter = await reporterLogin(server, story.reporter.reportID, story.reporter.generatedPassword);
  const chat = ok(await reporter.gql<{ reportConversationMessages: { messages: { type: string; message: string }[] } }>(MESSAGES, {})).reportConversationMessages.messages;
  expect(chat.map((entry) => entry.message)).toContain(story.message);
  const download = await reporter.fetch(story.imageURL);
  expect(download.status).toBe(200);
  expect(new Uint8Array(await download.arrayBuffer())).toEqual(story.image);

  const owner: StaffClient = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  expect(ok(await owner.gql<Record<string, unknown>>(LIST))).toEqual(story.staffList);
  const detail = ok(await owner.gql<{ reportSubmissionGet: Detail }>(DETAIL, { id: story.submissionId })).reportSubmissionGet;
  expect(detail.attachments.map((file) => file.fileName)).toEqual([story.fileName]);
  const file = await owner.fetch(detail.attachments[0]!.fileURL);
  expect(file.status).toBe(200);
  expect(new Uint8Array(await file.arrayBuffer())).toEqual(story.fileContent);
}
