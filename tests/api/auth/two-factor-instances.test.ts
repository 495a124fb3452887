import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie, cookieFrom, loginAs, type StaffClient } from "../../helpers/session.ts";
import { authenticator } from "../../helpers/two-factor.ts";

/**
 * Every instance keeps resolved sessions in its cache (decision 025). Whether a session owes its
 * passcode is part of what is cached, so each two-factor change must reach the other instance before
 * it answers: a session that has just been made to owe setup gets nothing there either, and one that
 * has just given its passcode is let in there too. Two instances need Postgres; on PGlite one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;
let organisationId: string;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
  organisationId = (await createOrganisation(first.db)).id;
}, 60_000);
afterAll(() => pair.stop());

const onSecond = (client: StaffClient) => clientWithCookie(second, client.cookie);
const rolesCount = async (client: StaffClient) => (await client.gql<{ roles: unknown[] }>("{ roles { name } }")).data?.roles.length ?? 0;
const check = async (client: StaffClient) => (await client.fetch("/api/auth/check")).text();

describe("two-factor changes reach every instance before they answer", () => {
  test("turning it on, giving the passcode, and turning it off", async () => {
    for (let round = 0; round < 3; round += 1) {
      const user = await createUser(first.db, { role: "ORGANISATION_OWNER", organisationId });
      const client = await loginAs(first, user.email, user.password);
      const other = await loginAs(second, user.email, user.password);
      // Both sessions are cached on the second instance.
      expect(await rolesCount(onSecond(client))).toBeGreaterThan(0);
      expect(await rolesCount(other)).toBeGreaterThan(0);

      const on = await client.gql("mutation ($password: String) { changeDetails(input: { twoFactorAuthenticationActivated: true, password: $password }) { id } }", { password: user.password });
      expect(on.errors).toBeUndefined();
      expect(await rolesCount(onSecond(client))).toBe(0);
      expect(await check(onSecond(client))).toBe("two_factor_required");
      expect(await check(other)).toBe("unauthorised");

      const phone = authenticator((await client.gql<{ twoFactorAuthenticationSecret: { secret: string } }>("{ twoFactorAuthenticationSecret { secret } }")).data!.twoFactorAuthenticationSecret.secret);
      const passed = await client.fetch("/api/auth/two_factor/verification", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ passcode: phone.nextPasscode() }),
      });
      expect(passed.status).toBe(200);
      expect(await rolesCount(onSecond(client))).toBeGreaterThan(0);

      // A new sign-in on the second instance owes its passcode there and here.
      const signIn = await second.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: user.email, password: user.password, verifyToken: "" }) });
      const pending = clientWithCookie(second, `lantern_session=${cookieFrom(signIn, "lantern_session")}`);
      expect(await check(pending)).toBe("two_factor_required");
      expect(await check(clientWithCookie(first, pending.cookie))).toBe("two_factor_required");

      const off = await onSecond(client).gql("mutation ($password: String, $passcode: String) { changeDetails(input: { twoFactorAuthenticationActivated: false, password: $password, passcode: $passcode }) { id } }", {
        password: user.password,
        passcode: phone.nextPasscode(),
      });
      expect(off.errors).toBeUndefined();
      expect(await check(clientWithCookie(first, pending.cookie))).toBe("unauthorised");
      expect(await rolesCount(client)).toBeGreaterThan(0);
    }
  });
});
