import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { authTokens, sessions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { untilListening } from "../../helpers/live-topics.ts";
import { userDisconnectTopic } from "../../../api/modules/auth/events.ts";
import { createUser } from "../../factories/users.ts";
import { hashToken, newToken } from "../../../api/lib/tokens.ts";

let server: TestServer;
let demoId: string;

const CHANGE_PASSWORD = `mutation ($oldPassword: String!, $newPassword: String!) { changePassword(oldPassword: $oldPassword, newPassword: $newPassword) }`;
const VIEWER = `{ viewer { id } }`;

type Answer = { data?: { changePassword: boolean } | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] };

async function freshMember() {
  const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId, password: "first-pass-1" });
  return { user, client: await loginAs(server, user.email, user.password) };
}

const change = (client: StaffClient | ReporterClient, oldPassword: string, newPassword: string) => client.gql(CHANGE_PASSWORD, { oldPassword, newPassword }) as Promise<Answer>;

async function loginStatus(email: string, password: string): Promise<number> {
  const response = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  return response.status;
}

const rowOf = async (id: string) => (await server.db.select().from(users).where(eq(users.id, id)))[0]!;
const sessionCount = async (id: string) => (await server.db.select().from(sessions).where(eq(sessions.userId, id))).length;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ demoId } = await demoOrganisationIds(server));
});
afterAll(() => server.stop());

describe("changePassword: allowed", () => {
  test("the new password works, the old one does not, and every session ends, this one included", async () => {
    const { user, client } = await freshMember();
    const otherDevice = await loginAs(server, user.email, user.password);
    const resetLink = newToken();
    await server.db.insert(authTokens).values({ tokenHash: hashToken(resetLink), userId: user.id, purpose: "ResetPassword", expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await sessionCount(user.id)).toBe(2);

    const response = await client.fetch("/api/gql/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: CHANGE_PASSWORD, variables: { oldPassword: "first-pass-1", newPassword: "second-pass-2" } }),
    });
    expect(((await response.json()) as Answer).data?.changePassword).toBe(true);
    // The browser is told to forget its cookie; the server has already forgotten the session.
    expect(response.headers.getSetCookie().some((header) => header.startsWith("lantern_session=;") && header.includes("Max-Age=0"))).toBe(true);

    expect(await sessionCount(user.id)).toBe(0);
    for (const session of [client, otherDevice]) {
      expect((await session.gql<{ viewer: unknown }>(VIEWER)).data?.viewer).toBeNull();
      expect(await (await session.fetch("/api/auth/check")).text()).toBe("unauthorised");
    }
    expect(await loginStatus(user.email, "first-pass-1")).toBe(401);
    expect(await loginStatus(user.email, "second-pass-2")).toBe(200);
    expect(await server.db.select().from(authTokens).where(eq(authTokens.userId, user.id))).toEqual([]);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, user.id), eq(userActivities.action, "ChangePassword")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: user.id, objectType: "Self", organisationId: demoId });
    expect(JSON.stringify(audit[0])).not.toContain("pass-");
  });

  test("an open console on another device is told at once that its session has ended", async () => {
    const { user, client } = await freshMember();
    const otherDevice = await loginAs(server, user.email, user.password);
    const socket = wsClient(server, otherDevice.cookie);
    const subscription = collect<{ data: { organisationUserDisconnect: boolean } }>(socket, "subscription { organisationUserDisconnect }", 1);
    await untilListening(server, userDisconnectTopic(user.id));
    expect((await change(client, "first-pass-1", "second-pass-2")).data?.changePassword).toBe(true);
    await subscription.done;
    expect(subscription.results[0]?.data.organisationUserDisconnect).toBe(true);
    subscription.dispose();
    await socket.dispose();
  });
});

