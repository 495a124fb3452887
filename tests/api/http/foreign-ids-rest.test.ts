import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startForeignWorld, type ForeignWorld } from "../../helpers/foreign-world.ts";
import { organisationRows } from "../../helpers/organisation-rows.ts";

/**
 * The REST side of decision 065: a route given another organisation's id (in its path or its
 * JSON body) answers exactly as it does an id that names nothing, whatever else the request
 * holds, and changes nothing there. Every route of the app with a path parameter is a case
 * here or named as not applicable; ids in bodies are listed by hand.
 */

type Asker = "owner" | "reporter" | "drafter" | "visitor";

interface RestCase {
  as: Asker;
  method: string;
  path: (id: string) => string;
  body?: (id: string) => Record<string, unknown>;
  /** B's object named by the id. */
  foreign: (world: Record<string, string>) => string;
  /** Set where B's id is rightly not refused as not found (say, a filter that finds nothing of B's): why. The answers must still be identical. */
  alike?: string;
}

/** A search a list would refuse, so an export judged before its ids are would say so. */
const BAD_SEARCH = { filter: "NotAFilter", sortBy: "nothing", dateFilter: { from: "yesterday", to: "never" } };

const ONLY_A_FILTER = "the form narrows the reports the asker sees and is never looked up: another's, like an unknown one, matches none of them";

const PATH_CASES: Record<string, RestCase> = {
  "GET /api/report-submissions/export/:id": { as: "owner", method: "GET", path: (id) => `/api/report-submissions/export/${id}`, foreign: (w) => w.report! },
  "GET /api/files/report-attachments/:id": { as: "owner", method: "GET", path: (id) => `/api/files/report-attachments/${id}`, foreign: (w) => w.attachment! },
  "DELETE /api/files/report-attachments/:id": { as: "drafter", method: "DELETE", path: (id) => `/api/files/report-attachments/${id}`, foreign: (w) => w.attachment! },
  "GET /api/files/avatars/:blobId": { as: "owner", method: "GET", path: (id) => `/api/files/avatars/${id}`, foreign: (w) => w.avatar! },
  "GET /api/files/chat-images/:messageId": { as: "owner", method: "GET", path: (id) => `/api/files/chat-images/${id}`, foreign: (w) => w.message! },
};

/** The two report exports take the list's search: a form id and an organisation's. */
const exportCases = (route: string): Record<string, RestCase> => ({
  [`POST /api/report-submissions/${route} (reportFormID)`]: {
    as: "owner",
    method: "POST",
    path: () => `/api/report-submissions/${route}`,
    body: (id) => ({ reportFormID: id, search: BAD_SEARCH }),
    foreign: (w) => w.form!,
    alike: ONLY_A_FILTER,
  },
  [`POST /api/report-submissions/${route} (search.organisationID)`]: {
    as: "owner",
    method: "POST",
    path: () => `/api/report-submissions/${route}`,
    body: (id) => ({ search: { ...BAD_SEARCH, organisationID: id } }),
    foreign: (w) => w.demo!,
  },
});

const BODY_CASES: Record<string, RestCase> = {
  ...exportCases("export-all"),
  ...exportCases("download-csv"),
  "POST /api/auth/report_start (reportFormID)": {
    as: "visitor",
    method: "POST",
    path: () => "/api/auth/report_start",
    body: (id) => ({ reportFormID: id, answers: [{ widgetID: "no such widget", answer: ["x"] }] }),
    foreign: (w) => w.form!,
  },
};

/** Path parameters that name nothing of one organisation's, and why. */
const NOT_APPLICABLE: Record<string, string> = {
  "GET /api/files/resource-documents/:id": "help documents are the product's: every staff member who may read resources reads them all",
  "GET /api/files/organisation-logo/:organisationId": "an organisation's logo is public: its reporter pages show it to anyone",
};

let started: ForeignWorld;

beforeAll(async () => {
  started = await startForeignWorld();
}, 120_000);
afterAll(() => started.server.stop());

async function send(run: RestCase, id: string): Promise<{ status: number; body: string }> {
  const init: RequestInit = { method: run.method };
  if (run.body) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(run.body(id));
  }
  const response = run.as === "owner" ? await started.staff.owner.fetch(run.path(id), init) : await started.reporters[run.as].fetch(run.path(id), init);
  return { status: response.status, body: await response.text() };
}

describe("another organisation's id in a REST request", () => {
  test("every route with a path parameter is a case here or named as not applicable", () => {
    const seen = new Set<string>();
    const routes = started.server.lantern.app.hono.routes
      .filter((route) => route.method !== "ALL" && route.path.includes("/:"))
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !seen.has(route) && seen.add(route));
    expect([...Object.keys(PATH_CASES), ...Object.keys(NOT_APPLICABLE)].sort()).toEqual(routes.sort());
  });

  test("is answered as an unknown id is, not found, whatever else the request holds, and changes nothing there", async () => {
    const faults: string[] = [];
    for (const [label, run] of Object.entries({ ...PATH_CASES, ...BODY_CASES })) {
      const before = await organisationRows(started.server, started.world.demo!);
      const foreign = await send(run, run.foreign(started.world));
      const unknown = await send(run, crypto.randomUUID());
      if (run.alike) {
        if (foreign.status !== unknown.status || foreign.body !== unknown.body) faults.push(`${label}: ${foreign.status} ${foreign.body} but for an unknown id ${unknown.status} ${unknown.body}`);
      } else if (foreign.status !== 404) faults.push(`${label}: ${foreign.status} ${foreign.body.slice(0, 200)}`);
      else if (foreign.body !== unknown.body || unknown.status !== 404) faults.push(`${label}: ${foreign.body} but for an unknown id ${unknown.status} ${unknown.body}`);
      if ((await organisationRows(started.server, started.world.demo!)) !== before) faults.push(`${label}: changed organisation B`);
    }
    expect(faults).toEqual([]);
  }, 60_000);
});
