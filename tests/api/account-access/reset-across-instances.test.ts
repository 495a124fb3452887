import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RESET_PASSWORD_SUBJECT } from "../../../api/modules/account-access/mails.ts";
import { createUser } from "../../factories/users.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { readOutbox, tokenAfter, waitForMail } from "../../helpers/outbox-mail.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { anonymous, clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * A reset ends every session of the account on every instance before it answers (decision 025's
 * session caches): a cookie that another instance has cached opens nothing there the moment the
 * reset has answered. Two instances need Postgres; on PGlite the same promise is checked on one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
}, 60_000);
afterAll(() => pair.stop());

const viewerEmail = async (client: StaffClient) => ((await client.gql<{ viewer: { email: string } | null }>("{ viewer { email } }")).data?.viewer?.email ?? null);

describe("resetPassword across instances", () => {
  test("every session of the account, cached on the other instance, ends as soon as the reset has answered", async () => {
    const { demoId } = await demoOrganisationIds(first);
    const user = await createUser(first.db, { role: "MEMBER", organisationId: demoId, password: "round-pass-0" });
    for (let round = 1; round <= 3; round += 1) {
      const here = await loginAs(first, user.email, `round-pass-${round - 1}`);
      const there = await loginAs(second, user.email, `round-pass-${round - 1}`);
      // Both cookies are now in the other instance's cache as well.
      for (const client of [here, there]) {
        expect(await viewerEmail(clientWithCookie(second, client.cookie))).toBe(user.email);
        expect(await viewerEmail(clientWithCookie(first, client.cookie))).toBe(user.email);
      }
      const seen = readOutbox(first.dataDir);
      await anonymous(first).gql(`mutation ($email: String!) { forgotPassword(email: $email) }`, { email: user.email });
      const token = tokenAfter(await waitForMail(first.dataDir, { to: user.email, subject: RESET_PASSWORD_SUBJECT, seen }), "/admin/reset-password/");
      const answer = await anonymous(first).gql<{ resetPassword: boolean }>(`mutation ($token: String!, $newPassword: String!) { resetPassword(token: $token, newPassword: $newPassword) }`, {
        token,
        newPassword: `round-pass-${round}`,
      });
      expect(answer.data?.resetPassword).toBe(true);
      for (const client of [here, there]) {
        for (const instance of [second, first]) {
          expect(await viewerEmail(clientWithCookie(instance, client.cookie))).toBeNull();
          expect(await (await clientWithCookie(instance, client.cookie).fetch("/api/auth/check")).text()).toBe("unauthorised");
        }
      }
    }
  });
});
