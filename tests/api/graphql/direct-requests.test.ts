import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp, type LanternApp } from "../../../api/app.ts";
import type { Ctx, Services } from "../../../api/context.ts";
import { directRequests } from "../../../api/graphql/direct-requests.ts";
import { schema } from "../../../api/graphql/schema.ts";
import { createGraphqlServer } from "../../../api/graphql/yoga.ts";
import { cookieCollector } from "../../../api/http/cookies.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * The direct path (api/graphql/direct-requests.ts) must answer every request exactly as Yoga's own
 * handling does: the same status, body and headers, security headers and cookies included. Each
 * request goes to two apps over the same services and database, one with the direct path and one
 * without, and the answers are compared whole. Each case also says whether the direct path takes
 * it, so a path that quietly handed everything to Yoga would fail here too.
 */

interface Case {
  name: string;
  /** Answered by the direct path itself, handed by it to Yoga, or refused before GraphQL (by the HTTP layer). */
  path: "direct" | "yoga" | "refused";
  init: { method?: string; headers?: Record<string, string>; body?: string; search?: string };
  /** Signed in as the member (a cached session) or anonymous. */
  signedIn?: boolean;
}

const json = (body: unknown) => JSON.stringify(body);
const JSON_TYPE = { "Content-Type": "application/json" };
const nested = (depth: number): string => (depth === 0 ? "name" : `ofType { ${nested(depth - 1)} }`);

