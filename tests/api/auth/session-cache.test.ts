import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * Signed-in requests are answered from each instance's session cache (decision 025). Whatever ends
 * a session must end the cached copy on every instance before it answers: the same cookie, sent to
 * the other instance the moment logout or a password change has answered, opens nothing.
 * Two instances need one Postgres database; on PGlite the same promises are checked on one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;

const VIEWER = "{ viewer { email } }";
const CHANGE_PASSWORD = `mutation ($old: String!, $new: String!) { changePassword(oldPassword: $old, newPassword: $new) }`;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
}, 60_000);
afterAll(() => pair.stop());

async function viewerEmail(client: StaffClient): Promise<string | null> {
  const result = await client.gql<{ viewer: { email: string } | null }>(VIEWER);
  expect(result.errors).toBeUndefined();
  return result.data?.viewer?.email ?? null;
}

/** The same cookie, sent to the other instance. */
const onSecond = (client: StaffClient) => clientWithCookie(second, client.cookie);

describe("a cached session", () => {
  test("is served from the cache once it has been used", async () => {
    const member = await loginAs(first, "member@demo.test", DEMO_PASSWORD);
    expect(await viewerEmail(onSecond(member))).toBe("member@demo.test");
    expect(second.lantern.services.sessionCache.size).toBeGreaterThan(0);
    // Served again, still the same person.
    expect(await viewerEmail(onSecond(member))).toBe("member@demo.test");
  });

  test("ends on every instance as soon as logout has answered", async () => {
    // Several rounds: a race between the logout and the other instance's cache would show in one of them.
    for (let round = 0; round < 5; round += 1) {
      const admin = await loginAs(first, "admin@demo.test", DEMO_PASSWORD);
      expect(await viewerEmail(onSecond(admin))).toBe("admin@demo.test");
      expect(await viewerEmail(admin)).toBe("admin@demo.test");
      const logout = await admin.fetch("/api/auth/logout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(logout.status).toBe(200);
      expect(await viewerEmail(onSecond(admin))).toBeNull();
      expect(await viewerEmail(admin)).toBeNull();
      const check = await onSecond(admin).fetch("/api/auth/check");
      expect(await check.text()).toBe("unauthorised");
    }
  });

  test("ends on every instance as soon as a password change has answered, for every session of that user", async () => {
    const owner = await loginAs(first, "owner@demo.test", DEMO_PASSWORD);
    const ownerElsewhere = await loginAs(second, "owner@demo.test", DEMO_PASSWORD);
    expect(await viewerEmail(onSecond(owner))).toBe("owner@demo.test");
    expect(await viewerEmail(ownerElsewhere)).toBe("owner@demo.test");
    const newPassword = "a-new-owner-password-1";
    const changed = await owner.gql(CHANGE_PASSWORD, { old: DEMO_PASSWORD, new: newPassword });
    expect(changed.errors).toBeUndefined();
    expect(await viewerEmail(onSecond(owner))).toBeNull();
    expect(await viewerEmail(ownerElsewhere)).toBeNull();
    expect(await viewerEmail(owner)).toBeNull();
    // The new password opens a new session, served on both instances.
    const again = await loginAs(second, "owner@demo.test", newPassword);
    expect(await viewerEmail(again)).toBe("owner@demo.test");
    expect(await viewerEmail(clientWithCookie(first, again.cookie))).toBe("owner@demo.test");
  });

  test("an unknown or forged cookie is never cached and opens nothing", async () => {
    const before = second.lantern.services.sessionCache.size;
    const forged = clientWithCookie(second, "lantern_session=forged-token-that-was-never-issued");
    expect(await viewerEmail(forged)).toBeNull();
    expect(second.lantern.services.sessionCache.size).toBe(before);
  });
});
