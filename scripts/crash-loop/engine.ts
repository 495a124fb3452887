import { expect } from "bun:test";
import { fetchingServer, fetchOnPort, lanternHome } from "../../tests/helpers/lantern-process.ts";
import { freePort } from "../../tests/helpers/processes.ts";
import { demoMainForm, expectNothingHalfWritten, expectWholeReport, inPool } from "../../tests/helpers/ready-drafts.ts";
import { usingPostgres } from "../../tests/setup/template.ts";
import { checkAfterRestart } from "./checks.ts";
import { killFirstStarts, type FirstStartFigures } from "./first-start.ts";
import { killAll, launch, stop, waitUntilReady, type ServerProcess } from "./processes.ts";
import { describePlan, LOAD_WINDOW_MS, planCycles, seededRandom, STOP_KINDS, type CyclePlan, type StopKind } from "./schedule.ts";
import { emptyLedger, keepSignedIn, openConversation, prepareDrafts, startWriting, type Conversation } from "./workload.ts";

/**
 * The crash loop (docs/decisions/069-crash-loop.md): start the server, let reporters complete
 * reports and a case handler write notes and messages, stop the server one of six ways at a random
 * moment, start it again and check that nothing acknowledged is lost and nothing half-written shows.
 * `bun run crash-loop` (scripts/crash-loop/index.ts) runs it long, the suite short.
 */

export interface CrashLoopOptions {
  cycles: number;
  seed: number;
  /** Reporters completing a report in each cycle. */
  reporters: number;
  /** SIGKILLs of a first start on an empty database, before the cycles (3 unless told). */
  firstStartKills?: number;
  log?: (line: string) => void;
}

export interface CrashLoopSummary {
  database: "pglite" | "postgres";
  seed: number;
  cycles: number;
  /** Per kind of stop: how many cycles, and how the process ended (exit code or signal) how often. */
  kinds: Record<StopKind, { cycles: number; ended: Record<string, number> }>;
  /** Before the cycles, on an empty database of its own: SIGKILLs during a first start, its migrations and seed. */
  firstStarts: FirstStartFigures;
  /** sigkill-starting cycles whose kill came before the server was ready. */
  killedBeforeReady: number;
  /** Completions acknowledged when sent. */
  reportsAcknowledged: number;
  /** Completions sent but not answered (the server stopped under them) that completed when sent again after the restart, read back whole too. */
  completedOnRetry: number;
  /** Completions not yet sent when the server stopped, sent after the restart. */
  completedAfterRestart: number;
  notesAcknowledged: number;
  messagesAcknowledged: number;
  seconds: number;
}

/** The stops that must end in the graceful stop (exit 0): decision 056, and 069 for the signals to the group of `bun run start`. */
const GRACEFUL: ReadonlySet<StopKind> = new Set(["sigterm", "group-sigterm", "group-double-sigterm"]);
/** Started as `bun run start`, in a process group of its own. */
const VIA_START: ReadonlySet<StopKind> = new Set(["group-sigterm", "group-double-sigterm"]);

