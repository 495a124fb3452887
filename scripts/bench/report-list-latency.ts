/**
 * Report list latency in a large organisation: the console's report list query, exactly as its
 * urql client sends it (captured from that client, below), for a signed-in demo owner, at a
 * constant rate with an open loop (rate.ts). Two variants: the default first page (Active, newest
 * first, 20 a page) and the same with a search text, which no index serves.
 */
import { createAdminClient } from "../../site/src/admin/graphql-client.ts";
import { LIST_QUERY } from "../../site/src/admin/features/reports/reports-api.ts";
import { DEFAULT_PARAMS, PAGE_SIZE } from "../../site/src/admin/features/reports/list/list-params.ts";
import { formatCount, formatMs, formatRatio, type Row } from "./table.ts";
import { OPEN_LOOP_TIMEOUT_MS, percentile, runOpenLoop, sentPercentile, type OpenLoopResult } from "./rate.ts";
import { WARMUP_SECONDS } from "./wrk.ts";

export interface ListLatencySettings {
  base: string;
  /** The demo owner's `lantern_session=…` pair. */
  cookie: string;
  /** How many reports the organisation holds, for the rows' names and the sanity check. */
  reports: number;
  /** A report ID from the middle of the history: what someone quoting their report would type. */
  searchText: string;
  rate: number;
  seconds: number;
  progress(message: string): void;
}

interface CapturedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}


/**
 * The variables report-list-page.tsx builds for page 1 of the default list, with or without a
 * search text, for a staff member of one organisation (no organisation or tag in the route).
 */
export function listVariables(search: string): Record<string, unknown> {
  return {
    search: { text: search || null, filter: DEFAULT_PARAMS.filter, sortBy: DEFAULT_PARAMS.sortBy, sortDir: DEFAULT_PARAMS.sortDir, organisationID: null, tagIDs: null },
    limit: PAGE_SIZE,
    offset: 0,
  };
}

/**
 * What the console's own urql client puts on the wire for the list query (its document
 * formatting adds __typename everywhere, its headers, POST): run once against a stand-in fetch.
 * The browser would add the session cookie itself; the caller adds it.
 */
export async function captureConsoleRequest(variables: Record<string, unknown>): Promise<CapturedRequest> {
  const realFetch = globalThis.fetch;
  let captured: CapturedRequest | null = null;
  const standIn = async (input: string | URL | Request, init?: RequestInit) => {
    captured = { path: String(input), headers: Object.fromEntries(new Headers(init?.headers).entries()), body: String(init?.body ?? "") };
    return Response.json({ data: { reportSubmissions: { total: 0, list: [] } } });
  };
  globalThis.fetch = Object.assign(standIn, { preconnect: realFetch.preconnect });
  try {
    const result = await createAdminClient(() => {}).query(LIST_QUERY, variables).toPromise();
    if (result.error) throw result.error;
  } finally {
    globalThis.fetch = realFetch;
  }
  if (!captured) throw new Error("the console's GraphQL client sent no request");
  return captured;
}

type ListPayload = { data?: { reportSubmissions?: { total: number; list: unknown[] } } | null; errors?: { message: string }[] };

async function sendList(base: string, request: CapturedRequest, cookie: string, signal?: AbortSignal): Promise<{ total: number; rows: number }> {
  const response = await fetch(`${base}${request.path}`, { method: "POST", headers: { ...request.headers, Cookie: cookie }, body: request.body, ...(signal ? { signal } : {}) });
  const payload = (await response.json()) as ListPayload;
  const list = payload.data?.reportSubmissions;
  if (!response.ok || payload.errors?.length || !list) throw new Error(`the report list answered ${response.status}: ${payload.errors?.[0]?.message ?? "no data"}`);
  return { total: list.total, rows: list.list.length };
}

/** Requests sent one after another before the run: the service time with no queue, for scale. */
const ALONE_REQUESTS = 10;

interface VariantResult {
  result: OpenLoopResult;
  total: number;
  /** Median of ALONE_REQUESTS requests sent one at a time. */
  aloneP50Ms: number;
}

