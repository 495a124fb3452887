import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index.ts";
import { loginAs } from "../../helpers/session.ts";
import { createUser } from "../../factories/users.ts";
import { passwordProblem, passwordStrength } from "../../../api/shared/password-rule.ts";
import { loginDelaySeconds } from "../../../api/modules/auth/session-policy.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";

const env = serverWithOrganisation();

async function signedIn() {
  const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
  const client = await loginAs(env.server, user.email, user.password);
  return { user, client };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);

describe("session lifetime", () => {
  test("a session idle for more than 30 minutes is over, and its row is gone", async () => {
    const { user, client } = await signedIn();
    await env.server.db.update(sessions).set({ lastSeenAt: minutesAgo(31) }).where(eq(sessions.userId, user.id));
    expect(await (await client.fetch("/api/auth/check")).text()).toBe("unauthorised");
    expect(await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  test("activity keeps a session alive: a request after 2 quiet minutes refreshes it", async () => {
    const { user, client } = await signedIn();
    await env.server.db.update(sessions).set({ lastSeenAt: minutesAgo(29) }).where(eq(sessions.userId, user.id));
    expect(await (await client.fetch("/api/auth/check")).text()).not.toBe("unauthorised");
    const [row] = await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(Date.now() - row!.lastSeenAt.getTime()).toBeLessThan(60 * 1000);
  });

  test("12 hours after sign-in a session ends even if it was used all along", async () => {
    const { user, client } = await signedIn();
    const [row] = await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(12 * 60 * 60 * 1000);
    await env.server.db.update(sessions).set({ expiresAt: minutesAgo(1), lastSeenAt: new Date() }).where(eq(sessions.userId, user.id));
    expect(await (await client.fetch("/api/auth/check")).text()).toBe("unauthorised");
  });

  test("suspending a user ends their sessions at the next request", async () => {
    const { user, client } = await signedIn();
    await env.server.db.update(users).set({ suspended: true }).where(eq(users.id, user.id));
    expect(await (await client.fetch("/api/auth/check")).text()).toBe("unauthorised");
  });
});

describe("password rule", () => {
  test("at least 8 characters, with a letter and a digit", () => {
    expect(passwordProblem("short1")).toBe("Password must contain at least 8 characters");
    expect(passwordProblem("onlyletters")).toBe("Password must contain at least 1 letter and number");
    expect(passwordProblem("12345678")).toBe("Password must contain at least 1 letter and number");
    expect(passwordProblem("lantern-demo-1")).toBeNull();
    expect(passwordProblem("pässwört9")).toBeNull();
  });

  test("the strength bar grows with length and variety", () => {
    expect(passwordStrength("abc")).toBe(0);
    expect(passwordStrength("Abcdefgh1!xyz")).toBeGreaterThan(passwordStrength("abcdefg1"));
  });
});

describe("login delay", () => {
  test("free for the first five failures, then doubling up to five minutes", () => {
    expect([0, 4].map(loginDelaySeconds)).toEqual([0, 0]);
    expect([5, 6, 7].map(loginDelaySeconds)).toEqual([2, 4, 8]);
    expect(loginDelaySeconds(40)).toBe(300);
  });
});