describe("changePassword: refused, and nothing changes", () => {
  test("a wrong old password is refused clearly, counts as a failed sign-in, and leaves the sessions alone", async () => {
    const { user, client } = await freshMember();
    const answer = await change(client, "not-my-pass-1", "second-pass-2");
    expect(answer.errors?.[0]).toMatchObject({ message: "The old password is incorrect.", extensions: { code: "BAD_USER_INPUT", fields: [{ field: "oldPassword", message: "The old password is incorrect." }] } });
    expect((await rowOf(user.id)).failedLoginCount).toBe(1);
    expect(await sessionCount(user.id)).toBe(1);
    expect(await loginStatus(user.email, "first-pass-1")).toBe(200);
    // The right password afterwards still works, and resets the count.
    expect((await change(client, "first-pass-1", "second-pass-2")).data?.changePassword).toBe(true);
    expect((await rowOf(user.id)).failedLoginCount).toBe(0);
  });

  test("guessing counts like failed logins: a waiting account may not change, and signing in asks for proof of work", async () => {
    const { user, client } = await freshMember();
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await change(client, `guess-${attempt}-x`, "second-pass-2")).errors?.[0]?.message).toBe("The old password is incorrect.");
    expect((await rowOf(user.id)).failedLoginCount).toBe(5);
    // A long wait, as many more failures would give (the wait itself is decision 004's, tested with sign-in).
    await server.db.update(users).set({ failedLoginCount: 20, lastFailedLoginAt: new Date() }).where(eq(users.id, user.id));
    const waiting = await change(client, "first-pass-1", "second-pass-2");
    expect(waiting.errors?.[0]?.extensions?.code).toBe("TOO_MANY_REQUESTS");
    expect(waiting.errors?.[0]?.message).toStartWith("Too many failed password attempts.");
    // Not refused (no lockout, decision 016): the sign-in must first solve a challenge.
    expect(await loginStatus(user.email, "first-pass-1")).toBe(428);
    expect((await rowOf(user.id)).passwordHash).toBe(user.passwordHash);
  });

  test("the new password must follow the rule and differ from the old one", async () => {
    const { user, client } = await freshMember();
    const cases: [string, string, string, string][] = [
      ["", "second-pass-2", "oldPassword", "Required"],
      ["first-pass-1", "", "newPassword", "Required"],
      ["first-pass-1", "short-1", "newPassword", "Password must contain at least 8 characters"],
      ["first-pass-1", "onlyletters", "newPassword", "Password must contain at least 1 letter and number"],
      ["first-pass-1", "1234567890", "newPassword", "Password must contain at least 1 letter and number"],
      ["first-pass-1", "first-pass-1", "newPassword", "The new password must be different from the old password."],
      ["first-pass-1", `a1${"x".repeat(1000)}`, "newPassword", "Must be at most 1000 characters"],
    ];
    for (const [oldPassword, newPassword, field, message] of cases) {
      const answer = await change(client, oldPassword, newPassword);
      expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT" } });
      expect(answer.errors?.[0]?.extensions?.fields?.[0]).toEqual({ field, message });
    }
    const row = await rowOf(user.id);
    expect(row.passwordHash).toBe(user.passwordHash);
    expect(row.failedLoginCount).toBe(0);
    expect(await sessionCount(user.id)).toBe(1);
  });

  test("a single-sign-on account has no password to change", async () => {
    const { user, client } = await freshMember();
    await server.db.update(users).set({ isSSO: true }).where(eq(users.id, user.id));
    const answer = await change(client, "first-pass-1", "second-pass-2");
    expect(answer.errors?.[0]?.message).toBe("Single sign-on accounts sign in with their Microsoft account and have no password to change.");
    expect((await rowOf(user.id)).passwordHash).toBe(user.passwordHash);
  });

  test("denied: without a staff session, or with a reporter's session, it cannot be called", async () => {
    expect((await change(anonymous(server), "first-pass-1", "second-pass-2")).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const reporter = new ReporterClient(server, "demo.localhost");
    const form = await server.db.query.reportForms.findFirst({ where: { organisationId: demoId, type: "Custom", status: "Active" } });
    await reporter.post("/api/auth/report_start", { reportFormID: form!.id });
    expect((await change(reporter, "first-pass-1", "second-pass-2")).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  test("denied across organisations: a session changes only its own user's password", async () => {
    const northwind = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: (await demoOrganisationIds(server)).northwindId, password: "north-pass-1" });
    const { client } = await freshMember();
    // The Demo member knows the Northwind owner's password, but the call has no way to name that account.
    expect((await change(client, "north-pass-1", "second-pass-2")).errors?.[0]?.message).toBe("The old password is incorrect.");
    expect((await rowOf(northwind.id)).passwordHash).toBe(northwind.passwordHash);
    expect(await loginStatus(northwind.email, "north-pass-1")).toBe(200);
  });
});