async function measureVariant(settings: ListLatencySettings, search: string): Promise<VariantResult> {
  const request = await captureConsoleRequest(listVariables(search));
  // Checked once by hand, so the figures are for real pages of the seeded reports.
  const first = await sendList(settings.base, request, settings.cookie);
  if (!search && (first.total < settings.reports * 0.9 || first.rows !== PAGE_SIZE)) {
    throw new Error(`the list shows ${first.total} reports, ${first.rows} on page 1 (expected about ${settings.reports}, ${PAGE_SIZE})`);
  }
  if (search && first.total === 0) throw new Error(`searching "${search}" found nothing`);
  const alone: number[] = [];
  for (let i = 0; i < ALONE_REQUESTS; i += 1) {
    const startedAt = performance.now();
    await sendList(settings.base, request, settings.cookie);
    alone.push(performance.now() - startedAt);
  }
  const issue = async (signal: AbortSignal) => void (await sendList(settings.base, request, settings.cookie, signal));
  await runOpenLoop(settings.rate, WARMUP_SECONDS, issue);
  const result = await runOpenLoop(settings.rate, settings.seconds, issue);
  return { result, total: first.total, aloneP50Ms: percentile(alone.sort((a, b) => a - b), 50) };
}

/** A latency over all requests sent; past the answers it is the timeout's bound, or unknown for other failures. */
function latencyText(result: OpenLoopResult, p: number): string {
  const value = sentPercentile(result, p);
  if (value !== null) return formatMs(value);
  return result.timeouts === result.errors ? `>${formatCount(OPEN_LOOP_TIMEOUT_MS)}` : "—";
}

function note(settings: ListLatencySettings, variant: VariantResult, extra: string): string {
  const { result } = variant;
  const failures = result.errors > 0 ? `${formatCount(result.errors)} failed (${formatCount(result.timeouts)} timed out after ${OPEN_LOOP_TIMEOUT_MS / 1000} s; first: ${result.firstError})` : "0 errors";
  return (
    `p50 ${latencyText(result, 50)} ms, max ${latencyText(result, 100)} ms; ${formatCount(result.sent)} sent at ${settings.rate}/s open loop, ` +
    `achieved ${result.achievedPerSecond.toFixed(1)}/s, ${failures}; one at a time p50 ${formatMs(variant.aloneP50Ms)} ms${extra}`
  );
}

/** p99 and the rate achieved for the default page and with a search text, and how their costs compare. */
export async function measureListLatency(settings: ListLatencySettings): Promise<Row[]> {
  const reports = formatCount(settings.reports);
  settings.progress(`Postgres, ${reports} reports: report list page 1 at ${settings.rate} req/s`);
  const plain = await measureVariant(settings, "");
  settings.progress(`Postgres, ${reports} reports: report list searching "${settings.searchText}" at ${settings.rate} req/s`);
  const searched = await measureVariant(settings, settings.searchText);
  return [
    { name: `Report list, ${reports} reports, p99 (Postgres)`, value: latencyText(plain.result, 99), unit: "ms", note: note(settings, plain, `; page 1 of ${formatCount(plain.total)} Active, as the console asks`) },
    { name: "  page 1, achieved rate", value: plain.result.achievedPerSecond.toFixed(1), unit: "req/s", note: `answers a second while ${settings.rate}/s were sent` },
    { name: "  with a search text, p99", value: latencyText(searched.result, 99), unit: "ms", note: note(settings, searched, `; "${settings.searchText}", ${searched.total} found`) },
    { name: "  search, achieved rate", value: searched.result.achievedPerSecond.toFixed(1), unit: "req/s", note: `answers a second while ${settings.rate}/s were sent` },
    // Under load either figure may be past the timeout, so the two are compared by their cost alone.
    { name: "  search vs page 1, one at a time", value: formatRatio(searched.aloneP50Ms / plain.aloneP50Ms), unit: "of page 1", note: "p50 of 10 requests each, no queue" },
  ];
}
