/**
 * Chat delivery with many sockets open: half reporters, each on their own report's follow-up
 * chat, half staff, each on one of those reports' Messages tab (chat-sockets.ts). Messages then
 * go both ways at a constant rate, each sent as the pages send it (a GraphQL POST), and the time
 * from issuing the send to the event arriving on the other side's socket is recorded.
 *
 * Sessions: the reports are seeded (report-seed.ts) with the demo owner on their teams; each
 * reporter gets a session row from the server's own createReporterSession, which is what
 * report_login writes after its Argon2id check (that check costs ~50 ms of CPU each and is no part
 * of delivery). All staff sockets share one signed-in owner session, as tabs of one browser would.
 */
import { MAX_SOCKETS_PER_SESSION } from "../../api/graphql/socket-limits.ts";
import { REPORTER_COOKIE } from "../../api/modules/reporting/session-policy.ts";
import { createReporterSession } from "../../api/modules/reporting/sessions.ts";
import { SEND_MUTATION as STAFF_SEND } from "../../site/src/admin/features/reports/detail/chat-api.ts";
import { openDatabase } from "../../db/client.ts";
import { DEMO_SLUG } from "./demo.ts";
import { openChatSockets, type ChatEvent, type ChatSocketSpec, type Side } from "./chat-sockets.ts";
import { GRAPHQL_PATH } from "./lantern.ts";
import { readRssKib } from "./processes.ts";
import { percentile, runOpenLoop } from "./rate.ts";
import { formatCount, formatMs, type Row } from "./table.ts";
import { WARMUP_SECONDS } from "./wrk.ts";

/** A copy of the reporter area's send (site/src/islands/report-area/conversation.ts keeps it private). */
const REPORTER_SEND = `mutation ReportConversationSendMessage($message: String!) {
  reportConversationSendMessage(input: { type: Text, message: $message }) { id type message from createdAt read image { fileURL } } }`;
/** Descriptors the bench itself needs besides the sockets (stdio, Postgres, the server's pipes). */
const SPARE_FILES = 256;
/** How long after the last send a missing event still counts as on its way. */
const DRAIN_MS = 5_000;
const SETTLE_MS = 1_000;

export interface ChatDeliverySettings {
  base: string;
  serverPid: number;
  databaseUrl: string;
  organisationId: string;
  /** The submission ids of open reports whose team the owner leads, one per conversation. */
  submissionIds: string[];
  /**
   * The demo owner's `lantern_session=…` pairs, one session per `MAX_SOCKETS_PER_SESSION` staff
   * sockets: a session may hold only so many (decision 019), as a person's browser tabs would.
   */
  staffCookies: string[];
  /** How many staff sockets also hold the console's sidebar counts (see chat-sockets.ts). */
  sidebars: number;
  rate: number;
  seconds: number;
  progress(message: string): void;
}

interface Pending {
  issuedAt: number;
  to: Side;
  submissionId: string;
}

/** The soft "Max open files" of a process (Bun raises its own to the hard limit at start). */
async function openFileLimit(pid: number | "self"): Promise<number> {
  const limits = await Bun.file(`/proc/${pid}/limits`).text();
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === "unlimited" ? Number.POSITIVE_INFINITY : Number(soft);
}

async function checkFileLimits(serverPid: number, sockets: number): Promise<void> {
  for (const [who, pid] of [["this bench", "self"], ["the Lantern server", serverPid]] as const) {
    const limit = await openFileLimit(pid);
    if (limit < sockets + SPARE_FILES) {
      throw new Error(`${who} may open ${limit} files, too few for ${sockets} sockets: raise the hard limit (ulimit -Hn) or lower BENCH_CHAT_SOCKETS`);
    }
  }
}

/** One session per report, each cookie reaching only its own report. */
async function reporterCookies(databaseUrl: string, organisationId: string, submissionIds: string[]): Promise<string[]> {
  const database = await openDatabase({ kind: "postgres", url: databaseUrl, max: 4 });
  try {
    return await Promise.all(
      submissionIds.map(async (submissionId) => `${REPORTER_COOKIE}=${(await createReporterSession(database.db, organisationId, submissionId)).token}`),
    );
  } finally {
    await database.close();
  }
}

