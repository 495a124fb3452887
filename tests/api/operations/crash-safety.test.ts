import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchingServer, lanternHome, spawnLantern, type LanternHome } from "../../helpers/lantern-process.ts";
import { complete, expectNothingHalfWritten, expectWholeReport, formsForDrafts, inPool, readyDrafts, type Credentials, type DemoMainForm } from "../../helpers/ready-drafts.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * `kill -9` of the server while reporters complete their reports at once (decision 056): every
 * completion the server acknowledged is there after the restart, whole (answers, file, password);
 * no report is half-written; a reporter whose call failed completes again and gets one report.
 */

const REPORTS = usingPostgres() ? 1_000 : 200;

let home: LanternHome;
let forms: DemoMainForm[];
beforeAll(async () => {
  home = await lanternHome();
  forms = await home.withDatabase((db) => formsForDrafts(db, REPORTS));
}, 120_000);
afterAll(() => home.remove());

describe("crash safety", () => {
  test(`kill -9 during ${REPORTS} concurrent completions loses no acknowledged report and leaves none half-written`, async () => {
    const first = await spawnLantern(home);
    const drafts = await readyDrafts(fetchingServer(first), forms, REPORTS, "crash");

    // Every completion at once; the process is killed once a quarter of them are acknowledged.
    const acknowledged = new Map<number, Credentials>();
    let answered = 0;
    let killedWhileOpen = -1;
    const killAt = Math.ceil(REPORTS / 4);
    await Promise.all(
      drafts.map(async (draft) => {
        const credentials = await complete(draft);
        if (killedWhileOpen >= 0) return;
        answered += 1;
        if (credentials) acknowledged.set(draft.index, credentials);
        if (acknowledged.size >= killAt) {
          killedWhileOpen = REPORTS - answered;
          first.child.kill(9);
        }
      }),
    );
    expect(await first.child.exited).not.toBe(0);
    // The kill came while completions were still under way: the test saw the crash it is about.
    expect(killedWhileOpen).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAt);

    // Restarted as an operator would, on the same address: the reporters' pages simply try again.
    const second = await spawnLantern(home, { port: first.port });
    const server = fetchingServer(second);
    // Every acknowledged completion is there and whole: the reporter signs in, reads it, downloads the file.
    await inPool([...acknowledged], 16, ([index, credentials]) => expectWholeReport(server, drafts[index]!, credentials));

    // The others complete again from the same page, safely: each gets working credentials for one report.
    const retried = new Map<number, Credentials>();
    const unacknowledged = drafts.filter((draft) => !acknowledged.has(draft.index));
    await inPool(unacknowledged, 16, async (draft) => {
      const credentials = await complete(draft);
      expect({ index: draft.index, completed: Boolean(credentials) }).toEqual({ index: draft.index, completed: true });
      retried.set(draft.index, credentials!);
    });
    await inPool(unacknowledged, 16, (draft) => expectWholeReport(server, draft, retried.get(draft.index)!));

    second.child.kill("SIGTERM");
    expect(await second.child.exited).toBe(0);
    const credentials = new Map([...acknowledged, ...retried]);
    await home.withDatabase((db) => expectNothingHalfWritten(db, drafts.map((draft) => ({ draft, credentials: credentials.get(draft.index)! }))));
  }, 600_000);
});