export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopSummary> {
  const log = options.log ?? (() => {});
  const began = performance.now();
  const plans = planCycles(options.seed, options.cycles);
  // The completions' moments come from the seed too, drawn apart from the plan's.
  const random = seededRandom(options.seed ^ 0x5bd1e995);
  const kinds = Object.fromEntries(STOP_KINDS.map((kind) => [kind, { cycles: 0, ended: {} as Record<string, number> }])) as CrashLoopSummary["kinds"];
  const ledger = emptyLedger();
  const preparedIds = new Set<string>();
  let killedBeforeReady = 0;
  let completedOnRetry = 0;
  let completedAfterRestart = 0;

  const firstStarts = await killFirstStarts(options.firstStartKills ?? 3, random, log);
  const home = await lanternHome();
  try {
    const form = await home.withDatabase(demoMainForm);
    // One address for the whole run, as an operator's: the clients' cookies and pages simply go on.
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = fetchingServer({ port, fetch: fetchOnPort(port) });
    let conversation: Conversation | null = null;
    // How long a start takes here, for sigkill-starting's moment: measured as the loop goes.
    let startMs = 3_000;

    const startAndCheck = async (viaStart: boolean): Promise<{ lantern: ServerProcess; conversation: Conversation }> => {
      const startedAt = performance.now();
      const lantern = launch(home, port, viaStart);
      await waitUntilReady(lantern, origin);
      if (!viaStart) startMs = (startMs + (performance.now() - startedAt)) / 2;
      conversation ??= await openConversation(server, form);
      await keepSignedIn(server, conversation);
      const figures = await checkAfterRestart(server, conversation, ledger, form.formId, preparedIds);
      completedOnRetry += figures.retried;
      completedAfterRestart += figures.sentLate;
      return { lantern, conversation };
    };

    for (const plan of plans) {
      const label = `cycle ${plan.cycle}/${options.cycles} ${describePlan(plan)}`;
      log(label);
      kinds[plan.kind].cycles += 1;
      try {
        const ended = plan.kind === "sigkill-starting" ? await killWhileStarting(plan) : await cycleUnderLoad(plan);
        kinds[plan.kind].ended[ended] = (kinds[plan.kind].ended[ended] ?? 0) + 1;
      } catch (error) {
        throw new Error(`${label} (seed ${options.seed}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }

    async function killWhileStarting(plan: CyclePlan): Promise<string> {
      const lantern = launch(home, port, false);
      const ready = waitUntilReady(lantern, origin).then(
        () => true,
        () => false,
      );
      const readyFirst = await Promise.race([ready, Bun.sleep(plan.moment * startMs).then(() => false)]);
      const outcome = await stop(lantern, plan);
      if (!readyFirst && !(await ready)) killedBeforeReady += 1;
      log(`  killed ${readyFirst ? "after" : "before"} ready`);
      return String(outcome.ended);
    }

    async function cycleUnderLoad(plan: CyclePlan): Promise<string> {
      const { lantern, conversation } = await startAndCheck(VIA_START.has(plan.kind));
      const drafts = await prepareDrafts(server, form, options.reporters, plan.cycle);
      for (const draft of drafts) preparedIds.add(draft.submissionId);
      const before = { reports: ledger.reports.length, notes: ledger.notes.size, messages: ledger.messages.size };
      const writing = startWriting(plan.cycle, drafts, conversation, ledger, random, LOAD_WINDOW_MS);
      await Bun.sleep(plan.moment);
      writing.halt();
      const outcome = await stop(lantern, plan);
      await writing.done;
      log(
        `  ended ${outcome.ended}; acknowledged ${ledger.reports.length - before.reports} of ${drafts.length} completions, ` +
          `${ledger.notes.size - before.notes} notes, ${ledger.messages.size - before.messages} messages`,
      );
      if (GRACEFUL.has(plan.kind)) expect({ kind: plan.kind, ended: outcome.ended, stderr: (await lantern.stderr).trim() }).toEqual({ kind: plan.kind, ended: 0, stderr: expect.any(String) });
      return String(outcome.ended);
    }

    // The last start: everything acknowledged in any cycle is read back whole, then the tables are read.
    const last = await startAndCheck(false);
    await inPool(ledger.reports, 8, ({ draft, credentials }) => expectWholeReport(server, draft, credentials));
    const outcome = await stop(last.lantern, { cycle: 0, kind: "sigterm", moment: 0 });
    expect(outcome.ended).toBe(0);
    await home.withDatabase((db) => expectNothingHalfWritten(db, ledger.reports));
    log(`all ${ledger.reports.length} acknowledged reports read back whole after the last start`);
  } finally {
    await killAll();
    await home.remove();
  }
  return {
    database: usingPostgres() ? "postgres" : "pglite",
    seed: options.seed,
    cycles: options.cycles,
    kinds,
    firstStarts,
    killedBeforeReady,
    reportsAcknowledged: ledger.reports.length - completedOnRetry - completedAfterRestart,
    completedOnRetry,
    completedAfterRestart,
    notesAcknowledged: ledger.notes.size,
    messagesAcknowledged: ledger.messages.size,
    seconds: Math.round((performance.now() - began) / 1000),
  };
}
