import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { collect, rawSocket, wsClient } from "../../helpers/websocket.ts";
import { untilListening } from "../../helpers/live-topics.ts";
import { userDisconnectTopic } from "../../../api/modules/auth/events.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { getIntrospectionQuery } from "graphql";
import { maskError } from "../../../api/graphql/errors.ts";

let server: TestServer;
let member: StaffClient;
let memberId: string;
let memberLogin: { email: string; password: string };

beforeAll(async () => {
  server = await startTestServer();
  const organisation = await createOrganisation(server.db);
  const user = await createUser(server.db, { role: "MEMBER", organisationId: organisation.id });
  member = await loginAs(server, user.email, user.password);
  memberId = user.id;
  memberLogin = { email: user.email, password: user.password };
});
afterAll(() => server.stop());

const post = (body: unknown) =>
  server.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("limits", () => {
  test("queries deeper than the limit are refused", async () => {
    const ok = (await (await post({ query: "{ viewer { organisation { usage { activeUsers } } role { name } } }" })).json()) as object;
    expect(ok).not.toHaveProperty("errors");
    const nested = (depth: number): string => (depth === 0 ? "name" : `ofType { ${nested(depth - 1)} }`);
    const result = (await (await post({ query: `{ __schema { types { fields { type { ${nested(24)} } } } } }` })).json()) as { errors?: { message: string }[] };
    expect(result.errors?.[0]?.message).toMatch(/depth/i);
  });

  test("too many aliases are refused", async () => {
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: viewer { id }`).join(" ");
    const result = (await (await post({ query: `{ ${aliases} }` })).json()) as { errors?: { message: string }[] };
    expect(result.errors?.[0]?.message).toMatch(/alias/i);
  });

  test("batched requests are not accepted", async () => {
    const response = await post([{ query: "{ __typename }" }, { query: "{ __typename }" }]);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  test("malformed queries are a 400 with a message, never a stack trace", async () => {
    const response = await post({ query: "{ viewer {" });
    const text = await response.text();
    expect(response.status).toBeLessThan(500);
    expect(text).toContain("Syntax Error");
    expect(text).not.toContain("at ");
  });

  test("unexpected errors are masked", () => {
    const masked = maskError(new Error("relation \"secret_table\" does not exist"));
    expect(masked.message).toBe("Unexpected error.");
    expect(JSON.stringify(masked.toJSON())).not.toContain("secret_table");
  });
});

describe("introspection", () => {
  test("is available outside production and off in production", async () => {
    const query = { query: "{ __schema { queryType { name } } }" };
    const open = (await (await post(query)).json()) as { data?: unknown };
    expect(open.data).toEqual({ __schema: { queryType: { name: "Query" } } });
    // Tools' standard introspection query stays within the depth limit.
    const full = (await (await post({ query: getIntrospectionQuery() })).json()) as { errors?: unknown };
    expect(full.errors).toBeUndefined();
    const production = await startTestServer({ env: { NODE_ENV: "production" } });
    try {
      const response = await production.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(query) });
      const closed = (await response.json()) as { errors?: { message: string }[] };
      expect(closed.errors?.[0]?.message).toMatch(/introspection/i);
      expect(response.headers.get("Strict-Transport-Security")).toContain("max-age");
    } finally {
      await production.stop();
    }
  });
});

describe("subscriptions over graphql-ws on the same path", () => {
  test("a staff socket shares the HTTP context: signing out fires organisationUserDisconnect", async () => {
    const client = wsClient(server, member.cookie);
    const subscription = collect<{ data: { organisationUserDisconnect: boolean } }>(client, "subscription { organisationUserDisconnect }", 1);
    await untilListening(server, userDisconnectTopic(memberId));
    expect((await member.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
    await subscription.done;
    expect(subscription.results[0]?.data.organisationUserDisconnect).toBe(true);
    subscription.dispose();
    await client.dispose();
  });

  test("an anonymous socket cannot subscribe to staff events", async () => {
    const client = wsClient(server, "");
    const subscription = collect<{ data?: unknown; errors?: { message: string }[] }>(client, "subscription { organisationUserDisconnect }", 1);
    await subscription.done;
    const messages = [...subscription.results.flatMap((r) => r.errors ?? []), ...(subscription.errors.flat() as { message: string }[])].map((e) => e.message);
    expect(messages).toContain("You must login to view this page");
    await client.dispose();
  });

  // A signed-in socket: one without a session is closed long before, once idle (decision 063).
  test("the server keeps the socket alive with a ping every 10 seconds", async () => {
    const signedIn = await loginAs(server, memberLogin.email, memberLogin.password);
    const socket = await rawSocket(server, { cookie: signedIn.cookie });
    socket.send(JSON.stringify({ type: "connection_init" }));
    await Bun.sleep(10_500);
    expect(socket.messages.map((m) => (m as { type: string }).type)).toEqual(["connection_ack", "ping"]);
    socket.close();
  }, 20_000);
});


describe("cross-site request forgery", () => {
  test("form-encoded and plain-text posts, which need no preflight, never reach GraphQL", async () => {
    for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
      const response = await member.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": type }, body: "query=%7B%20viewer%20%7B%20id%20%7D%20%7D" });
      expect(response.status).toBe(415);
    }
  });
});
