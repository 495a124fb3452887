import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { organisations } from "../../db/schema/index.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";

// Subscribers and Tags in the console (spec §2, §5, §6, §8; decision 038): the demo owner adds the
// organisation's one subscriber and deletes it, then creates, renames, archives and unarchives a
// tag and opens its reports; reserved tags show their actions disabled with the spec's reasons. A
// member is sent away from Subscribers. Checked with axe at 1440 and 390 px.

const suite = demoInBrowser();
const checkScreen = (page: Page, name: string) => checkConsoleScreen(page, "workspace-subscribers-tags", name);
const row = (page: Page, text: string) => page.locator("tbody tr", { hasText: text });
const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Main" });

describe("subscribers and tags in the console", () => {
  test("the owner adds the one subscriber (Add is then gone) and deletes it", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    const manage = await sidebar(page).getByRole("link").allTextContents();
    // The spec's order in Manage.
    expect(manage.filter((label) => ["Users", "Subscribers", "Invites", "Tags"].includes(label))).toEqual(["Users", "Subscribers", "Invites", "Tags"]);
    await sidebar(page).getByRole("link", { name: "Subscribers" }).click();
    await page.getByRole("heading", { name: "Subscribers", level: 1 }).waitFor();
    await page.getByText("No subscribers found").waitFor();

    await page.getByRole("button", { name: "Add Subscriber" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Subscriber" });
    await dialog.getByRole("button", { name: "Save" }).click();
    expect(await dialog.getByText("Required", { exact: true }).count()).toBe(3);
    expect(await dialog.getByLabel("Email").getAttribute("type")).toBe("email");
    await checkScreen(page, "subscriber-modal");
    await dialog.getByLabel("First Name").fill("Casey");
    await dialog.getByLabel("Last Name").fill("Desk");
    await dialog.getByLabel("Email").fill("casey.desk@example.com");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await notice(page, "Successfully created subscriber");
    await row(page, "casey.desk@example.com").getByRole("cell", { name: "Casey Desk", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Add Subscriber" }).count()).toBe(0);
    await checkScreen(page, "subscribers");

    await row(page, "casey.desk@example.com").getByRole("button", { name: "Delete" }).click();
    await confirmDialog(page, "Are you sure you want to delete this subscriber?");
    await notice(page, "Successfully deleted subscriber");
    await page.getByText("No subscribers found").waitFor();
    await page.getByRole("button", { name: "Add Subscriber" }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("the owner creates, renames, archives and unarchives a tag, opens its reports; reserved tags are locked", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await sidebar(page).getByRole("link", { name: "Tags" }).click();
    await page.getByRole("heading", { name: "Tags", level: 1 }).waitFor();
    await row(page, "Finance").waitFor();

    // Reserved: both actions shown, unavailable, each saying why.
    const reserved = row(page, "Escalated");
    await reserved.getByText("Reserved").waitFor();
    const edit = reserved.getByRole("button", { name: "Edit" });
    const archive = reserved.getByRole("button", { name: "Archive" });
    expect(await edit.getAttribute("aria-disabled")).toBe("true");
    expect(await edit.getAttribute("title")).toBe("This item cannot be edited.");
    expect(await archive.getAttribute("aria-disabled")).toBe("true");
    expect(await archive.getAttribute("title")).toBe("This item cannot be deleted.");
    // Still focusable, so its reason can be read; choosing it does nothing.
    await archive.click({ force: true });
    expect(await page.getByRole("dialog").count()).toBe(0);
    await checkScreen(page, "tags");

    await page.getByRole("button", { name: "Create Tag" }).click();
    let dialog = page.getByRole("dialog", { name: "Create Tag" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Required", { exact: true }).waitFor();
    await dialog.getByLabel("Name").fill("finance");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("A tag with this name already exists.").waitFor();
    await dialog.getByLabel("Name").fill("Whistle");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await notice(page, 'Successfully created tag "Whistle"');
    await row(page, "Whistle").getByRole("cell", { name: "0", exact: true }).waitFor();

    await row(page, "Whistle").getByRole("button", { name: "Edit" }).click();
    dialog = page.getByRole("dialog", { name: "Edit Tag" });
    expect(await dialog.getByLabel("Name").inputValue()).toBe("Whistle");
    await dialog.getByLabel("Name").fill("Whistleblower");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await notice(page, 'Successfully updated tag "Whistleblower"');

    await row(page, "Whistleblower").getByRole("button", { name: "Archive" }).click();
    await confirmDialog(page, "Are you sure you want to archive this tag?");
    await notice(page, "Successfully archived tag");
    await row(page, "Whistleblower").waitFor({ state: "detached" });
    await page.getByLabel("Filter").selectOption("Archived");
    const archived = row(page, "Whistleblower");
    await archived.getByText("Archived").waitFor();
    await archived.getByRole("button", { name: "Unarchive" }).click();
    await confirmDialog(page, "Are you sure you want to unarchive this tag?");
    await notice(page, "Successfully unarchived tag");
    await page.getByText("No tags found").waitFor();
    await page.getByLabel("Filter").selectOption("All");
    await row(page, "Whistleblower").waitFor();

    // Search narrows the list (after its pause) and goes back to page 1.
    await page.getByRole("searchbox").fill("financ");
    await page.waitForURL(/search=financ/);
    // The address changes before the answer arrives: the list is read once it holds the one match alone.
    await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
    await row(page, "Finance").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);

    // Each tag leads to its reports.
    await row(page, "Finance").getByRole("link", { name: "Finance" }).click();
    await page.waitForURL(/\/admin\/manage\/tags\/reports\//);
    await page.getByRole("heading", { name: "Reports tagged Finance", level: 1 }).waitFor();
    await page.locator("tbody tr").first().waitFor();
    await page.goto(`${consoleOrigin}/admin/manage/tags/reports/${crypto.randomUUID()}`);
    await page.getByRole("heading", { name: "Tag not found" }).waitFor();
    expect(problems.filter((problem) => !problem.includes("404"))).toEqual([]);
    await page.context().close();
  });

  test("at 390 px both lists read as cards", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser, 390);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}/admin/manage/tags`);
    await row(page, "Escalated").getByText("Reserved").waitFor();
    await checkScreen(page, "tags");
    await page.goto(`${consoleOrigin}/admin/manage/subscribers`);
    await page.getByRole("button", { name: "Add Subscriber" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Subscriber" });
    await dialog.getByLabel("First Name").fill("Narrow");
    await dialog.getByLabel("Last Name").fill("Screen");
    await dialog.getByLabel("Email").fill("narrow.screen@example.com");
    await dialog.getByRole("button", { name: "Save" }).click();
    await row(page, "narrow.screen@example.com").waitFor();
    await checkScreen(page, "subscribers");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a super admin works inside one organisation; outside one the pages go to the organisations list", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [northwind] = await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "northwind"));
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    await page.goto(`${consoleOrigin}/admin/manage/tags`);
    await page.waitForURL(`${consoleOrigin}/admin/manage/organisations`);
    await page.goto(`${consoleOrigin}/admin/manage/organisations/tags/${northwind!.id}`);
    await page.getByText("You are managing organisation: Northwind").waitFor();
    await row(page, "Safety").getByRole("link", { name: "Safety" }).waitFor();
    expect(await row(page, "Safety").getByRole("link").getAttribute("href")).toMatch(new RegExp(`/admin/manage/organisations/tags/reports/${northwind!.id}/`));
    await sidebar(page).getByRole("link", { name: "Subscribers" }).click();
    await page.waitForURL(`${consoleOrigin}/admin/manage/organisations/subscribers/${northwind!.id}`);
    await page.getByRole("button", { name: "Add Subscriber" }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a member is sent away from Subscribers and Tags and has no links to them", async () => {
    const { browser, consoleOrigin } = suite;
    const { page } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "member@demo.test");
    for (const label of ["Subscribers", "Tags"]) expect(await sidebar(page).getByRole("link", { name: label }).count()).toBe(0);
    for (const path of ["/admin/manage/subscribers", "/admin/manage/tags"]) {
      await page.goto(`${consoleOrigin}${path}`);
      await page.waitForURL(`${consoleOrigin}/admin/dashboard`);
      await page.getByText("Reports Received").waitFor();
    }
    await page.context().close();
  });
});
