import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { openDatabase, wrapPglite, type DatabaseHandle, type Database } from "../../../db/client.ts";
import { pgliteExtensions } from "../../../db/pglite-assets.ts";
import { backgroundJobs } from "../../../db/schema/index.ts";
import { JOB_TIMING, startJobWorker, type JobHandler, type JobWorkerTiming } from "../../../api/lib/job-worker.ts";
import { claimJobs, enqueueJobs, finishJob, pruneDoneJobs, retryDelayMs } from "../../../api/lib/jobs.ts";
import { setLogLevel } from "../../../api/lib/log.ts";
import { renderMetrics } from "../../../api/lib/metrics.ts";
import { cloneTemplate, usingPostgres, type TestDatabase } from "../../setup/template.ts";

let database: TestDatabase;
let db: Database;
beforeAll(async () => {
  setLogLevel((process.env.TEST_LOG_LEVEL ?? "silent") as Parameters<typeof setLogLevel>[0]);
  database = await cloneTemplate();
  db = database.handle.db;
});
afterAll(() => database.drop());

/** A clock the test moves on; workers read it instead of the wall clock. */
function testClock(start = Date.parse("2030-01-01T00:00:00Z")) {
  const clock = { at: start, now: () => clock.at };
  return clock;
}

const timingAt = (clock: { now: () => number }, changes: Partial<JobWorkerTiming> = {}): JobWorkerTiming => ({
  ...JOB_TIMING,
  // Never by the timer: every run in these tests is the test's doing.
  pollMs: 3_600_000,
  retry: { baseDelayMs: 1_000, maxDelayMs: 4_000, maxAttempts: 10 },
  now: clock.now,
  ...changes,
});

/** A kind of its own per test, so no test's worker runs another's jobs. */
let kinds = 0;
const freshKind = () => `test.kind_${(kinds += 1)}`;

/** A handler that records each subject it ran, with a turn of the event loop in between as real work has. */
function recordingHandler() {
  const ran: string[] = [];
  const handler: JobHandler = async (job) => {
    await Bun.sleep(1);
    ran.push(job.subjectId);
  };
  return { ran, handler };
}

const rowOf = async (on: Database, id: string) => (await on.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, id)))[0]!;

/** A second connection to the same database: another instance's on Postgres, a database copied as a restart finds it on PGlite. */
async function anotherInstance(): Promise<DatabaseHandle> {
  if (usingPostgres()) return openDatabase({ kind: "postgres", url: database.url!, max: 2 });
  const copy = await PGlite.create({ loadDataDir: await database.pglite!.dumpDataDir("gzip"), extensions: await pgliteExtensions() });
  return wrapPglite(copy);
}

describe("a job is durable", () => {
  test("a job enqueued before its instance stopped runs when an instance starts", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subject = crypto.randomUUID();
    const first = recordingHandler();
    // The first instance enqueues a job due a little later and stops before it is due.
    const before = startJobWorker(db, { [kind]: first.handler }, timingAt(clock));
    await enqueueJobs(db, [{ kind, subjectId: subject, runAt: new Date(clock.at + 5_000) }]);
    await before.runDue();
    await before.stop();
    expect(first.ran).toEqual([]);

    const restarted = await anotherInstance();
    try {
      clock.at += 10_000;
      const second = recordingHandler();
      const after = startJobWorker(restarted.db, { [kind]: second.handler }, timingAt(clock));
      await after.runDue();
      await after.stop();
      expect(second.ran).toEqual([subject]);
      expect(await rowOf(restarted.db, subject)).toMatchObject({ state: "done", attempts: 1 });
    } finally {
      await restarted.close();
    }
  });

  test("a job enqueued in a transaction that rolls back never runs", async () => {
    const kind = freshKind();
    const subject = crypto.randomUUID();
    await expect(
      db.transaction(async (tx) => {
        await enqueueJobs(tx, [{ kind, subjectId: subject }]);
        throw new Error("the change that caused it failed");
      }),
    ).rejects.toThrow("the change that caused it failed");
    const { ran, handler } = recordingHandler();
    const worker = startJobWorker(db, { [kind]: handler }, timingAt(testClock(Date.now() + 60_000)));
    await worker.runDue();
    await worker.stop();
    expect(ran).toEqual([]);
  });
});

