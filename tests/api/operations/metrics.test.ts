import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { organisationEmailSubscribers, organisations } from "../../../db/schema/index.ts";
import { ConfigError, parseConfig } from "../../../api/config.ts";
import { setLogLevel } from "../../../api/lib/log.ts";
import { Counter, escapeLabelValue } from "../../../api/lib/metrics.ts";
import { hashPassword } from "../../../api/lib/passwords.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { readOutbox } from "../../helpers/outbox-mail.ts";
import { cookieFrom } from "../../helpers/session.ts";

const TOKEN = randomBytes(32).toString("hex");
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) MetricsProbeBrowser/77.7";
const STAFF_EMAIL = "owner@demo.test";
const SUBSCRIBER = "subscriber@demo.test";

/** One sample line: `name{label="value",...} number`, label values escaped as the format says. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*")*\})? (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+Inf|-Inf|NaN)$/;
const COMMENT = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*$/;

/** Every line a comment or a sample; the samples by `name{labels}`. */
function parseExposition(body: string): Map<string, number> {
  expect(body.endsWith("\n")).toBe(true);
  const samples = new Map<string, number>();
  for (const line of body.slice(0, -1).split("\n")) {
    if (line.startsWith("#")) {
      expect(line).toMatch(COMMENT);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ""}`, Number(match[3]!.replace("+Inf", "Infinity")));
  }
  return samples;
}

function scrapeRequest(server: TestServer, authorization: string | null, host?: string): Promise<Response> {
  return server.fetch("/metrics", { ...(host ? { host } : {}), headers: authorization === null ? {} : { Authorization: authorization } });
}

async function scrape(server: TestServer): Promise<{ body: string; samples: Map<string, number> }> {
  const response = await scrapeRequest(server, `Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  const body = await response.text();
  return { body, samples: parseExposition(body) };
}

/** Scrapes until `ready` holds, for what background work records a moment after a request answers. */
async function scrapeUntil(server: TestServer, ready: (samples: Map<string, number>) => boolean) {
  for (let attempt = 0; ; attempt += 1) {
    const result = await scrape(server);
    if (ready(result.samples) || attempt >= 100) return result;
    await Bun.sleep(50);
  }
}

const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

describe("without METRICS_TOKEN the metrics page is off", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.stop());

  test("/metrics is not found, whatever the request carries", async () => {
    expect((await scrapeRequest(server, null)).status).toBe(404);
    expect((await scrapeRequest(server, `Bearer ${TOKEN}`)).status).toBe(404);
  });
});

