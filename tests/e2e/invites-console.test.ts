import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { inviteSubject } from "../../api/modules/invites/mails.ts";
import { organisations } from "../../db/schema/index.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { readOutbox, tokenAfter, waitForMail } from "../helpers/outbox-mail.ts";

// The staff side of invites in the console (spec §2 Invites, §8; decision 035): the demo owner
// invites a member, finds the mail with its /onboarding/ link in the outbox, resends it, archives
// and unarchives the invite; a member is sent away from the page. Checked with axe at 390 and 1440 px.

const suite = demoInBrowser();
const INVITEE = "riley.invitee@example.com";

const newPage = newConsolePage;
const checkScreen = (page: Page, name: string) => checkConsoleScreen(page, "invites", name);

const row = (page: Page, text: string) => page.locator("tbody tr", { hasText: text });
const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

const confirm = confirmDialog;

describe("invites in the console", () => {
  test("the owner invites a member, the mail carries the /onboarding/ link, and the invite is resent, archived and unarchived", async () => {
    const { server, browser, consoleOrigin } = suite;
    const { page, problems } = await newPage(browser);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invites" }).click();
    await page.getByRole("heading", { name: "Invites", level: 1 }).waitFor();
    await page.getByText("No invites found").waitFor();
    await page.getByText("Seats used: 4/10").waitFor();

    // The modal says 'Required' for every empty field, and offers only roles below the owner's.
    await page.getByRole("button", { name: "Invite User" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite User" });
    await dialog.getByRole("button", { name: "Invite", exact: true }).click();
    expect(await dialog.getByText("Required", { exact: true }).count()).toBe(4);
    const roleOptions = await dialog.getByLabel("Role").locator("option").allTextContents();
    expect(roleOptions).toEqual(["Select a role", "Admin", "Member"]);
    await checkScreen(page, "invite-user-modal");
    await dialog.getByLabel("First Name").fill("Riley");
    await dialog.getByLabel("Last Name").fill("Invitee");
    await dialog.getByLabel("Email").fill(INVITEE);
    await dialog.getByLabel("Role").selectOption({ label: "Member" });
    const seen = readOutbox(server.dataDir);
    await dialog.getByRole("button", { name: "Invite", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await notice(page, `Successfully created new invite for "${INVITEE}"`);
    const invited = row(page, INVITEE);
    await invited.getByText("Invited", { exact: true }).waitFor();
    await expect(invited.getByRole("cell", { name: "Member" }).isVisible()).resolves.toBe(true);
    await page.getByText("Seats used: 5/10").waitFor();

    const mail = await waitForMail(server.dataDir, { to: INVITEE, subject: inviteSubject("Demo Organisation"), seen });
    expect(mail.text).toMatch(/https?:\/\/app\.localhost:\d+\/onboarding\/[A-Za-z0-9_-]{43}/);
    const firstToken = tokenAfter(mail, "/onboarding/");
    await checkScreen(page, "invites-list");

    // Resend: a new mail with a new link.
    await invited.getByRole("button", { name: "Resend" }).click();
    await notice(page, `Invitation has been resent to "${INVITEE}"`);
    const resent = await waitForMail(server.dataDir, { to: INVITEE, subject: inviteSubject("Demo Organisation"), seen: [...seen, mail] });
    expect(tokenAfter(resent, "/onboarding/")).not.toBe(firstToken);

    // Archive: the spec's confirmation, the row leaves the Active list and its seat is free.
    await invited.getByRole("button", { name: "Archive" }).click();
    await confirm(page, "Are you sure you want to archive this invite?");
    await notice(page, "Successfully archived invite");
    await page.getByText("No invites found").waitFor();
    await page.getByText("Seats used: 4/10").waitFor();
    await page.getByLabel("Filter").selectOption("Archived");
    const archived = row(page, INVITEE);
    await archived.getByText("Archived").waitFor();
    // An archived invite cannot be resent.
    expect(await archived.getByRole("button", { name: "Resend" }).count()).toBe(0);
    await archived.getByRole("button", { name: "Unarchive" }).click();
    await confirm(page, "Are you sure you want to unarchive this invite?");
    await notice(page, "Successfully unarchived invite");
    await page.getByLabel("Filter").selectOption("Active");
    await row(page, INVITEE).getByRole("button", { name: "Resend" }).waitFor();
    await page.getByText("Seats used: 5/10").waitFor();

    // Search narrows the list.
    await page.getByRole("searchbox").fill("nobody-matches");
    await page.getByText("No invites found").waitFor();
    await page.getByRole("searchbox").fill("riley");
    await row(page, INVITEE).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("the mail server refuses: the owner is warned in the spec's words and the invite is listed", async () => {
    const { server, browser, consoleOrigin } = suite;
    const mailer = server.lantern.services.mailer;
    const send = mailer.send;
    mailer.send = () => Promise.reject(new Error("connection refused"));
    const { page } = await newPage(browser);
    try {
      await signInToConsole(page, consoleOrigin, "admin@demo.test");
      await page.goto(`${consoleOrigin}/admin/manage/invites`);
      await page.getByRole("button", { name: "Invite User" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite User" });
      expect(await dialog.getByLabel("Role").locator("option").allTextContents()).toEqual(["Select a role", "Member"]);
      await dialog.getByLabel("First Name").fill("Morgan");
      await dialog.getByLabel("Last Name").fill("Unmailed");
      await dialog.getByLabel("Email").fill("morgan@example.com");
      await dialog.getByLabel("Role").selectOption({ label: "Member" });
      await dialog.getByRole("button", { name: "Invite", exact: true }).click();
      await notice(page, 'Invitation created for "morgan@example.com", however email failed to send. Please try again later.');
      await row(page, "morgan@example.com").getByText("Invited", { exact: true }).waitFor();
      await row(page, "morgan@example.com").getByRole("button", { name: "Resend" }).click();
      await notice(page, 'An error occurred when re-sending an invitation to "morgan@example.com"');
    } finally {
      mailer.send = send;
      await page.context().close();
    }
  });

  test("at 390 px the list reads as cards and the modal fits", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newPage(browser, 390);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}/admin/manage/invites`);
    await row(page, INVITEE).waitFor();
    await checkScreen(page, "invites-list");
    await page.getByRole("button", { name: "Invite User" }).click();
    await page.getByRole("dialog", { name: "Invite User" }).waitFor();
    await checkScreen(page, "invite-user-modal");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a super admin sees every organisation's invites, and invites an owner from inside one organisation", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "demo"));
    const { page, problems } = await newPage(browser);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    await page.goto(`${consoleOrigin}/admin/manage/invites`);
    await row(page, INVITEE).getByRole("cell", { name: "Demo Organisation" }).waitFor();
    // Across all organisations there is no one organisation to invite to.
    expect(await page.getByRole("button", { name: "Invite User" }).count()).toBe(0);
    await page.goto(`${consoleOrigin}/admin/manage/organisations/invites/${demo!.id}`);
    await page.getByText("You are managing organisation: Demo Organisation").waitFor();
    await page.getByRole("button", { name: "Invite User" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite User" });
    expect(await dialog.getByLabel("Role").locator("option").allTextContents()).toEqual(["Select a role", "Owner", "Admin", "Member"]);
    await dialog.getByLabel("First Name").fill("Olive");
    await dialog.getByLabel("Last Name").fill("Owner");
    await dialog.getByLabel("Email").fill("olive.owner@example.com");
    await dialog.getByLabel("Role").selectOption({ label: "Owner" });
    await dialog.getByRole("button", { name: "Invite", exact: true }).click();
    await notice(page, 'Successfully created new invite for "olive.owner@example.com"');
    await row(page, "olive.owner@example.com").getByRole("cell", { name: "Owner", exact: true }).waitFor();
    await checkScreen(page, "invites-organisation-variant");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a member is sent away from the page and has no Invites link", async () => {
    const { browser, consoleOrigin } = suite;
    const { page } = await newPage(browser);
    await signInToConsole(page, consoleOrigin, "member@demo.test");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invites" }).count()).toBe(0);
    await page.goto(`${consoleOrigin}/admin/manage/invites`);
    await page.waitForURL(`${consoleOrigin}/admin/dashboard`);
    await page.getByText("Reports Received").waitFor();
    await page.context().close();
  });
});
