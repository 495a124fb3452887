import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reporterSessions } from "../../../db/schema/index.ts";
import { DEMO_FORM_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { DEAF_AFTER_MS } from "../../../api/lib/invalidation.ts";
import { hashToken } from "../../../api/lib/tokens.ts";
import { sweepAbandonedDrafts } from "../../../api/modules/reporting/draft-cleaner.ts";
import { ReporterSessionCache } from "../../../api/modules/reporting/reporter-session-cache.ts";
import { resolveReporterSession } from "../../../api/modules/reporting/sessions.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_IDLE_TIMEOUT_MS, REPORTER_TOUCH_INTERVAL_MS } from "../../../api/modules/reporting/session-policy.ts";
import { clockedInvalidator } from "../../helpers/clocked-invalidator.ts";
import { demoForm, ReporterClient, sameReporterOn } from "../../helpers/reporter.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";

/**
 * Each instance keeps the reporter sessions its requests resolve (decision 027). Whatever ends or
 * changes a session must reach every instance before it answers: the same cookie, sent to the other
 * instance at once, opens nothing once the reporter has left, and sees the report a start bound to
 * it. Two instances need one Postgres database; on PGlite the same promises are checked on one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;
let main: Awaited<ReturnType<typeof demoForm>>;
let secured: Awaited<ReturnType<typeof demoForm>>;

const SUBMISSION = `{ reporterSubmission { id } }`;
const FORM = `query ($id: ID!) { reportSubmissionForm(reportFormID: $id) { unlocked } }`;
const UNLOCK = `mutation ($id: ID!, $password: String!) { reportFormUnlock(reportFormID: $id, password: $password) }`;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
  main = await demoForm(first, "demo", "Workplace Misconduct Report");
  secured = await demoForm(first, "demo", "Confidential Finance Concern");
}, 60_000);
afterAll(() => pair.stop());

const onSecond = (reporter: ReporterClient) => sameReporterOn(second, reporter);

async function heldSubmission(reporter: ReporterClient): Promise<string | null> {
  const result = await reporter.gql<{ reporterSubmission: { id: string } | null }>(SUBMISSION);
  expect(result.errors).toBeUndefined();
  return result.data?.reporterSubmission?.id ?? null;
}

async function startedReporter(): Promise<{ reporter: ReporterClient; submissionId: string }> {
  const reporter = new ReporterClient(first, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  expect(started.status).toBe(200);
  return { reporter, submissionId: started.body.submissionID };
}

describe("a cached reporter session", () => {
  test("is served from the cache once it has been used", async () => {
    const { reporter, submissionId } = await startedReporter();
    const tokenHash = hashToken(reporter.cookie.slice("lantern_report=".length));
    expect(await heldSubmission(onSecond(reporter))).toBe(submissionId);
    expect(second.lantern.services.reporterSessionCache.get(tokenHash)?.submissionId).toBe(submissionId);
    expect(await heldSubmission(onSecond(reporter))).toBe(submissionId);
  });

  test("ends on every instance as soon as the reporter's leaving has answered", async () => {
    // Several rounds: a race between leaving and the other instance's cache would show in one of them.
    for (let round = 0; round < 5; round += 1) {
      const { reporter, submissionId } = await startedReporter();
      const elsewhere = onSecond(reporter);
      expect(await heldSubmission(elsewhere)).toBe(submissionId);
      expect(await heldSubmission(reporter)).toBe(submissionId);
      const finished = await reporter.post("/api/auth/report_finish", { reportFormID: main.form.id });
      expect(finished.status).toBe(200);
      expect(await heldSubmission(elsewhere)).toBeNull();
      const update = await elsewhere.gql(`mutation { userReportSubmissionUpdate(page: 0, answers: []) { success } }`);
      expect(update.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
  });

  test("a session bound to a new report on one instance holds that report at once on every instance", async () => {
    for (let round = 0; round < 3; round += 1) {
      const reporter = new ReporterClient(first, "demo.localhost");
      expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
      const elsewhere = onSecond(reporter);
      expect(await heldSubmission(elsewhere)).toBeNull();
      const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: secured.form.id });
      expect(started.status).toBe(200);
      // The start bound the session it was given: the cookie did not change.
      expect(elsewhere.cookie).toBe(reporter.cookie);
      expect(await heldSubmission(elsewhere)).toBe(started.body.submissionID);
      expect(await heldSubmission(reporter)).toBe(started.body.submissionID);
    }
  });

  test("a form unlocked on one instance is unlocked at once on every instance", async () => {
    const { reporter } = await startedReporter();
    const elsewhere = onSecond(reporter);
    const unlocked = async (client: ReporterClient) => (await client.gql<{ reportSubmissionForm: { unlocked: boolean } }>(FORM, { id: secured.form.id })).data?.reportSubmissionForm.unlocked;
    expect(await unlocked(elsewhere)).toBe(false);
    expect((await reporter.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
    expect(await unlocked(elsewhere)).toBe(true);
  });
});

describe("expiry", () => {
  async function cachedSession() {
    const { reporter, submissionId } = await startedReporter();
    const token = reporter.cookie.split("=")[1]!;
    const [row] = await first.db.select().from(reporterSessions).where(eq(reporterSessions.tokenHash, hashToken(token)));
    const cache = first.lantern.services.reporterSessionCache;
    expect((await resolveReporterSession(first.db, token, row!.organisationId, cache, row!.createdAt))?.submissionId).toBe(submissionId);
    expect(cache.get(hashToken(token))).toBeDefined();
    return { token, row: row!, cache, resolve: (at: number) => resolveReporterSession(first.db, token, row!.organisationId, cache, new Date(at)) };
  }

  const storedLastSeen = async (token: string) => (await first.db.select().from(reporterSessions).where(eq(reporterSessions.tokenHash, hashToken(token))))[0]?.lastSeenAt.getTime();

  test("an idle session is refused from its copy and its row deleted", async () => {
    const { token, row, resolve } = await cachedSession();
    expect(await resolve(row.createdAt.getTime() + REPORTER_IDLE_TIMEOUT_MS + 1_000)).toBeNull();
    expect(await storedLastSeen(token)).toBeUndefined();
  });

  test("a session past its absolute lifetime is refused however recently it was used", async () => {
    const { token, row, resolve } = await cachedSession();
    const start = row.createdAt.getTime();
    const step = REPORTER_IDLE_TIMEOUT_MS - 60_000;
    let at = start;
    while (at + step < start + REPORTER_ABSOLUTE_TIMEOUT_MS) {
      at += step;
      expect(await resolve(at)).not.toBeNull();
    }
    expect(await resolve(start + REPORTER_ABSOLUTE_TIMEOUT_MS + 1)).toBeNull();
    expect(await storedLastSeen(token)).toBeUndefined();
  });

  test("last seen is written at most once per touch interval", async () => {
    const { token, row, resolve } = await cachedSession();
    const touched = row.createdAt.getTime() + REPORTER_TOUCH_INTERVAL_MS + 1_000;
    expect(await resolve(touched)).not.toBeNull();
    expect(await storedLastSeen(token)).toBe(touched);
    expect(await resolve(touched + REPORTER_TOUCH_INTERVAL_MS / 2)).not.toBeNull();
    expect(await storedLastSeen(token)).toBe(touched);
  });
});

describe("an instance that cannot hear the invalidation channel", () => {
  test("serves no copy of a session, and reads it again", async () => {
    const { invalidator, now, advance } = await clockedInvalidator(first);
    try {
      const cache = new ReporterSessionCache(invalidator, { now });
      const { reporter, submissionId } = await startedReporter();
      const token = reporter.cookie.split("=")[1]!;
      const [row] = await first.db.select().from(reporterSessions).where(eq(reporterSessions.tokenHash, hashToken(token)));
      const resolve = () => resolveReporterSession(first.db, token, row!.organisationId, cache);
      expect((await resolve())?.submissionId).toBe(submissionId);
      // A deletion no event announces (an operator's SQL): while the channel is heard, the copy answers.
      await first.db.delete(reporterSessions).where(eq(reporterSessions.tokenHash, hashToken(token)));
      expect((await resolve())?.submissionId).toBe(submissionId);
      // Silence for longer than the deaf limit (but not the backstop age): the copy is not served.
      advance(DEAF_AFTER_MS + 500);
      expect(await resolve()).toBeNull();
      expect(cache.size).toBe(0);
    } finally {
      await invalidator.close();
    }
  });
});

describe("abandoned drafts", () => {
  test("a session whose draft the cleaner deleted is refused at once on every instance", async () => {
    const { reporter, submissionId } = await startedReporter();
    expect(await heldSubmission(onSecond(reporter))).toBe(submissionId);
    expect(await sweepAbandonedDrafts(first.lantern.services, new Date(Date.now() + 2 * 24 * 60 * 60 * 1000))).toBeGreaterThan(0);
    const elsewhere = onSecond(reporter);
    expect(await heldSubmission(elsewhere)).toBeNull();
    // Without a session, unlocking a form opens a new one (a new cookie), and the form is unlocked for it.
    expect((await elsewhere.gql<{ reportFormUnlock: boolean }>(UNLOCK, { id: secured.form.id, password: DEMO_FORM_PASSWORD })).data?.reportFormUnlock).toBe(true);
    expect(elsewhere.cookie).not.toBe(reporter.cookie);
    expect((await elsewhere.gql<{ reportSubmissionForm: { unlocked: boolean } }>(FORM, { id: secured.form.id })).data?.reportSubmissionForm.unlocked).toBe(true);
  });
});