describe("METRICS_TOKEN is a setting with rules", () => {
  const base = { NODE_ENV: "test", DATA_DIR: "./unused", MASTER_KEY: randomBytes(32).toString("base64") };

  test("shorter than 32 characters, or with spaces, the server refuses to start and does not repeat it", () => {
    for (const METRICS_TOKEN of ["too-short-token", `${"x".repeat(20)} ${"y".repeat(20)}`]) {
      const attempt = () => parseConfig({ ...base, METRICS_TOKEN });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/^Invalid configuration: METRICS_TOKEN must/);
      expect(attempt).not.toThrow(METRICS_TOKEN);
    }
    expect(parseConfig({ ...base, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(parseConfig(base).metricsToken).toBeNull();
  });
});

describe("with METRICS_TOKEN", () => {
  let server: TestServer;
  let main: Awaited<ReturnType<typeof demoForm>>;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
    await seedDemo(server.db);
    main = await demoForm(server, "demo", "Workplace Misconduct Report");
    // A subscriber, so that a new report queues its mail job (the seed has none).
    const [demo] = await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "demo"));
    await server.db.insert(organisationEmailSubscribers).values({ organisationId: demo!.id, firstName: "Sam", lastName: "Subscriber", email: SUBSCRIBER });
  }, 60_000);
  afterAll(() => server.stop());

  test("a scrape without the token, or with another one, is refused with 401", async () => {
    const missing = await scrapeRequest(server, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const wrong = randomBytes(32).toString("hex");
    for (const authorization of [`Bearer ${wrong}`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, "Bearer "]) {
      const response = await scrapeRequest(server, authorization);
      expect(response.status).toBe(401);
      expect(await response.text()).toBe("Unauthorized");
    }
  });

  test("with the token, the product's host answers the exposition format; organisation hosts and the report login do not serve it", async () => {
    const response = await scrapeRequest(server, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const samples = parseExposition(await response.text());
    for (const name of [
      "lantern_websocket_connections",
      "lantern_password_hashing_in_progress",
      'lantern_password_hashing_waiting{lane="open"}',
      'lantern_password_hashing_waiting{lane="trusted"}',
      "lantern_upload_cleaning_in_progress",
      'lantern_upload_cleaning_waiting{lane="open"}',
      'lantern_upload_cleaning_waiting{lane="trusted"}',
      "lantern_mail_outbox_messages",
      "lantern_process_resident_memory_bytes",
      "lantern_process_uptime_seconds",
    ]) {
      expect(samples.has(name)).toBe(true);
    }
    expect(value(samples, "lantern_process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
    // Every background job has its series from the start, housekeeping too (its first round is minutes away).
    for (const job of ["notifier", "stale_message_reminders", "legal_deadline_reminders", "retention_sweep", "housekeeping", "legacy_sealing"]) {
      expect(samples.has(`lantern_job_runs_total{job="${job}"}`)).toBe(true);
      expect(samples.has(`lantern_job_failures_total{job="${job}"}`)).toBe(true);
    }
    // The start's background work ran: legacy sealing once, the notifier's first sweep.
    const legacy = await scrapeUntil(server, (s) => value(s, 'lantern_job_runs_total{job="legacy_sealing"}') >= 1);
    expect(value(legacy.samples, 'lantern_job_failures_total{job="legacy_sealing"}')).toBe(0);
    expect(legacy.samples.has('lantern_job_last_success_timestamp_seconds{job="legacy_sealing"}')).toBe(true);
    for (const host of ["demo.localhost", "login.localhost"]) expect((await scrapeRequest(server, `Bearer ${TOKEN}`, host)).status).toBe(404);
  });

  test("a completed report and a staff sign-in move the counters, and the page names none of them", async () => {
    const before = await scrape(server);
    const reporter = new ReporterClient(server, "demo.localhost", { "User-Agent": USER_AGENT, "X-Forwarded-For": "127.0.0.1" });
    const { reportID, generatedPassword } = await submitReport(reporter, main.form.id, main.widgets);
    const login = new ReporterClient(server, "demo.localhost", { "User-Agent": USER_AGENT });
    expect((await login.post("/api/auth/report_login", { reportID, password: generatedPassword })).status).toBe(200);
    const staff = await server.fetch("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": USER_AGENT },
      body: JSON.stringify({ email: STAFF_EMAIL, password: DEMO_PASSWORD, verifyToken: "" }),
    });
    expect(staff.status).toBe(200);
    expect(cookieFrom(staff, "lantern_session")).toBeTruthy();

    const mailRuns = 'lantern_job_runs_total{job="notify_new_report"}';
    // The new report's mail job runs a moment after the reporter's answer.
    const after = await scrapeUntil(server, (s) => value(s, mailRuns) > value(before.samples, mailRuns));
    const moved = (key: string) => value(after.samples, key) - value(before.samples, key);
    expect(moved('lantern_http_requests_total{route="/api/auth/report_start",method="POST",status="200"}')).toBe(1);
    expect(moved('lantern_http_requests_total{route="/api/auth/report_login",method="POST",status="200"}')).toBe(1);
    expect(moved('lantern_http_requests_total{route="/api/auth/login",method="POST",status="200"}')).toBe(1);
    expect(moved('lantern_http_requests_total{route="/api/gql/query",method="POST",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(moved('lantern_http_request_duration_seconds_count{route="/api/gql/query"}')).toBeGreaterThanOrEqual(2);
    expect(moved('lantern_http_request_duration_seconds_bucket{route="/api/auth/login",le="+Inf"}')).toBe(1);
    expect(moved(mailRuns)).toBe(1);
    expect(moved('lantern_job_failures_total{job="notify_new_report"}')).toBe(0);
    // The scrapes themselves are requests too, under their route, as every other.
    expect(moved('lantern_http_requests_total{route="/metrics",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);

    for (const secret of [reportID, generatedPassword, STAFF_EMAIL, SUBSCRIBER, DEMO_PASSWORD, "demo.localhost", "demo", "127.0.0.1", USER_AGENT, "MetricsProbeBrowser", main.form.id]) {
      expect(after.body).not.toContain(secret);
    }
  });

  test("an open WebSocket is counted while it is open", async () => {
    const gauge = "lantern_websocket_connections";
    const before = value((await scrape(server)).samples, gauge);
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/gql/query`, "graphql-transport-ws");
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    expect(value((await scrapeUntil(server, (s) => value(s, gauge) === before + 1)).samples, gauge)).toBe(before + 1);
    socket.close();
    expect(value((await scrapeUntil(server, (s) => value(s, gauge) === before)).samples, gauge)).toBe(before);
  });

  test("mail handed to the embedded outbox is counted, and the outbox's backlog is what lies in it", async () => {
    const sent = 'lantern_mail_sent_total{mailer="outbox",result="sent"}';
    const before = await scrape(server);
    const forgot = await server.fetch("/api/gql/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: "mutation ($email: String!) { forgotPassword(email: $email) }", variables: { email: STAFF_EMAIL } }),
    });
    expect(forgot.status).toBe(200);
    const after = await scrapeUntil(server, (s) => value(s, sent) > value(before.samples, sent));
    expect(value(after.samples, sent)).toBe(value(before.samples, sent) + 1);
    expect(value(after.samples, 'lantern_mail_sending{mailer="outbox"}')).toBe(0);
    expect(value(after.samples, "lantern_mail_outbox_messages")).toBe(readOutbox(server.dataDir).length);
    expect(readOutbox(server.dataDir).length).toBeGreaterThan(0);
    expect(after.body).not.toContain(STAFF_EMAIL);
  });

  test("the password hashing gate shows what runs and what waits, and empties", async () => {
    // Forty hashes take a second or more two at a time: the scrape lands while most still wait.
    const hashes = Array.from({ length: 40 }, (_, i) => hashPassword(`metrics-probe-${i}`));
    const busy = (await scrape(server)).samples;
    expect(value(busy, "lantern_password_hashing_in_progress")).toBe(2);
    expect(value(busy, 'lantern_password_hashing_waiting{lane="trusted"}')).toBeGreaterThan(0);
    await Promise.all(hashes);
    const idle = (await scrape(server)).samples;
    expect(value(idle, "lantern_password_hashing_in_progress")).toBe(0);
    expect(value(idle, 'lantern_password_hashing_waiting{lane="trusted"}')).toBe(0);
  });

  test("a scrape writes no access log line; another request does", async () => {
    const lines: string[] = [];
    const spy = spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
    });
    setLogLevel("info");
    try {
      await scrape(server);
      await server.fetch("/readyz");
      await server.fetch("/api/nothing-here");
    } finally {
      setLogLevel((process.env.TEST_LOG_LEVEL as "silent" | "error" | "info" | undefined) ?? "silent");
      spy.mockRestore();
    }
    const paths = lines.map((line) => (JSON.parse(line) as { path?: string }).path);
    expect(paths).toEqual(["/api/nothing-here"]);
  });

  test("a request with an unknown path, method and query string adds no series of its own", async () => {
    const before = await scrape(server);
    await server.fetch("/some/raw/path/7f3e?email=someone@example.org", { method: "PROPFIND" });
    await server.fetch("/api/no-such-route/12345");
    const after = await scrape(server);
    expect(after.body).not.toContain("/some/raw/path");
    expect(after.body).not.toContain("someone@example.org");
    expect(after.body).not.toContain("no-such-route");
    expect(after.body).not.toContain("PROPFIND");
    expect(value(after.samples, 'lantern_http_requests_total{route="/api/*",method="GET",status="404"}')).toBe(
      value(before.samples, 'lantern_http_requests_total{route="/api/*",method="GET",status="404"}') + 1,
    );
  });
});

describe("the exposition format", () => {
  test("a label value with a quote, a backslash or a line break still makes one well-formed line", () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    const counter = new Counter("lantern_test_escapes_total", "Help with a \\ and a\nline break.", ["what"]);
    counter.inc({ what: 'say "hi"\\\n' });
    const lines = counter.render().split("\n");
    expect(lines).toEqual(["# HELP lantern_test_escapes_total Help with a \\\\ and a\\nline break.", "# TYPE lantern_test_escapes_total counter", 'lantern_test_escapes_total{what="say \\"hi\\"\\\\\\n"} 1']);
    expect(parseExposition(`${lines.join("\n")}\n`).size).toBe(1);
  });
});
