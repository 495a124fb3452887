import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";

/**
 * The newcomer's path: the server started with no DATABASE_URL on an empty DATA_DIR seeds the demo,
 * the demo owner signs in, one organisation cannot reach the other, and a restart keeps every row
 * without seeding twice.
 */
const MAIN = join(import.meta.dir, "..", "..", "..", "api", "main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "lantern-demo-"));
let port: number;
let child: Subprocess | null = null;

async function start(): Promise<void> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  child = Bun.spawn(["bun", MAIN], { env, stdout: "ignore", stderr: "inherit" });
  expect(await waitForReady(`http://127.0.0.1:${port}`, 90_000)).toBe(true);
}

async function stop(): Promise<void> {
  child?.kill("SIGTERM");
  await child?.exited;
  child = null;
}

async function login(email: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, verifyToken: "" }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

async function gql<T>(cookie: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/api/gql/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: { message: string }[] };
}

const USERS = `query ($search: String, $organisationID: ID) { users(search: $search, organisationID: $organisationID) { total list { id email organisation { id slug } } } }`;
type UsersResult = { users: { total: number; list: { id: string; email: string; organisation: { id: string; slug: string } | null }[] } };

beforeAll(async () => {
  port = await freePort();
  await start();
}, 120_000);
afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded demo", () => {
  let northwindId: string;
  let northwindOwnerId: string;
  let totalUsers: number;

  test("the demo owner signs in; /api/auth/check tells sessions apart", async () => {
    const anonymous = await fetch(`http://127.0.0.1:${port}/api/auth/check`);
    expect(await anonymous.text()).toBe("unauthorised");
    const cookie = await login("owner@demo.test");
    const check = await fetch(`http://127.0.0.1:${port}/api/auth/check`, { headers: { Cookie: cookie } });
    expect(await check.text()).not.toBe("unauthorised");
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { Host: `demo.localhost:${port}` } });
    expect(await page.text()).toContain("Demo Organisation");
  });

  test("every seeded account exists and the super admin sees both organisations", async () => {
    const cookie = await login("admin@lantern.test");
    const all = await gql<UsersResult>(cookie, USERS, {});
    totalUsers = all.data!.users.total;
    expect(totalUsers).toBe(9);
    const northwindOwner = all.data!.users.list.find((user) => user.email === "owner@northwind.test")!;
    northwindOwnerId = northwindOwner.id;
    northwindId = northwindOwner.organisation!.id;
  });

  test("the demo owner cannot read or change anything of Northwind", async () => {
    const cookie = await login("owner@demo.test");
    const organisation = await gql(cookie, `query ($id: ID!) { organisation(id: $id) { name } }`, { id: northwindId });
    expect(organisation.errors?.[0]?.message).toBe("Organisation is not found");
    const users = await gql(cookie, USERS, { organisationID: northwindId });
    expect(users.errors?.[0]?.message).toBe("Organisation is not found");
    const own = await gql<UsersResult>(cookie, USERS, {});
    expect(own.data!.users.list.every((user) => user.organisation?.slug === "demo")).toBe(true);
    const user = await gql(cookie, `query ($id: ID!) { userGet(id: $id) { email } }`, { id: northwindOwnerId });
    expect(user.errors?.[0]?.message).toBe("User is not found");
    const update = await gql(cookie, `mutation ($id: ID!) { organisationUpdate(id: $id, input: { generalEnquiryLabel: "Hacked" }) { id } }`, { id: northwindId });
    expect(update.errors?.[0]?.message).toBe("Organisation is not found");
  });

  test("a restart on the same DATA_DIR keeps every row and seeds nothing twice", async () => {
    const cookie = await login("owner@demo.test");
    await gql(cookie, `mutation ($id: ID!) { organisationUpdate(id: $id, input: { generalEnquiryLabel: "Kept across restarts" }) { id } }`, {
      id: (await gql<UsersResult>(cookie, USERS, {})).data!.users.list[0]!.organisation!.id,
    });
    await stop();
    await start();
    const admin = await login("admin@lantern.test");
    expect((await gql<UsersResult>(admin, USERS, {})).data!.users.total).toBe(totalUsers);
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { Host: `demo.localhost:${port}` } });
    expect(await page.text()).toContain("Kept across restarts");
  }, 120_000);
});
