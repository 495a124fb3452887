import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { rawSocket } from "../../helpers/websocket.ts";

/** What a client gets back for a request that is not a proper GraphQL request, and what errors reveal. */

let development: TestServer;
let production: TestServer;

beforeAll(async () => {
  [development, production] = await Promise.all([startTestServer(), startTestServer({ env: { NODE_ENV: "production" } })]);
});
afterAll(() => Promise.all([development.stop(), production.stop()]));

type Result = { errors?: { message: string; extensions?: { code?: string } }[] };
const post = (server: TestServer, body: unknown) => server.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** Mistakes graphql-js answers with "Did you mean …?", naming parts of the schema. */
const misspelt: { name: string; body: Record<string, unknown> }[] = [
  { name: "a field", body: { query: "{ viewr { id } }" } },
  { name: "an argument", body: { query: "mutation { reportConversationUpdateUserStatus(statu: Online) }" } },
  { name: "an enum literal", body: { query: "mutation { reportConversationUpdateUserStatus(status: Onlin) }" } },
  { name: "a type", body: { query: "query ($s: PresenceStatu) { __typename }" } },
  { name: "an enum value in variables", body: { query: "mutation ($s: PresenceStatus!) { reportConversationUpdateUserStatus(status: $s) }", variables: { s: "Onlin" } } },
];

const messages = async (response: Response) => ((await response.json()) as Result).errors!.map((e) => e.message);

describe("schema suggestions", () => {
  test.each(misspelt)("outside production, a misspelt $name gets a suggestion", async ({ body }) => {
    expect((await messages(await post(development, body))).join(" ")).toContain("Did you mean");
  });

  test.each(misspelt)("in production, a misspelt $name is refused without naming anything else in the schema", async ({ body }) => {
    // Twice: the second answer comes from Yoga's validation cache.
    const errors = [...(await messages(await post(production, body))), ...(await messages(await post(production, body)))];
    expect(errors.length).toBeGreaterThan(1);
    for (const message of errors) {
      expect(message).not.toContain("Did you mean");
      expect(message).not.toMatch(/"(viewer|status|Online)"/);
    }
  });

  test("in production, the WebSocket leaves suggestions out too", async () => {
    const socket = await rawSocket(production, { origin: `https://localhost:${production.port}` });
    expect(socket.opened).toBe(true);
    socket.send(JSON.stringify({ type: "connection_init" }));
    misspelt.forEach(({ body }, i) => socket.send(JSON.stringify({ type: "subscribe", id: String(i), payload: body })));
    for (const [i] of misspelt.entries()) expect(await socket.waitFor((m) => m.id === String(i) && (m.type === "error" || m.type === "complete"))).toBe(true);
    const text = JSON.stringify(socket.messages);
    expect(text).toContain("Cannot query field");
    expect(text).not.toContain("Did you mean");
    socket.close();
  });
});

describe("requests that are not proper GraphQL requests get a 400 that says why", () => {
  const get = (query: string) => development.fetch(`/api/gql/query?${query}`);
  const TYPENAME = "query=%7B__typename%7D";

  test.each([
    ["variables that are not JSON", `${TYPENAME}&variables=not-json`, 'The "variables" parameter must be a JSON object.'],
    ["extensions that are not JSON", `${TYPENAME}&extensions=%7Bbroken`, 'The "extensions" parameter must be a JSON object.'],
    ["variables that are a JSON array", `${TYPENAME}&variables=%5B1%5D`, 'Expected "variables" param to be empty or an object, but given array.'],
    ["extensions that are a JSON string", `${TYPENAME}&extensions=%22x%22`, 'Expected "extensions" param to be empty or an object, but given string.'],
  ])("GET with %s", async (_name, query, message) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Result;
    expect(body.errors?.[0]?.message).toBe(message);
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });

  test("a request without a query says so", async () => {
    for (const response of [await get(""), await get("query="), await post(development, {}), await post(development, { variables: {} })]) {
      expect(response.status).toBeLessThan(500);
      expect(await messages(response)).toEqual(["Must provide query string."]);
    }
  });

  test.each([
    ["an array", [{ query: "{ __typename }" }], "Batching is not supported."],
    ["a number", 1, "POST body is expected to be object but received number"],
    ["null", null, "POST body is expected to be object but received null"],
    ["a query that is not a string", { query: 1 }, 'Expected "query" param to be a string, but given number.'],
    ["variables that are a string", { query: "{ __typename }", variables: "x" }, 'Expected "variables" param to be empty or an object, but given string.'],
  ])("a POST body that is %s", async (_name, body, message) => {
    const response = await post(development, body);
    expect(response.status).toBe(400);
    expect(await messages(response)).toEqual([message]);
  });

  test.each([
    ["nested selections", `{ ${"a { ".repeat(100_000)}b${" }".repeat(100_001)}`],
    ["nested list values", `{ a(x: ${"[".repeat(200_000)}${"]".repeat(200_000)}) }`],
  ])("a query of deeply %s is refused by the token limit before the parser runs out of stack", async (_name, query) => {
    const response = await post(development, { query });
    expect(response.status).toBeLessThan(500);
    expect(await messages(response)).toEqual(["Syntax Error: Document contains more than 5000 tokens. Parsing aborted."]);
  });

  test("a POST body that is not JSON at all", async () => {
    const response = await development.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{ viewer" });
    expect(response.status).toBe(400);
    expect((await messages(response))[0]).toMatch(/JSON/);
  });
});
