import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { CONFIRM_SIGN_UP_SUBJECT } from "../../api/modules/onboarding/mails.ts";
import { inviteSubject } from "../../api/modules/invites/mails.ts";
import * as files from "../fixtures/files.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { readOutbox, tokenAfter, waitForMail, type OutboxMail } from "../helpers/outbox-mail.ts";

/**
 * Issue 12's "done when", in one run: an organisation goes from nothing to a working team through
 * the console and the outbox alone. The super admin creates it and invites its owner; the owner
 * signs up from the mail, sets the logo and the welcome message, and invites a member, who signs up
 * from their own mail and reaches the console. Nobody touches the database.
 */
const suite = demoInBrowser();

const ORGANISATION = "Tidewater Council";
const OWNER = "olive.owner@tidewater.test";
const MEMBER = "milo.member@tidewater.test";
const WELCOME = "Welcome to Tidewater Council. Reports here are anonymous.";

/** Mailed links name the product's app host; the test server answers it on its own port. */
const appOrigin = () => `http://app.localhost:${suite.server.port}`;

/** The invite form in the open console: the modal, then the mail it sent. */
async function invite(page: Page, person: { first: string; last: string; email: string; role: string }): Promise<OutboxMail> {
  const seen = readOutbox(suite.server.dataDir);
  await page.getByRole("button", { name: "Invite User" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("First Name").fill(person.first);
  await dialog.getByLabel("Last Name").fill(person.last);
  await dialog.getByLabel("Email").fill(person.email);
  await dialog.getByLabel("Role").selectOption({ label: person.role });
  await dialog.getByRole("button", { name: "Invite", exact: true }).click();
  await page.getByText(`Successfully created new invite for "${person.email}"`).waitFor();
  return waitForMail(suite.server.dataDir, { to: person.email, subject: inviteSubject(ORGANISATION), seen });
}

/** Someone opens their invite mail's link in their own browser and signs up; answers their console page. */
async function signUpFromInvite(browser: Browser, mail: OutboxMail, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${appOrigin()}/onboarding/${tokenAfter(mail, "/onboarding/")}`);
  await page.getByRole("heading", { name: "1. Sign Up" }).waitFor();
  await page.getByText(`You have been invited to join ${ORGANISATION}.`).waitFor();
  await page.getByLabel("Password", { exact: true }).fill(password);
  const seen = readOutbox(suite.server.dataDir);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.getByRole("heading", { name: "Almost done..." }).waitFor();
  const confirmation = await waitForMail(suite.server.dataDir, { to: mail.to, subject: CONFIRM_SIGN_UP_SUBJECT, seen });
  await page.goto(`${appOrigin()}/verify/${tokenAfter(confirmation, "/verify/")}`);
  await page.getByRole("button", { name: "Finish Sign Up" }).click();
  await page.getByText("Reports Received").waitFor();
  expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
  return page;
}

describe("a team from scratch", () => {
  test("super admin → organisation → owner from the mail → logo and welcome → member from the mail", async () => {
    const { browser, consoleOrigin, server } = suite;
    const admin = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const adminProblems = recordProblems(admin);
    await signInToConsole(admin, consoleOrigin, "admin@lantern.test");

    // The super admin creates the organisation and goes inside it.
    await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organisations" }).click();
    await admin.getByRole("button", { name: "Create" }).click();
    const create = admin.getByRole("dialog");
    await create.getByLabel("Organisation Name").fill(ORGANISATION);
    await create.getByLabel("ABN").fill("53 004 085 616");
    await create.getByRole("button", { name: "Create" }).click();
    await admin.getByText(`Successfully created/updated organisation "${ORGANISATION}"`).waitFor();
    await admin.getByLabel("Search").fill("tidewater");
    await admin.waitForURL(/search=tidewater/);
    await admin.getByRole("link", { name: ORGANISATION }).click();
    await admin.getByText(`You are managing organisation: ${ORGANISATION}`).waitFor();

    // Its invites, inside it: the owner is invited.
    await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invites" }).click();
    expect(new URL(admin.url()).pathname).toMatch(/^\/admin\/manage\/organisations\/invites\/[0-9a-f-]{36}$/);
    const ownerMail = await invite(admin, { first: "Olive", last: "Owner", email: OWNER, role: "Owner" });
    expect(adminProblems).toEqual([]);

    // The owner signs up from the mail and lands in their organisation's console.
    const owner = await signUpFromInvite(browser, ownerMail, "Tidewater-owner-1");
    const ownerProblems = recordProblems(owner);
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organisation", exact: true }).click();
    await owner.getByRole("heading", { name: ORGANISATION }).waitFor();
    await owner.getByText("1/10").waitFor();

    // Logo and welcome message, from 'Account Settings: Organisation'.
    await owner.getByRole("link", { name: "Edit" }).click();
    await owner.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(files.pngWithText()) });
    await owner.getByRole("img", { name: `${ORGANISATION} logo` }).waitFor();
    await owner.getByLabel("Show a welcome message on the organisation page").check();
    await owner.locator("#organisation-portal-welcome").click();
    await owner.keyboard.type(WELCOME);
    await owner.getByRole("button", { name: "Save" }).click();
    await owner.getByRole("heading", { name: ORGANISATION }).waitFor();
    await screenshot(owner, "team-from-scratch-1-owner-settings");

    // The organisation's public page shows both to reporters.
    const visitor = await browser.newPage();
    await visitor.goto(`http://tidewater-council.localhost:${server.port}/`);
    await visitor.getByText(WELCOME).waitFor();
    // The logo sits beside the organisation's name, so it is decorative (alt="").
    await visitor.locator("header img[src^='/api/files/organisation-logo/']").waitFor();
    expect(await visitor.locator("header img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await visitor.close();

    // The owner invites a member, who signs up from their own mail.
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invites" }).click();
    const memberMail = await invite(owner, { first: "Milo", last: "Member", email: MEMBER, role: "Member" });
    const member = await signUpFromInvite(browser, memberMail, "Tidewater-member-1");
    await expectAxeClean(member, "the new member's dashboard");
    await screenshot(member, "team-from-scratch-2-member-dashboard");

    // The team as the owner sees it: both onboarded, two of ten seats taken.
    await owner.reload();
    await owner.getByRole("row", { name: new RegExp(MEMBER) }).getByText("Onboarded").waitFor();
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
    await owner.getByRole("row", { name: new RegExp(MEMBER) }).waitFor();
    await owner.getByRole("row", { name: new RegExp(OWNER) }).waitFor();
    await owner.getByText("2/10").waitFor();
    expect(ownerProblems).toEqual([]);
  }, 180_000);
});
