/**
 * Report completion under load: N whole reporter journeys on the demo form, C at a time, each as a
 * reporter's browser makes it (docs/decisions/008-reporter-api.md): report_start, one
 * userReportSubmissionUpdate per page with valid answers, then userReportSubmissionComplete.
 * Completion stores the generated password with a fast salted hash (docs/decisions/005), so the
 * figure is the journey's queries and request handling.
 */
import { derivePages, DISPLAY_WIDGETS, pageHasContent, visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { demoTarget, findDemoForm, graphqlData, type HostTarget } from "./demo.ts";
import { GRAPHQL_PATH } from "./lantern.ts";
import type { BenchContext } from "./scenarios.ts";
import { failedRow, formatMs, type Row } from "./table.ts";
import { WARMUP_SECONDS } from "./wrk.ts";

const UPDATE = `mutation ($page: Int!, $answers: [ReportAnswerInput!]!) { userReportSubmissionUpdate(page: $page, answers: $answers) { success errors { field message } } }`;
const COMPLETE = `mutation { userReportSubmissionComplete { reportID } }`;
const COOKIE = "lantern_report";
/** A whole journey (six calls) must finish within this, or it counts as failed. */
const JOURNEY_TIMEOUT_MS = 60_000;

interface PagePlan {
  page: number;
  answers: { widgetID: string; answer: string[] }[];
}

function answerFor(widget: FormWidget): string[] {
  switch (widget.type) {
    case "Select":
    case "Radio":
    case "Checkbox":
      return widget.answers.slice(0, 1);
    case "Date":
      return ["2026-03-14"];
    default:
      return ["bench"];
  }
}

/** The pages a reporter fills (those with something visible), each with answers to its visible widgets. */
export function planPages(widgets: FormWidget[]): PagePlan[] {
  const all: Record<string, string[]> = {};
  for (const widget of widgets) if (!DISPLAY_WIDGETS.has(widget.type)) all[widget.id] = answerFor(widget);
  const visible = visibleWidgetIds(widgets, all);
  return derivePages(widgets)
    .filter((page) => pageHasContent(page, visible))
    .map((page) => ({
      page: page.index,
      answers: page.widgets.filter((widget) => visible.has(widget.id) && all[widget.id]?.length).map((widget) => ({ widgetID: widget.id, answer: all[widget.id]! })),
    }));
}

/**
 * What every journey sends, serialised once: the reporters' browsers are not on this machine, so the
 * bench's own client should spend as little of its CPU as it can (each journey's bodies are the same).
 */
export interface JourneyPlan {
  start: string;
  pages: { page: number; body: string }[];
  complete: string;
}

export function journeyPlan(formId: string, pages: PagePlan[]): JourneyPlan {
  return {
    start: JSON.stringify({ reportFormID: formId }),
    pages: pages.map(({ page, answers }) => ({ page, body: JSON.stringify({ query: UPDATE, variables: { page, answers } }) })),
    complete: JSON.stringify({ query: COMPLETE, variables: {} }),
  };
}

/** One JSON POST on the demo host; a journey's calls share one timeout. */
function post(target: HostTarget, path: string, body: string, signal: AbortSignal, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { Host: target.host, "Content-Type": "application/json" };
  if (cookie) headers.Cookie = cookie;
  return fetch(`${target.base}${path}`, { method: "POST", headers, body, signal });
}

/** One reporter, start to finish; returns the whole journey's and the complete call's milliseconds. */
export async function journey(target: HostTarget, plan: JourneyPlan): Promise<{ journeyMs: number; completeMs: number }> {
  const signal = AbortSignal.timeout(JOURNEY_TIMEOUT_MS);
  const startedAt = performance.now();
  const started = await post(target, "/api/auth/report_start", plan.start, signal);
  const text = await started.text();
  if (!started.ok) throw new Error(`report_start answered ${started.status}: ${text.slice(0, 120)}`);
  // Only name=value goes back in a Cookie header.
  const cookie = started.headers.getSetCookie().map((header) => header.split(";")[0]!).find((pair) => pair.startsWith(`${COOKIE}=`) && pair.length > COOKIE.length + 1);
  if (!cookie) throw new Error(`report_start set no ${COOKIE} cookie`);
  for (const { page, body } of plan.pages) {
    const { userReportSubmissionUpdate: result } = await graphqlData<{ userReportSubmissionUpdate: { success: boolean; errors: { field: string; message: string }[] } }>(
      await post(target, GRAPHQL_PATH, body, signal, cookie),
    );
    if (!result.success) throw new Error(`page ${page} refused: ${result.errors.map((error) => `${error.field}: ${error.message}`).join("; ") || "no reason given"}`);
  }
  const completeAt = performance.now();
  const done = await graphqlData<{ userReportSubmissionComplete: { reportID: string | null } | null }>(await post(target, GRAPHQL_PATH, plan.complete, signal, cookie));
  const finishedAt = performance.now();
  if (!done.userReportSubmissionComplete?.reportID) throw new Error("userReportSubmissionComplete returned no reportID");
  return { journeyMs: finishedAt - startedAt, completeMs: finishedAt - completeAt };
}

/** Nearest-rank percentile of already sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface JourneyStats {
  completed: number;
  failed: number;
  firstError: string | null;
  seconds: number;
  pages: number;
  journeyMs: number[];
  completeMs: number[];
}

async function runJourneys(target: HostTarget, total: number, concurrency: number): Promise<JourneyStats> {
  const { formId, widgets } = await findDemoForm(target);
  const pages = planPages(widgets);
  const plan = journeyPlan(formId, pages);
  // One journey first, outside the figures: a missing or refusing call then fails with its own message.
  await journey(target, plan);
  // Then the same warm-up as every wrk figure gets: journeys at the same concurrency, not counted.
  const warmUntil = performance.now() + WARMUP_SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < warmUntil) await journey(target, plan);
  }));
  const stats: JourneyStats = { completed: 0, failed: 0, firstError: null, seconds: 0, pages: pages.length, journeyMs: [], completeMs: [] };
  let next = 0;
  const startedAt = performance.now();
  const worker = async () => {
    while (next < total) {
      next += 1;
      try {
        const result = await journey(target, plan);
        stats.completed += 1;
        stats.journeyMs.push(result.journeyMs);
        stats.completeMs.push(result.completeMs);
      } catch (error) {
        stats.failed += 1;
        stats.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  stats.seconds = (performance.now() - startedAt) / 1000;
  return stats;
}

/** Three rows: completed reports/s, then p99 of the complete call and of a whole journey. */
export async function measureReports(ctx: BenchContext, base: string, setupError: unknown = null): Promise<Row[]> {
  const name = "Reports completed (Postgres)";
  try {
    if (setupError) throw setupError;
    ctx.progress(`Postgres: ${ctx.reports} reporter journeys, ${ctx.reportConcurrency} at a time`);
    const stats = await runJourneys(demoTarget(base), ctx.reports, ctx.reportConcurrency);
    if (stats.completed === 0) throw new Error(`all ${stats.failed} journeys failed: ${stats.firstError}`);
    const failures = stats.failed > 0 ? `${stats.failed} failed (first: ${stats.firstError})` : "0 failed";
    const journeys = stats.journeyMs.sort((a, b) => a - b);
    const completes = stats.completeMs.sort((a, b) => a - b);
    return [
      {
        name,
        value: (stats.completed / stats.seconds).toFixed(1),
        unit: "reports/s",
        note: `${stats.completed}/${ctx.reports} journeys, ${ctx.reportConcurrency} at a time (after a ${WARMUP_SECONDS} s warm-up): start + ${stats.pages} pages + complete; ${failures}`,
      },
      { name: "  complete call, p99", value: formatMs(percentile(completes, 99)), unit: "ms", note: `p50 ${formatMs(percentile(completes, 50))} ms` },
      { name: "  whole journey, p99", value: formatMs(percentile(journeys, 99)), unit: "ms", note: `p50 ${formatMs(percentile(journeys, 50))} ms` },
    ];
  } catch (error) {
    console.error(`bench: ${name} failed:`, error);
    return [failedRow(name, "reports/s", error)];
  }
}