async function post(base: string, host: string, cookie: string, query: string, variables: Record<string, unknown>, signal: AbortSignal): Promise<void> {
  const response = await fetch(`${base}${GRAPHQL_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Host: host, Cookie: cookie },
    body: JSON.stringify({ query, variables }),
    signal,
  });
  const payload = (await response.json()) as { data?: { reportConversationSendMessage?: { id: string } | null } | null; errors?: { message: string }[] };
  if (!response.ok || payload.errors?.length || !payload.data?.reportConversationSendMessage?.id) {
    throw new Error(`the send answered ${response.status}: ${payload.errors?.[0]?.message ?? "no message"}`);
  }
}

/** Two rows: delivery p99 (with p50, max and delivered/expected), and the server's RSS with the sockets open. */
export async function measureChatDelivery(settings: ChatDeliverySettings): Promise<Row[]> {
  const pairs = settings.submissionIds.length;
  await checkFileLimits(settings.serverPid, pairs * 2);
  const port = new URL(settings.base).port;
  const staffHost = `127.0.0.1:${port}`;
  const reporterHost = `${DEMO_SLUG}.localhost:${port}`;
  const cookies = await reporterCookies(settings.databaseUrl, settings.organisationId, settings.submissionIds);
  const specs: ChatSocketSpec[] = settings.submissionIds.flatMap((submissionId, index) => [
    { side: "reporter" as const, submissionId, cookie: cookies[index]!, host: reporterHost },
    { side: "staff" as const, submissionId, cookie: settings.staffCookies[Math.floor(index / MAX_SOCKETS_PER_SESSION)]!, host: staffHost, sidebar: index < settings.sidebars },
  ]);

  const pending = new Map<string, Pending>();
  const delivered: number[] = [];
  let recording = false;
  const onEvent = (event: ChatEvent) => {
    const sent = event.action === "new" ? pending.get(event.text) : undefined;
    // Each side also hears its own message back; only the other side's copy is a delivery.
    if (!sent || sent.to !== event.side || sent.submissionId !== event.submissionId) return;
    pending.delete(event.text);
    if (recording) delivered.push(performance.now() - sent.issuedAt);
  };

  const idleRssKib = await readRssKib(settings.serverPid);
  settings.progress(`Postgres: opening ${formatCount(specs.length)} graphql-ws sockets (${pairs} reporters, ${pairs} staff)`);
  const sockets = await openChatSockets(settings.base, specs, onEvent);
  try {
    await Bun.sleep(SETTLE_MS);
    const openRssKib = await readRssKib(settings.serverPid);

    let sent = 0;
    const run = `${Date.now().toString(36)}`;
    // Round the conversations, alternating direction: staff to reporter, then reporter to staff.
    const issue = async (signal: AbortSignal) => {
      const i = sent++;
      const submissionId = settings.submissionIds[(i >> 1) % pairs]!;
      const fromStaff = i % 2 === 0;
      const text = `Bench ${run}-${i}: thank you, could you tell us a little more about what happened?`;
      pending.set(text, { issuedAt: performance.now(), to: fromStaff ? "reporter" : "staff", submissionId });
      try {
        if (fromStaff) await post(settings.base, staffHost, settings.staffCookies[0]!, STAFF_SEND, { id: submissionId, message: text }, signal);
        else await post(settings.base, reporterHost, cookies[(i >> 1) % pairs]!, REPORTER_SEND, { message: text }, signal);
      } catch (error) {
        pending.delete(text);
        throw error;
      }
    };
    settings.progress(`Postgres: chat messages at ${settings.rate}/s with ${formatCount(specs.length)} sockets open`);
    await runOpenLoop(settings.rate, WARMUP_SECONDS, issue);
    await drain(pending);
    pending.clear();
    recording = true;
    const sends = await runOpenLoop(settings.rate, settings.seconds, issue);
    await drain(pending);
    const expected = sends.sent - sends.errors;
    const latencies = delivered.sort((a, b) => a - b);
    if (latencies.length === 0) throw new Error(`no message was delivered (${sends.errors} sends failed${sends.firstError ? `, first: ${sends.firstError}` : ""})`);
    const problems = [
      ...(sends.errors > 0 ? [`${sends.errors} sends failed (first: ${sends.firstError})`] : []),
      ...(sockets.dropped() > 0 ? [`${sockets.dropped()} sockets dropped`] : []),
      ...(sockets.firstProblem() ? [`first problem: ${sockets.firstProblem()}`] : []),
    ];
    // Over every message sent, a lost one ranked after the slowest delivery: a p99 that lands on one is not known.
    const deliveredAt = (p: number) => {
      const rank = Math.max(1, Math.ceil((p / 100) * expected));
      return rank <= latencies.length ? formatMs(latencies[rank - 1]!) : "—";
    };
    const socketCount = formatCount(specs.length);
    const sidebars = settings.sidebars > 0 ? `, ${Math.min(settings.sidebars, pairs)} staff with the sidebar counts too` : "";
    return [
      {
        name: `Chat delivery, ${socketCount} sockets, p99 (Postgres)`,
        value: deliveredAt(99),
        unit: "ms",
        note:
          `p50 ${deliveredAt(50)} ms, max ${formatMs(latencies.at(-1)!)} ms; ${formatCount(latencies.length)}/${formatCount(expected)} delivered; ` +
          `${settings.rate}/s for ${settings.seconds} s, both ways; send call p99 ${formatMs(percentile(sends.latenciesMs, 99))} ms` +
          (problems.length ? `; ${problems.join("; ")}` : ""),
      },
      {
        name: `  server RSS, ${socketCount} sockets open`,
        value: (openRssKib / 1024).toFixed(1),
        unit: "MiB",
        note: `${(idleRssKib / 1024).toFixed(1)} MiB before they opened: ${formatCount((openRssKib - idleRssKib) / specs.length)} KiB a socket (2 subscriptions each${sidebars})`,
      },
    ];
  } finally {
    await sockets.close();
  }
}

/** Waits until every sent message has arrived, or DRAIN_MS have passed without that. */
async function drain(pending: Map<string, Pending>): Promise<void> {
  const deadline = performance.now() + DRAIN_MS;
  while (pending.size > 0 && performance.now() < deadline) await Bun.sleep(20);
}