describe("a failing job", () => {
  test("is retried after growing delays, up to the cap, and then succeeds", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subject = crypto.randomUUID();
    const runsAt: number[] = [];
    const handler: JobHandler = async () => {
      runsAt.push(clock.at);
      if (runsAt.length <= 4) throw Object.assign(new Error("connect refused by mail@example.test"), { code: "ECONNREFUSED" });
    };
    const worker = startJobWorker(db, { [kind]: handler }, timingAt(clock));
    await enqueueJobs(db, [{ kind, subjectId: subject, runAt: new Date(clock.at) }]);
    const start = clock.at;
    await worker.runDue();
    // Each retry waits its delay, to the millisecond: a moment before, it does not run.
    for (const delay of [1_000, 2_000, 4_000, 4_000]) {
      clock.at += delay - 1;
      await worker.runDue();
      expect((await rowOf(db, subject)).state).toBe("queued");
      const runs = runsAt.length;
      clock.at += 1;
      await worker.runDue();
      expect(runsAt.length).toBe(runs + 1);
    }
    await worker.stop();
    expect(runsAt.map((at) => at - start)).toEqual([0, 1_000, 3_000, 7_000, 11_000]);
    const row = await rowOf(db, subject);
    expect(row).toMatchObject({ state: "done", attempts: 5, lastError: null });
  });

  test("records the error's code, never its message", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subject = crypto.randomUUID();
    const handler: JobHandler = async () => {
      throw Object.assign(new Error("550 mailbox reporter@example.test unknown"), { code: "EENVELOPE" });
    };
    const worker = startJobWorker(db, { [kind]: handler }, timingAt(clock));
    await enqueueJobs(db, [{ kind, subjectId: subject, runAt: new Date(clock.at) }]);
    await worker.runDue();
    await worker.stop();
    const row = await rowOf(db, subject);
    expect(row.lastError).toBe("EENVELOPE");
    expect(JSON.stringify(row)).not.toContain("@");
  });

  test("out of attempts, stays failed, is counted on the metrics page and is not run again", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subject = crypto.randomUUID();
    let runs = 0;
    const handler: JobHandler = async () => {
      runs += 1;
      throw new TypeError("always");
    };
    const worker = startJobWorker(db, { [kind]: handler }, timingAt(clock, { retry: { baseDelayMs: 1_000, maxDelayMs: 1_000, maxAttempts: 3 } }));
    await enqueueJobs(db, [{ kind, subjectId: subject, runAt: new Date(clock.at) }]);
    for (let i = 0; i < 6; i += 1) {
      await worker.runDue();
      clock.at += 1_000;
    }
    await worker.stop();
    expect(runs).toBe(3);
    expect(await rowOf(db, subject)).toMatchObject({ state: "failed", attempts: 3, lastError: "TypeError" });
    const label = kind.replace(/[^a-z0-9]+/g, "_");
    expect(renderMetrics()).toContain(`lantern_job_failures_total{job="${label}_given_up"} 1\n`);
    expect(renderMetrics()).toContain(`lantern_job_failures_total{job="${label}"} 3\n`);
  });

  test("the delay doubles from its base and never passes the cap", () => {
    const policy = { baseDelayMs: 30_000, maxDelayMs: 30 * 60_000, maxAttempts: 9 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => retryDelayMs(policy, attempts) / 60_000)).toEqual([0.5, 1, 2, 4, 8, 16, 30, 30]);
  });
});

