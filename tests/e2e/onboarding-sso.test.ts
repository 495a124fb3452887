import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { users } from "../../db/schema/index.ts";
import { CONFIRM_SIGN_UP_SUBJECT } from "../../api/modules/onboarding/mails.ts";
import { createInvite } from "../factories/invites.ts";
import { createOrganisation } from "../factories/users.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { expectAxeClean } from "../helpers/console-browser.ts";
import { listenOpenIdProvider, type LocalOpenIdProvider } from "../helpers/openid-provider.ts";
import { readOutbox, tokenAfter, waitForMail } from "../helpers/outbox-mail.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** An invite to a single-sign-on organisation, accepted with the matching Microsoft account in Chromium (decision 036). */
let idp: LocalOpenIdProvider;
let server: TestServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  idp = await listenOpenIdProvider();
  server = await startTestServer({ env: idp.env });
  await idp.start([`http://localhost:${server.port}/login-ms/callback`]);
  browser = await launchBrowser();
  origin = `http://localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.stop();
});

async function providerSignIn(page: Page, subject: string) {
  await page.waitForURL((url) => url.href.startsWith(idp.authority));
  await page.locator('input[name="login"]').fill(subject);
  await page.locator('input[name="password"]').fill("the provider checks this, not Lantern");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

describe("onboarding with a Microsoft account", () => {
  for (const width of [390, 1440] as const) {
    test(`${width} px: the wrong account is refused, 'Change accounts' tries another, the right one onboards`, async () => {
      const organisation = await createOrganisation(server.db, { enableSSO: true, name: `Contoso ${width}` });
      const { invite, url } = await createInvite(server.db, { organisationId: organisation.id, email: `sso-invitee-${width}@example.test` });
      idp.addAccount(`wrong-${width}`, { email: `someone-else-${width}@example.test` });
      idp.addAccount(`right-${width}`, { email: invite.email });
      const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();

      await page.goto(`${origin}${url}`);
      await page.getByRole("heading", { name: "1. Sign Up" }).waitFor();
      expect(await page.getByLabel("Password", { exact: true }).count()).toBe(0);
      await expectAxeClean(page, `SSO invite at ${width}px`);
      await screenshot(page, `onboarding-${width}-sso-invite`);
      await page.getByRole("button", { name: "Sign in With Microsoft Account" }).click();
      await providerSignIn(page, `wrong-${width}`);
      await page.getByText("Wrong account selected, please try again.").waitFor();
      expect(new URL(page.url()).search).toBe("");
      await expectAxeClean(page, `wrong account at ${width}px`);
      await screenshot(page, `onboarding-${width}-sso-wrong-account`);

      const seen = readOutbox(server.dataDir);
      await page.getByRole("button", { name: "Change accounts" }).click();
      await providerSignIn(page, `right-${width}`);
      await page.getByRole("heading", { name: "Almost done..." }).waitFor();

      const mail = await waitForMail(server.dataDir, { to: invite.email, subject: CONFIRM_SIGN_UP_SUBJECT, seen });
      await page.goto(`${origin}/verify/${tokenAfter(mail, "/verify/")}`);
      await page.getByRole("button", { name: "Finish Sign Up" }).click();
      await page.getByText("Reports Received").waitFor();
      const [user] = await server.db.select({ isSSO: users.isSSO, ssoIdentity: users.ssoIdentity }).from(users).where(eq(users.email, invite.email));
      expect(user!.isSSO).toBe(true);
      expect(user!.ssoIdentity).toEndWith(` right-${width}`);
      await page.context().close();
    });
  }
});
