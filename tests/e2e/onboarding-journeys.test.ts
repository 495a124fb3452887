import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { onboardInvites, organisations, users } from "../../db/schema/index.ts";
import { CONFIRM_SIGN_UP_SUBJECT } from "../../api/modules/onboarding/mails.ts";
import { createInvite } from "../factories/invites.ts";
import { createOrganisation } from "../factories/users.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean } from "../helpers/console-browser.ts";
import { readOutbox, tokenAfter, waitForMail } from "../helpers/outbox-mail.ts";

/** An invited member and a stranger sign up from the pages and the mail in the outbox (spec §2; decision 036). */
const suite = demoInBrowser();

const WIDTHS = [390, 1440] as const;
const ALMOST_DONE_TEXT = "We have sent an email with a confirmation link to your email address. Please allow 5-10 minutes for this message to arrive.";

/** Where mailed links point: the product's app host. */
const appOrigin = () => `http://app.localhost:${suite.server.port}`;

async function checkScreen(page: Page, width: number, screen: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ screen, width, scrollWidth }).toEqual({ screen, width, scrollWidth: Math.min(scrollWidth, width) });
  await expectAxeClean(page, `${screen} at ${width}px`);
  await screenshot(page, `onboarding-${width}-${screen}`);
}

/** The link in the newest confirmation mail to this address, on this test server's port (the mail names the configured one). */
async function confirmationLink(email: string, seen = readOutbox(suite.server.dataDir)): Promise<string> {
  const mail = await waitForMail(suite.server.dataDir, { to: email, subject: CONFIRM_SIGN_UP_SUBJECT, seen });
  return `${appOrigin()}/verify/${tokenAfter(mail, "/verify/")}`;
}

describe("an invited member onboards in Chromium", () => {
  for (const width of WIDTHS) {
    test(`${width} px: the invite link, '1. Sign Up', 'Almost done...', the mail, the dashboard`, async () => {
      const organisation = await createOrganisation(suite.server.db, { name: `Harbour Trust ${width}` });
      const { invite, url } = await createInvite(suite.server.db, { organisationId: organisation.id, role: "ORGANISATION_ADMIN", email: `invited-${width}@example.test` });
      const context = await suite.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = recordProblems(page);

      await page.goto(`${appOrigin()}${url}`);
      await page.getByRole("heading", { name: "1. Sign Up" }).waitFor();
      expect(await page.getByLabel("Email Address").inputValue()).toBe(invite.email);
      expect(await page.getByLabel("Email Address").getAttribute("readonly")).not.toBeNull();
      expect(await page.getByLabel("Role").inputValue()).toBe("Admin");
      await page.getByText(`You have been invited to join ${organisation.name}.`).waitFor();
      await page.getByRole("button", { name: "Sign Up" }).click();
      await page.getByText("Required").waitFor();
      await page.getByLabel("Password", { exact: true }).fill("weakpassword");
      await page.getByRole("button", { name: "Sign Up" }).click();
      await page.getByText("Password must contain at least 1 letter and number").waitFor();
      await page.getByLabel("Password", { exact: true }).fill("Harbour-pass-1");
      await checkScreen(page, width, "invite-sign-up");

      const seen = readOutbox(suite.server.dataDir);
      await page.getByRole("button", { name: "Sign Up" }).click();
      await page.getByRole("heading", { name: "Almost done..." }).waitFor();
      await page.getByText(ALMOST_DONE_TEXT).waitFor();
      await checkScreen(page, width, "almost-done");

      await page.goto(await confirmationLink(invite.email, seen));
      await page.getByRole("heading", { name: "Confirm Sign Up" }).waitFor();
      await checkScreen(page, width, "invite-confirm");
      await page.getByRole("button", { name: "Finish Sign Up" }).click();
      await page.getByText("Reports Received").waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
      const [row] = await suite.server.db.select({ status: onboardInvites.status }).from(onboardInvites).where(eq(onboardInvites.id, invite.id));
      expect(row!.status).toBe("Onboarded");

      // The invite link is spent.
      await page.goto(`${appOrigin()}${url}`);
      await page.getByText("Invalid invite link given or was expired. Please contact the organisation admin to receive a new one.").waitFor();
      await checkScreen(page, width, "invite-invalid");
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe("a stranger signs up a new organisation in Chromium", () => {
  for (const width of WIDTHS) {
    test(`${width} px: /onboarding/sign-up, the mail, the new organisation's dashboard`, async () => {
      const email = `founder-${width}@example.test`;
      const context = await suite.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = recordProblems(page);

      await page.goto(`${appOrigin()}/onboarding/sign-up`);
      await page.getByRole("heading", { name: "1. Sign Up" }).waitFor();
      await page.getByRole("button", { name: "Sign Up" }).click();
      expect(await page.getByText("Required").count()).toBe(6);
      await page.getByLabel("First Name").fill("Frances");
      await page.getByLabel("Last Name").fill("Founder");
      await page.getByLabel("Email Address").fill(email);
      await page.getByLabel("Organisation Name").fill(`Founders ${width}`);
      await page.getByLabel("ABN").fill("53 004 085 616");
      await page.getByLabel("Password", { exact: true }).fill("Founder-pass-1");
      expect(await page.getByRole("meter", { name: "Password strength" }).getAttribute("aria-valuetext")).toBe("Strong");
      await checkScreen(page, width, "sign-up");

      const seen = readOutbox(suite.server.dataDir);
      await page.getByRole("button", { name: "Sign Up" }).click();
      await page.getByText(ALMOST_DONE_TEXT).waitFor();

      await page.goto(await confirmationLink(email, seen));
      await page.getByRole("heading", { name: "Confirm Sign Up" }).waitFor();
      await page.getByText(`Finish to create Founders ${width} and sign in.`).waitFor();
      await checkScreen(page, width, "sign-up-confirm");
      await page.getByRole("button", { name: "Finish Sign Up" }).click();
      await page.getByText("Reports Received").waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
      await checkScreen(page, width, "dashboard");

      const [owner] = await suite.server.db.select({ organisationId: users.organisationId, verified: users.verified }).from(users).where(eq(users.email, email));
      expect(owner!.verified).toBe(true);
      const made = await suite.server.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.name, `Founders ${width}`));
      expect(made).toHaveLength(1);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("'2. Sign Up' with a plan: a priced plan says payments are off", async () => {
    const { productPlans } = await import("../../db/schema/index.ts");
    const [plan] = await suite.server.db.insert(productPlans).values({ name: "Business", seats: 50, priceCents: 9900 }).returning();
    const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${appOrigin()}/onboarding/sign-up/${plan!.id}`);
    await page.getByRole("heading", { name: "2. Sign Up" }).waitFor();
    await page.getByText("Payments are not taken here yet", { exact: false }).waitFor();
    await checkScreen(page, 1440, "sign-up-plan");
    await context.close();
  });
});