describe("across workers", () => {
  test("two workers on one database run each job once", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subjects = Array.from({ length: 40 }, () => crypto.randomUUID());
    await enqueueJobs(
      db,
      subjects.map((subjectId) => ({ kind, subjectId, runAt: new Date(clock.at) })),
    );
    const other = usingPostgres() ? await openDatabase({ kind: "postgres", url: database.url!, max: 2 }) : null;
    try {
      const { ran, handler } = recordingHandler();
      const workers = [startJobWorker(db, { [kind]: handler }, timingAt(clock, { batch: 5 })), startJobWorker(other?.db ?? db, { [kind]: handler }, timingAt(clock, { batch: 5 }))];
      await Promise.all(workers.map((worker) => worker.runDue()));
      await Promise.all(workers.map((worker) => worker.stop()));
      expect(ran.length).toBe(subjects.length);
      expect(new Set(ran).size).toBe(subjects.length);
    } finally {
      await other?.close();
    }
  });

  test("the same job enqueued by every instance that heard its event is kept once", async () => {
    const kind = freshKind();
    const subject = crypto.randomUUID();
    const other = usingPostgres() ? await openDatabase({ kind: "postgres", url: database.url!, max: 2 }) : null;
    try {
      const job = { kind, subjectId: subject, dedupeKey: `${kind}:${subject}` };
      const added = await Promise.all([db, other?.db ?? db, db, other?.db ?? db].map((on) => enqueueJobs(on, [job])));
      expect(added.reduce((sum, count) => sum + count, 0)).toBe(1);
      expect((await db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, subject))).length).toBe(1);
    } finally {
      await other?.close();
    }
  });

  test("a crashed worker's job is taken by another when its lease runs out, and the crashed one cannot finish it", async () => {
    const kind = freshKind();
    const clock = testClock();
    const subject = crypto.randomUUID();
    await enqueueJobs(db, [{ kind, subjectId: subject, runAt: new Date(clock.at) }]);
    // A worker claims the job for a minute and dies: nothing else happens on its side.
    const [crashed] = await claimJobs(db, [kind], new Date(clock.at), 60_000, 10);
    expect(crashed?.subjectId).toBe(subject);
    const { ran, handler } = recordingHandler();
    const survivor = startJobWorker(db, { [kind]: handler }, timingAt(clock, { leaseMs: 60_000 }));
    clock.at += 59_999;
    await survivor.runDue();
    expect(ran).toEqual([]);
    clock.at += 1;
    await survivor.runDue();
    await survivor.stop();
    expect(ran).toEqual([subject]);
    expect(await rowOf(db, subject)).toMatchObject({ state: "done", attempts: 2 });
    // The crashed worker comes back late: its lease is gone, so it changes nothing.
    expect(await finishJob(db, crashed!, new Date(clock.at))).toBe(false);
  });
});

describe("what a job may hold", () => {
  test("a job about anything but an id, or of a made-up kind, is refused and nothing is stored", async () => {
    const count = async () => (await db.select().from(backgroundJobs)).length;
    const before = await count();
    const hostile = [
      { kind: "test.ok", subjectId: "reporter@example.test" },
      { kind: "test.ok", subjectId: "'; drop table background_jobs; --" },
      { kind: "Mail everyone", subjectId: crypto.randomUUID() },
      { kind: "x".repeat(65), subjectId: crypto.randomUUID() },
      { kind: "test.ok", subjectId: crypto.randomUUID(), dedupeKey: "k".repeat(201) },
    ];
    for (const job of hostile) await expect(enqueueJobs(db, [{ kind: "test.ok", subjectId: crypto.randomUUID() }, job])).rejects.toThrow(/job/i);
    expect(await count()).toBe(before);
  });

  test("done jobs are pruned after they have been kept a while; failed ones stay", async () => {
    const kind = freshKind();
    const clock = testClock();
    const [done, failed] = [crypto.randomUUID(), crypto.randomUUID()];
    const worker = startJobWorker(
      db,
      {
        [kind]: async (job) => {
          if (job.subjectId === failed) throw new Error("no");
        },
      },
      timingAt(clock, { retry: { baseDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 } }),
    );
    await enqueueJobs(db, [done, failed].map((subjectId) => ({ kind, subjectId, runAt: new Date(clock.at) })));
    await worker.runDue();
    await worker.stop();
    expect(await pruneDoneJobs(db, [kind], new Date(clock.at - 1))).toBe(0);
    expect(await pruneDoneJobs(db, [kind], new Date(clock.at + 1))).toBe(1);
    expect((await db.select().from(backgroundJobs).where(eq(backgroundJobs.kind, kind))).map((row) => row.state)).toEqual(["failed"]);
  });
});
