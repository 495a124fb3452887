import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { backgroundJobs, organisationEmailSubscribers, organisations, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { NEW_REPORT_JOB, NEW_REPORT_SUBJECT } from "../../../api/modules/notifications/notifier.ts";
import { fetchingServer, lanternHome, spawnLantern, type LanternHome, type LanternProcess } from "../../helpers/lantern-process.ts";
import { freePort } from "../../helpers/processes.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server.ts";
import { subjectOf } from "../../helpers/notification-mail.ts";

/**
 * A notification job outlives its instance (decision 058): the mail server refuses the new-report
 * mail, the instance is killed with its job waiting for a retry, and the instance started next
 * sends it, once.
 */

const SUBSCRIBER = "restart-subscriber@demo.test";
const TOKEN = "jobs-restart-metrics-token-0123456789abcdef";
const FAILED_RUNS = 'lantern_job_failures_total{job="notify_new_report"}';

let smtp: TestSmtpServer;
let home: LanternHome;
let main: Awaited<ReturnType<typeof demoForm>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  home = await lanternHome({ METRICS_TOKEN: TOKEN });
  main = await home.withDatabase(async (db) => {
    const [demo] = await db.select().from(organisations).where(eq(organisations.slug, "demo"));
    await db.insert(organisationEmailSubscribers).values({ organisationId: demo!.id, firstName: "Ro", lastName: "Subscriber", email: SUBSCRIBER });
    return demoForm({ db } as unknown as TestServer, "demo", "Workplace Misconduct Report");
  });
}, 120_000);
afterAll(async () => {
  await home.remove();
  await smtp.stop();
});

async function failedRuns(instance: LanternProcess): Promise<number> {
  const body = await (await instance.fetch("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = body.split("\n").find((row) => row.startsWith(`${FAILED_RUNS} `));
  return line ? Number(line.split(" ")[1]) : 0;
}

async function until(done: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await done()) && Date.now() < deadline) await Bun.sleep(50);
}

describe("a notification job across a restart", () => {
  test("killed while its mail waits for a retry, the next instance sends it once", async () => {
    // Nothing listens on this port: every mail is refused.
    const refusing = `smtp://127.0.0.1:${await freePort()}`;
    const first = await spawnLantern(home, { env: { SMTP_URL: refusing } });
    const credentials = await submitReport(new ReporterClient(fetchingServer(first), "demo.localhost"), main.form.id, main.widgets);
    await until(async () => (await failedRuns(first)) >= 1);
    expect(await failedRuns(first)).toBe(1);
    first.child.kill(9);
    await first.child.exited;

    const reportId = await home.withDatabase(async (db) => {
      const [report] = await db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
      const jobs = await db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, report!.id));
      expect(jobs).toMatchObject([{ kind: NEW_REPORT_JOB, state: "queued", attempts: 1, lastError: "ESOCKET" }]);
      // The back-off passes while no instance runs.
      await db.update(backgroundJobs).set({ runAt: sql`now()` }).where(eq(backgroundJobs.subjectId, report!.id));
      return report!.id;
    });
    expect(smtp.messages.filter((mail) => mail.to.includes(SUBSCRIBER))).toEqual([]);

    const second = await spawnLantern(home, { env: { SMTP_URL: smtp.url } });
    await until(() => smtp.messages.some((mail) => mail.to.includes(SUBSCRIBER)));
    second.child.kill("SIGTERM");
    expect(await second.child.exited).toBe(0);
    expect(smtp.messages.filter((mail) => mail.to.includes(SUBSCRIBER)).map(subjectOf)).toEqual([NEW_REPORT_SUBJECT]);

    await home.withDatabase(async (db) => {
      expect(await db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, reportId))).toMatchObject([{ state: "done", attempts: 2, lastError: null }]);
      const audit = await db.select().from(userActivities).where(and(eq(userActivities.objectId, reportId), eq(userActivities.action, "NotifyNewReport")));
      expect(audit.length).toBe(1);
    });
  }, 120_000);
});
