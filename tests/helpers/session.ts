import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import type { TestServer } from "./server.ts";

/** A signed-in staff browser, reduced to its cookie. */
export interface StaffClient {
  cookie: string;
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] }>;
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
}

export function cookieFrom(response: Response, name: string): string | null {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const [key, value] = (pair ?? "").split("=");
    if (key === name) return value ?? "";
  }
  return null;
}

export async function loginAs(server: TestServer, email: string, password: string): Promise<StaffClient> {
  const response = await server.fetch("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, verifyToken: "" }),
  });
  if (response.status !== 200) throw new Error(`login as ${email} failed: ${response.status} ${await response.text()}`);
  const token = cookieFrom(response, "lantern_session");
  if (!token) throw new Error("login set no session cookie");
  return clientWithCookie(server, `lantern_session=${token}`);
}

export function clientWithCookie(server: TestServer, cookie: string): StaffClient {
  const withCookie = (init: RequestInit & { host?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set("Cookie", cookie);
    return { ...init, headers };
  };
  return {
    cookie,
    fetch: (path, init) => server.fetch(path, withCookie(init)),
    async gql(query, variables) {
      const response = await server.fetch("/api/gql/query", withCookie({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) }));
      return (await response.json()) as never;
    },
  };
}

export function anonymous(server: TestServer): StaffClient {
  return clientWithCookie(server, "");
}

/** An owner or admin takes the report on (Join Team), as the console's take-ownership screen does. */
export async function joinTeam(client: StaffClient, submissionId: string): Promise<void> {
  const result = await client.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: submissionId });
  if (result.errors) throw new Error(`join team: ${JSON.stringify(result.errors)}`);
}

export type DemoStaff = Record<"owner" | "admin" | "member" | "guest" | "superAdmin", StaffClient>;

/** The Demo organisation's staff and the super admin, signed in (the seeded demo must exist). */
export async function demoStaff(server: TestServer): Promise<DemoStaff> {
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  return {
    owner: await login("owner@demo.test"),
    admin: await login("admin@demo.test"),
    member: await login("member@demo.test"),
    guest: await login("guest@demo.test"),
    superAdmin: await login("admin@lantern.test"),
  };
}
