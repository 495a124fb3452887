import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NUL_NOT_ALLOWED } from "../../../api/shared/limits.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { textPositions } from "./schema-sweep.ts";
import { startSweep, sweepOverHttp, sweepSubscriptions, type GqlAnswer } from "./sweep-actors.ts";

/**
 * Postgres refuses U+0000 in text with an error. Every String and ID a client can send, as
 * everyone who can send it, must come back as the client's mistake, and change nothing.
 */

let sweep: Awaited<ReturnType<typeof startSweep>>;

beforeAll(async () => {
  sweep = await startSweep();
}, 60_000);
afterAll(() => sweep.server.stop());

const WITH_NUL = "before\u0000after";

describe("a NUL character in any text argument", () => {
  test("the schema has text arguments to sweep", () => {
    const labels = textPositions().map((position) => position.label);
    expect(labels.length).toBeGreaterThan(50);
    expect(labels).toContain("tagCreate(name)");
    expect(labels).toContain("reportSubmissions(search.text)");
  });

  test("is refused as the client's error, for every actor, over HTTP, changing nothing", async () => {
    const before = await sweep.auditCount();
    expect(await sweepOverHttp(sweep, WITH_NUL, () => NUL_NOT_ALLOWED)).toEqual([]);
    expect(await sweep.auditCount()).toBe(before);
    // Still serving.
    expect((await sweep.actors[1]!.post("{ viewer { id } }", {})).body.errors).toBeUndefined();
  }, 120_000);

  test("is refused for every subscription argument over graphql-ws", async () => {
    expect(await sweepSubscriptions(sweep, WITH_NUL, () => NUL_NOT_ALLOWED)).toEqual([]);
  }, 60_000);

  test("is refused when a query runs over graphql-ws", async () => {
    const client = wsClient(sweep.server, sweep.staff.owner.cookie);
    try {
      const run = collect<GqlAnswer["body"]>(client, `query ($search: String) { tags(search: $search) { total } }`, 1, { search: WITH_NUL });
      await run.done;
      expect(run.results[0]?.errors?.[0]).toMatchObject({ message: NUL_NOT_ALLOWED, extensions: { code: "BAD_USER_INPUT" } });
    } finally {
      await client.dispose();
    }
  });

  test("is refused inline in the document, escaped or as a block string, in a fragment and in a variable's default", async () => {
    const owner = sweep.actors[2]!;
    const before = await sweep.auditCount();
    const documents = [
      `mutation { tagCreate(name: "inline\\u0000tag") { id } }`,
      `query { tags(search: """block\u0000""") { total } }`,
      `query ($s: String = "def\\u0000ault") { users(search: $s) { total } }`,
      `query { reportSubmissions(search: { text: "x\\u0000" }) { total } }`,
      `query { ...T } fragment T on Query { tags(search: "frag\\u0000ment") { total } }`,
    ];
    for (const document of documents) {
      expect(await owner.post(document, {})).toMatchObject({ status: 200, body: { errors: [{ message: NUL_NOT_ALLOWED, extensions: { code: "BAD_USER_INPUT" } }] } });
    }
    // An unescaped NUL in a string is not even a valid document: still the client's error.
    const raw = await owner.post(`mutation { tagCreate(name: "raw\u0000tag") { id } }`, {});
    expect(raw.status).toBeLessThan(500);
    expect(raw.body.errors?.[0]?.extensions?.code).not.toBe("INTERNAL_SERVER_ERROR");
    expect(await sweep.auditCount()).toBe(before);
  });

  test("is refused in a GET request's query string", async () => {
    const params = new URLSearchParams({ query: "query ($s: String) { tags(search: $s) { total } }", variables: JSON.stringify({ s: WITH_NUL }) });
    const response = await sweep.staff.owner.fetch(`/api/gql/query?${params}`, { headers: { Accept: "application/json" } });
    expect(response.status).toBeLessThan(500);
    expect(((await response.json()) as GqlAnswer["body"]).errors?.[0]?.message).toBe(NUL_NOT_ALLOWED);
  });
});