const cases: Case[] = [
  { name: "a valid query", path: "direct", init: { body: json({ query: "{ __typename }" }) } },
  { name: "the signed-in viewer", path: "direct", signedIn: true, init: { body: json({ query: "{ viewer { id email role { name } } }" }) } },
  { name: "a named operation among two", path: "direct", signedIn: true, init: { body: json({ query: "query A { __typename } query B { viewer { id } }", operationName: "B" }) } },
  { name: "an empty operation name", path: "direct", signedIn: true, init: { body: json({ query: "{ viewer { id email } }", operationName: "" }) } },
  { name: "the viewer with variables", path: "direct", signedIn: true, init: { body: json({ query: "query ($all: Boolean!) { viewer { id email @include(if: $all) } }", variables: { all: false } }) } },
  { name: "two operations and no name", path: "direct", init: { body: json({ query: "query A { __typename } query B { __typename }" }) } },
  { name: "a syntax error", path: "direct", init: { body: json({ query: "{ viewer {" }) } },
  { name: "a misspelt field (suggestions)", path: "direct", init: { body: json({ query: "{ viewr { id } }" }) } },
  { name: "introspection", path: "direct", init: { body: json({ query: "{ __schema { queryType { name } } }" }) } },
  { name: "too deep", path: "direct", init: { body: json({ query: `{ __schema { types { fields { type { ${nested(24)} } } } } }` }) } },
  { name: "too many aliases", path: "direct", signedIn: true, init: { body: json({ query: `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: viewer { id }`).join(" ")} }` }) } },
  { name: "a variable of the wrong type", path: "direct", init: { body: json({ query: "query ($n: Int) { __typename }", variables: { n: "x" } }) } },
  { name: "a NUL in a text argument", path: "direct", signedIn: true, init: { body: json({ query: "query ($s: String) { tags(search: $s) { id } }", variables: { s: "a\u0000b" } }) } },
  { name: "a staff query, anonymous", path: "direct", init: { body: json({ query: "{ roles { name } }" }) } },
  { name: "a mutation refused to an anonymous caller", path: "direct", init: { body: json({ query: 'mutation { changePassword(oldPassword: "a", newPassword: "b") }' }) } },
  { name: "JSON with a charset", path: "direct", init: { headers: { "Content-Type": "application/json; charset=utf-8" }, body: json({ query: "{ __typename }" }) } },
  { name: "Accept: graphql-response+json, with an error", path: "direct", init: { headers: { ...JSON_TYPE, Accept: "application/graphql-response+json" }, body: json({ query: "{ viewr }" }) } },
  { name: "a browser's Accept list", path: "direct", init: { headers: { ...JSON_TYPE, Accept: "application/graphql-response+json, application/json, multipart/mixed" }, body: json({ query: "{ __typename }" }) } },
  { name: "null variables and extensions", path: "direct", init: { body: json({ query: "{ __typename }", variables: null, extensions: null, operationName: null }) } },
  { name: "Accept: text/event-stream", path: "yoga", init: { headers: { ...JSON_TYPE, Accept: "text/event-stream" }, body: json({ query: "{ __typename }" }) } },
  { name: "Accept: text/html (not acceptable)", path: "yoga", init: { headers: { ...JSON_TYPE, Accept: "text/html" }, body: json({ query: "{ __typename }" }) } },
  { name: "a batch", path: "yoga", init: { body: json([{ query: "{ __typename }" }, { query: "{ __typename }" }]) } },
  { name: "a body that is not JSON", path: "yoga", init: { body: "{ query: " } },
  { name: "a body that is JSON but no object", path: "yoga", init: { body: "42" } },
  { name: "an unknown parameter", path: "yoga", init: { body: json({ query: "{ __typename }", extra: 1 }) } },
  { name: "a query that is not a string", path: "yoga", init: { body: json({ query: 42 }) } },
  { name: "variables that are a list", path: "yoga", init: { body: json({ query: "{ __typename }", variables: [] }) } },
  { name: "no query", path: "yoga", init: { body: json({ variables: {} }) } },
  // Accept: JSON only, since Yoga would answer */* with an event stream that stays open.
  { name: "a subscription over POST", path: "yoga", signedIn: true, init: { headers: { ...JSON_TYPE, Accept: "application/json" }, body: json({ query: "subscription { organisationUserDisconnect }" }) } },
  { name: "a GET query", path: "yoga", init: { method: "GET", headers: {}, search: "?query=%7B__typename%7D" } },
  { name: "a GET mutation", path: "yoga", init: { method: "GET", headers: {}, search: "?query=mutation%7BchangePassword(oldPassword:%22a%22,newPassword:%22b%22)%7D" } },
  { name: "a body over the limit", path: "refused", init: { body: json({ query: `{ __typename }${" ".repeat(1024 * 1024)}` }) } },
  { name: "a form-encoded body", path: "refused", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "query=%7B__typename%7D" } },
  { name: "a plain-text body", path: "refused", init: { headers: { "Content-Type": "text/plain" }, body: json({ query: "{ __typename }" }) } },
  { name: "another site's page", path: "refused", init: { headers: { ...JSON_TYPE, Origin: "https://evil.example" }, body: json({ query: "{ __typename }" }) } },
  { name: "another site, by Sec-Fetch-Site", path: "refused", init: { headers: { ...JSON_TYPE, "Sec-Fetch-Site": "cross-site" }, body: json({ query: "{ __typename }" }) } },
];

interface Snapshot {
  status: number;
  body: string;
  headers: [string, string][];
}

async function snapshot(response: Response | undefined): Promise<Snapshot> {
  if (!response) throw new Error("no response");
  const headers = [...response.headers.entries()].filter(([name]) => name !== "set-cookie");
  for (const cookie of response.headers.getSetCookie()) headers.push(["set-cookie", cookie]);
  return { status: response.status, body: await response.text(), headers: headers.sort(([a], [b]) => a.localeCompare(b)) };
}

for (const production of [false, true]) {
  describe(production ? "in production" : "outside production", () => {
    let server: TestServer;
    let member: StaffClient;
    let services: Services;
    let direct: LanternApp;
    let yogaOnly: LanternApp;
    let orgId: string;

    beforeAll(async () => {
      server = await startTestServer(production ? { env: { NODE_ENV: "production" } } : {});
      services = server.lantern.services;
      const organisation = await createOrganisation(server.db);
      orgId = organisation.id;
      member = await loginAs(server, (await createUser(server.db, { role: "MEMBER", organisationId: orgId })).email, "correct-horse-1");
      direct = createApp(services, { siteRoot: "/nonexistent" });
      yogaOnly = createApp(services, { siteRoot: "/nonexistent", directGraphql: false });
    });
    afterAll(() => server.stop());

    const request = (init: Case["init"], cookie: string | null) => {
      const headers = new Headers(init.headers ?? JSON_TYPE);
      headers.set("Host", `localhost:${server.port}`);
      if (cookie) headers.set("Cookie", cookie);
      if (init.body !== undefined) headers.set("Content-Length", String(Buffer.byteLength(init.body)));
      return new Request(`${server.origin}/api/gql/query${init.search ?? ""}`, { method: init.method ?? "POST", headers, body: init.body });
    };
    const both = async (app: LanternApp, init: Case["init"], cookie: string | null) => snapshot(await app.fetch(request(init, cookie), server.lantern.server));

    test.each(cases)("$name: the same status, body and headers", async ({ init, signedIn }) => {
      const cookie = signedIn ? member.cookie : null;
      const expected = await both(yogaOnly, init, cookie);
      expect(await both(direct, init, cookie)).toEqual(expected);
      // And again: the second answer comes from the parse and validation caches.
      expect(await both(direct, init, cookie)).toEqual(expected);
      expect(expected.headers.map(([name]) => name)).toContain("content-security-policy");
    });

    test.each(cases.filter((c) => c.path !== "refused"))("$name: taken by the direct path, or handed to Yoga, as expected", async ({ init, path: expected }) => {
      const path = directRequests(createGraphqlServer({ production }), schema)!;
      const ctx: Ctx = { db: server.db, actor: { kind: "anonymous" }, host: { kind: "app", organisation: null }, services, cookies: cookieCollector(false).cookies };
      const answer = await path.answer(request(init, null), ctx);
      expect(answer instanceof Response ? "direct" : "yoga").toBe(expected);
    });

    test("a mutation that clears the session cookie answers with the same Set-Cookie", async () => {
      const answers: Snapshot[] = [];
      for (const app of [yogaOnly, direct]) {
        const user = await createUser(server.db, { role: "MEMBER", organisationId: orgId });
        const client = await loginAs(server, user.email, user.password);
        const body = json({ query: "mutation ($old: String!, $new: String!) { changePassword(oldPassword: $old, newPassword: $new) }", variables: { old: user.password, new: "another-horse-2" } });
        answers.push(await both(app, { body }, client.cookie));
      }
      expect(answers[0]!.body).toBe('{"data":{"changePassword":true}}');
      expect(answers[0]!.headers.filter(([name]) => name === "set-cookie").length).toBe(1);
      expect(answers[1]).toEqual(answers[0]!);
    });

    test("an unexpected resolver error is masked alike", async () => {
      // The viewer's lookup fails as a broken database would; the session itself is already cached.
      await member.gql("{ viewer { id } }");
      const brokenDb = new Proxy(services.database.db, {
        get(target, property, receiver) {
          if (property === "query") throw new Error('relation "secret_table" does not exist');
          return Reflect.get(target, property, receiver);
        },
      });
      const broken: Services = { ...services, database: { ...services.database, db: brokenDb } };
      const init = { body: json({ query: "{ viewer { id email } }" }) };
      const expected = await both(createApp(broken, { siteRoot: "/nonexistent", directGraphql: false }), init, member.cookie);
      expect(expected.body).toContain("Unexpected error.");
      expect(expected.body).not.toContain("secret_table");
      expect(await both(createApp(broken, { siteRoot: "/nonexistent" }), init, member.cookie)).toEqual(expected);
    });
  });
}
