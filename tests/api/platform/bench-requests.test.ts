import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { sentPercentile, type OpenLoopResult } from "../../../scripts/bench/rate.ts";
import { captureConsoleRequest, listVariables } from "../../../scripts/bench/report-list-latency.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * `bun run bench` times the report list as the console asks for it: the request it replays is
 * taken from the console's own GraphQL client, so it must be one the server answers.
 */
let server: TestServer;
let owner: StaffClient;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
});
afterAll(async () => {
  await server.stop();
});

describe("the report list request the bench replays", () => {
  test("is the console's first page: Active reports, newest first, 20 a page", async () => {
    const request = await captureConsoleRequest(listVariables(""));
    expect(request.path).toBe("/api/gql/query");
    expect(request.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request.body) as { operationName: string; query: string; variables: unknown };
    expect(body.operationName).toBe("ReportList");
    expect(body.variables).toEqual({
      search: { text: null, filter: "Active", sortBy: "DateCreated", sortDir: "Descending", organisationID: null, tagIDs: null },
      limit: 20,
      offset: 0,
    });
  });

  test("is answered with the demo owner's reports, and a search narrows them", async () => {
    const send = async (search: string) => {
      const request = await captureConsoleRequest(listVariables(search));
      const response = await owner.fetch(request.path, { method: "POST", headers: request.headers, body: request.body });
      return (await response.json()) as { data?: { reportSubmissions: { total: number; list: { reportID: string }[] } }; errors?: unknown[] };
    };
    const page = await send("");
    expect(page.errors).toBeUndefined();
    expect(page.data!.reportSubmissions.total).toBeGreaterThan(1);
    const reportID = page.data!.reportSubmissions.list[0]!.reportID;
    const searched = await send(reportID);
    expect(searched.errors).toBeUndefined();
    expect(searched.data!.reportSubmissions.list.map((row) => row.reportID)).toEqual([reportID]);
  });
});

describe("open-loop percentiles", () => {
  const result = (latenciesMs: number[], errors: number): OpenLoopResult => ({
    latenciesMs,
    sent: latenciesMs.length + errors,
    errors,
    timeouts: errors,
    firstError: null,
    achievedPerSecond: 0,
    maxStartLagMs: 0,
  });

  test("rank failed requests after the slowest answer", () => {
    const answers = Array.from({ length: 98 }, (_, i) => i + 1);
    expect(sentPercentile(result(answers, 2), 50)).toBe(50);
    expect(sentPercentile(result(answers, 2), 98)).toBe(98);
    // The 99th of 100 requests is a failure: its latency is not known.
    expect(sentPercentile(result(answers, 2), 99)).toBeNull();
    expect(sentPercentile(result(answers, 0), 99)).toBe(98);
  });
});
