import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, userActivities } from "../../../db/schema/index.ts";
import { anonymous, cookieFrom, loginAs } from "../../helpers/session.ts";
import { createUser } from "../../factories/users.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";

const env = serverWithOrganisation();

const postLogin = (body: Record<string, unknown>) =>
  env.server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("POST /api/auth/login", () => {
  test("signs in with the right password: HttpOnly session cookie, user returned, audit written", async () => {
    const user = await createUser(env.server.db, { role: "ORGANISATION_OWNER", organisationId: env.organisationId, email: "Owner.Case@Example.test" });
    const response = await postLogin({ email: "owner.case@example.test", password: user.password, verifyToken: "" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { email: string; role: { name: string; permissions: string[] } } };
    expect(body.user.email).toBe("Owner.Case@Example.test");
    expect(body.user.role.name).toBe("ORGANISATION_OWNER");
    expect(body.user.role.permissions).toContain("ReportSubmissionList");
    const setCookie = response.headers.getSetCookie().join("\n");
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const token = cookieFrom(response, "lantern_session")!;
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const stored = await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toBe(token);
    const audit = await env.server.db.select().from(userActivities).where(eq(userActivities.userId, user.id));
    expect(audit.map((entry) => entry.action)).toContain("Login");
  });

  test("a wrong password is refused with one message that does not reveal whether the email exists", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const wrong = await postLogin({ email: user.email, password: "not-the-password-1" });
    const unknown = await postLogin({ email: "nobody@example.test", password: "not-the-password-1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe(((await unknown.json()) as { error: string }).error);
    expect(wrong.headers.getSetCookie()).toHaveLength(0);
  });

  test("empty fields answer 'Required' and change nothing", async () => {
    const response = await postLogin({ email: "", password: "" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; fields: { field: string; message: string }[] };
    expect(body.error).toBe("Required");
    expect(body.fields.map((f) => f.field)).toContain("email");
  });

  test("a body that is not JSON is a clear 400, not a 500", async () => {
    const response = await env.server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{not json" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("JSON");
  });

  test("a suspended user cannot sign in", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId, suspended: true });
    const response = await postLogin({ email: user.email, password: user.password });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("Contact admin to unsuspend");
  });
});

describe("check and logout", () => {
  test("check says 'unauthorised' without a session and something else with one; logout ends it", async () => {
    const noSession = await anonymous(env.server).fetch("/api/auth/check");
    expect(await noSession.text()).toBe("unauthorised");
    expect(noSession.headers.get("Cache-Control")).toBe("no-store");

    const user = await createUser(env.server.db, { role: "ORGANISATION_ADMIN", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    const withSession = await client.fetch("/api/auth/check");
    expect(await withSession.text()).not.toBe("unauthorised");

    const logout = await client.fetch("/api/auth/logout", { method: "POST" });
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie().join()).toContain("lantern_session=;");
    expect(await (await client.fetch("/api/auth/check")).text()).toBe("unauthorised");
    const audit = await env.server.db.select().from(userActivities).where(eq(userActivities.userId, user.id));
    expect(audit.map((entry) => entry.action)).toContain("Logout");
  });

  test("a forged cookie is simply no session", async () => {
    const response = await env.server.fetch("/api/auth/check", { headers: { Cookie: "lantern_session=forged-token" } });
    expect(await response.text()).toBe("unauthorised");
  });
});

describe("throttling failed logins", () => {
  // The rising cost itself, and that the owner always gets in, are in sign-in-challenge.test.ts.
  test("failures on one account ask work of that account only; another signs in with one request", async () => {
    const victim = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const other = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await postSolving(postLogin, { email: victim.email, password: "wrong-password-9" })).response.status).toBe(401);
    }
    expect((await postLogin({ email: victim.email, password: victim.password })).status).toBe(428);
    expect((await postLogin({ email: other.email, password: other.password })).status).toBe(200);
  });
});
