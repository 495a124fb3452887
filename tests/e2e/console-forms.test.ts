import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";

// Issue 9 in the console: the demo owner finds, locks, archives, publishes and annotates report
// forms; a member has none of it; the super admin keeps the form templates. Every screen is checked
// with axe and at phone and laptop widths.

const suite = demoInBrowser();
const MISCONDUCT = "Workplace Misconduct Report";
const FINANCE = "Confidential Finance Concern";
const TEMPLATE_NAMES = ["Harassment Intake", "Fraud Intake", "Safety Intake"];

// Three templates, so the list shows two tiles and View More (spec §9).
beforeAll(async () => {
  const superAdmin = await loginAs(suite.server, "admin@lantern.test", DEMO_PASSWORD);
  for (const name of TEMPLATE_NAMES) {
    const widgets = [{ type: "Section", title: "About", pageName: "About" }, { type: "ShortText", title: "What happened?" }];
    const result = await superAdmin.gql(`mutation ($input: ReportFormTemplateInput!) { reportFormTemplateCreate(input: $input) { id } }`, { input: { name, widgets } });
    if (result.errors) throw new Error(`template: ${JSON.stringify(result.errors)}`);
  }
});

const newPage = newConsolePage;
const checkScreen = (page: Page, name: string) => checkConsoleScreen(page, "console-forms", name);

const row = (page: Page, name: string) => page.locator("tbody tr", { hasText: name });
const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

const confirm = confirmDialog;

describe("report forms in the console", () => {
  test("the owner lists, searches, filters, locks and archives forms", async () => {
    const { page, problems } = await newPage(suite.browser);
    await signInToConsole(page, suite.consoleOrigin, "owner@demo.test");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Forms" }).click();
    await page.getByRole("heading", { name: "Report Forms", level: 1 }).waitFor();
    await row(page, MISCONDUCT).waitFor();
    await expect(row(page, FINANCE).count()).resolves.toBe(1);
    // The enquiry form is not a custom form: it is not listed.
    await expect(row(page, "General Enquiry").count()).resolves.toBe(0);
    await expect(row(page, MISCONDUCT).getByText("Published").count()).resolves.toBe(1);

    // Create Your Own, two template tiles, and View More for the third.
    const tiles = page.getByRole("region", { name: "Create a report form" });
    await expect(tiles.getByRole("link", { name: "Create Your Own" }).getAttribute("href")).resolves.toBe("/admin/manage/report-forms/create");
    await tiles.getByRole("link", { name: /Template/ }).nth(1).waitFor();
    await expect(tiles.getByRole("link", { name: /Template/ }).count()).resolves.toBe(2);
    await checkScreen(page, "forms-list");
    await tiles.getByRole("button", { name: "View More" }).click();
    const picker = page.getByRole("dialog", { name: "Choose a Template" });
    for (const name of TEMPLATE_NAMES) await picker.getByRole("link", { name }).waitFor();
    await expect(picker.getByRole("link", { name: "Fraud Intake" }).getAttribute("href")).resolves.toMatch(/^\/admin\/manage\/report-forms\/create\?template_id=[0-9a-f-]+$/);
    await checkScreen(page, "forms-template-picker");
    await picker.getByRole("button", { name: "Close" }).click();
    await picker.waitFor({ state: "detached" });

    // Search waits for typing to settle, then lists only what matches, from page 1.
    await page.getByLabel("Search").fill("finance");
    await row(page, MISCONDUCT).waitFor({ state: "detached" });
    await row(page, FINANCE).waitFor();
    expect(new URL(page.url()).searchParams.get("search")).toBe("finance");
    await page.getByLabel("Search").fill("");
    await row(page, MISCONDUCT).waitFor();

    // Lock and unlock, each confirmed.
    const lock = page.getByRole("switch", { name: `Form lock for ${MISCONDUCT}` });
    await expect(lock.getAttribute("aria-checked")).resolves.toBe("false");
    await lock.click();
    await confirm(page, "Are you sure you want to lock this report form?");
    await notice(page, "Successfully locked report form");
    await page.getByRole("switch", { name: `Form lock for ${MISCONDUCT}`, checked: true }).waitFor();
    await lock.click();
    await confirm(page, "Are you sure you want to unlock this report form?");
    await notice(page, "Successfully unlocked report form");
    await page.getByRole("switch", { name: `Form lock for ${MISCONDUCT}`, checked: false }).waitFor();

    // Archive leaves the Active list and shows under Archived, where it can be restored.
    await row(page, FINANCE).getByRole("button", { name: "Archive" }).click();
    await confirm(page, "Are you sure you want to archive this report form?");
    await notice(page, "Successfully archived report form");
    await row(page, FINANCE).waitFor({ state: "detached" });
    await page.getByLabel("Filter").selectOption("Archived");
    await row(page, FINANCE).getByRole("button", { name: "Unarchive" }).click();
    await confirm(page, "Are you sure you want to unarchive this report form?");
    await notice(page, "Successfully unarchived report form");
    await row(page, FINANCE).waitFor({ state: "detached" });
    await page.getByLabel("Filter").selectOption("All");
    await row(page, FINANCE).waitFor();
    await row(page, MISCONDUCT).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("the owner reads a form's overview, unpublishes and publishes it, and keeps internal notes", async () => {
    const { page, problems } = await newPage(suite.browser);
    await signInToConsole(page, suite.consoleOrigin, "owner@demo.test");
    await page.goto(`${suite.consoleOrigin}/admin/manage/report-forms`);
    await row(page, MISCONDUCT).getByRole("link", { name: MISCONDUCT }).click();
    await page.getByRole("heading", { name: MISCONDUCT, level: 1 }).waitFor();

    // Published: the public link on the organisation's host, in a new tab, with where to put it.
    const link = page.getByRole("link", { name: /\/report\// });
    await expect(link.getAttribute("href")).resolves.toMatch(/^http:\/\/demo\.localhost:\d+\/report\/[0-9a-f-]+$/);
    await expect(link.getAttribute("target")).resolves.toBe("_blank");
    await page.getByText(/intranet or internet site/).waitFor();
    const info = page.getByRole("region", { name: "Form Information" });
    await info.getByText(/^Revision \d+$/).waitFor();
    await info.getByText("Published").waitFor();
    const reports = page.getByRole("region", { name: "Latest Reports" });
    await reports.locator("tbody tr").first().waitFor();
    await expect(reports.getByRole("columnheader").allTextContents()).resolves.toEqual(["Report ID", "Internal Ref #", "Status", "Assigned Users", "Last Updated", "Completed At"]);
    await expect(page.getByRole("button", { name: "Publish", exact: true }).count()).resolves.toBe(0);
    await checkScreen(page, "form-overview");

    await page.getByRole("button", { name: "Unpublish" }).click();
    await notice(page, "Report Form has been unpublished");
    await page.getByText("Your report form has not been published yet.").waitFor();
    await info.getByText("Unpublished").waitFor();
    await expect(page.getByRole("button", { name: "Unpublish" }).count()).resolves.toBe(0);
    await checkScreen(page, "form-overview-unpublished");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await notice(page, "Report Form has been published");
    await link.waitFor();

    // Edit leads to the builder; Internal Notes to the notes.
    const tabs = page.getByRole("navigation", { name: "Report form sections" });
    await expect(tabs.getByRole("link", { name: "Edit" }).getAttribute("href")).resolves.toMatch(/^\/admin\/manage\/report-forms\/edit\/[0-9a-f-]+$/);
    await tabs.getByRole("link", { name: "Internal Notes" }).click();
    await page.getByText("No notes posted").waitFor();
    await checkScreen(page, "form-notes-empty");
    await page.getByRole("button", { name: "+ Create Note" }).click();
    await page.getByRole("button", { name: "Post Note" }).click();
    await page.getByText("Required", { exact: true }).waitFor();
    await page.getByLabel("New Note").fill("Legal asked us to add a question about witnesses.");
    await page.getByRole("button", { name: "Post Note" }).click();
    await notice(page, "New Note successfully posted");
    // The only note: located by place, as its text turns into an editor while it is edited.
    const note = page.locator(".form-note").first();
    await note.getByText("Legal asked us to add a question about witnesses.").waitFor();
    await note.getByText("Olivia Bennett").waitFor();
    await checkScreen(page, "form-notes");
    await note.getByRole("button", { name: "Edit" }).click();
    await note.getByLabel("Edit note").fill("Legal asked for a witnesses question; done in revision 2.");
    await note.getByRole("button", { name: "Save" }).click();
    await notice(page, "Note successfully updated");
    await page.locator(".form-note", { hasText: "done in revision 2" }).waitFor();
    await page.locator(".form-note").getByRole("button", { name: "Delete" }).click();
    await confirm(page, "Are you sure you want to delete this note?");
    await page.getByText("No notes posted").waitFor();

    // The list counts notes: back to 0 after the delete.
    await page.getByRole("link", { name: "Report Forms" }).click();
    await expect(row(page, MISCONDUCT).locator('td[data-label="Internal Notes"]').textContent()).resolves.toBe("0");

    // A report of the form names it, linking back to this overview.
    await row(page, MISCONDUCT).getByRole("link", { name: MISCONDUCT }).click();
    const reportPath = await reports.getByRole("link").first().getAttribute("href");
    await joinTeam(await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD), reportPath!.split("/").at(-1)!).catch(() => undefined);
    await page.goto(`${suite.consoleOrigin}${reportPath}`);
    await page.getByRole("region", { name: "Report Details" }).getByRole("link", { name: MISCONDUCT }).click();
    await page.getByRole("heading", { name: MISCONDUCT, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/manage\/report-forms\/overview\/[0-9a-f-]+$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("each new screen fits a phone", async () => {
    const { page, problems } = await newPage(suite.browser, 390);
    await signInToConsole(page, suite.consoleOrigin, "owner@demo.test");
    await page.goto(`${suite.consoleOrigin}/admin/manage/report-forms`);
    await row(page, MISCONDUCT).waitFor();
    await checkScreen(page, "forms-list");
    await row(page, MISCONDUCT).getByRole("link", { name: MISCONDUCT }).click();
    await page.getByRole("region", { name: "Latest Reports" }).locator("tbody tr").first().waitFor();
    await checkScreen(page, "form-overview");
    await page.getByRole("navigation", { name: "Report form sections" }).getByRole("link", { name: "Internal Notes" }).click();
    await page.getByText("No notes posted").waitFor();
    await checkScreen(page, "form-notes-empty");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("the login page and the reporters' form load none of the forms' code, the builder's libraries least of all", async () => {
    const owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
    const forms = await owner.gql<{ reportForms: { list: { id: string; name: string }[] } }>(`{ reportForms { list { id name } } }`);
    const formID = forms.data!.reportForms.list.find((form) => form.name === MISCONDUCT)!.id;
    for (const address of [`${suite.consoleOrigin}/admin`, `${suite.reporterOrigin}/report/${formID}`]) {
      const { page } = await newPage(suite.browser);
      const scripts: { url: string; body: string }[] = [];
      page.on("response", async (response) => {
        if (response.request().resourceType() === "script") scripts.push({ url: response.url(), body: await response.text().catch(() => "") });
      });
      await page.goto(address, { waitUntil: "networkidle" });
      expect(scripts.length).toBeGreaterThan(0);
      const loaded = scripts.map((script) => script.url.split("/").at(-1));
      expect({ address, forms: loaded.filter((name) => /form-builder-page|forms-page|report-form-page|form-templates-page/.test(name ?? "")) }).toEqual({ address, forms: [] });
      // dnd-kit names its screen-reader regions DndDescribedBy / DndLiveRegion; the editor is ProseMirror underneath.
      const libraries = scripts.filter((script) => /DndDescribedBy|DndLiveRegion|ProseMirror/.test(script.body)).map((script) => script.url);
      expect({ address, libraries }).toEqual({ address, libraries: [] });
      await page.context().close();
    }
  });

  test("a member has no Forms link and no form screens", async () => {
    const { page } = await newPage(suite.browser);
    await signInToConsole(page, suite.consoleOrigin, "member@demo.test");
    const sidebar = page.getByRole("navigation", { name: "Main" });
    await sidebar.getByRole("link", { name: "Reports" }).waitFor();
    await expect(sidebar.getByRole("link", { name: "Forms" }).count()).resolves.toBe(0);
    await page.goto(`${suite.consoleOrigin}/admin/manage/report-forms`);
    await page.getByRole("heading", { name: "The page you are looking for is not found." }).waitFor();
    await page.goto(`${suite.consoleOrigin}/admin/manage/form-templates`);
    await page.getByRole("heading", { name: "The page you are looking for is not found." }).waitFor();
    await page.context().close();
  });

  for (const width of [1440, 390]) {
    test(`the super admin keeps the form templates (${width} px)`, async () => {
      const { page, problems } = await newPage(suite.browser, width);
      await signInToConsole(page, suite.consoleOrigin, "admin@lantern.test");
      if (width === 1440) await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Form Templates" }).click();
      else await page.goto(`${suite.consoleOrigin}/admin/manage/form-templates`);
      await page.getByRole("heading", { name: "Form Templates", level: 1 }).waitFor();
      for (const name of TEMPLATE_NAMES) await row(page, name).waitFor();
      await expect(page.getByRole("link", { name: "Create" }).getAttribute("href")).resolves.toBe("/admin/manage/form-templates/create");
      await expect(row(page, "Fraud Intake").getByRole("link", { name: "Fraud Intake" }).getAttribute("href")).resolves.toMatch(/^\/admin\/manage\/form-templates\/edit\/[0-9a-f-]+$/);
      await checkScreen(page, "form-templates");
      if (width === 1440) {
        await row(page, "Safety Intake").getByRole("button", { name: "Archive" }).click();
        await confirm(page, "Are you sure you want to archive this form template?");
        await notice(page, "Successfully archived form template");
        await row(page, "Safety Intake").waitFor({ state: "detached" });
        await page.getByLabel("Filter").selectOption("Archived");
        await row(page, "Safety Intake").getByRole("button", { name: "Unarchive" }).click();
        await confirm(page, "Are you sure you want to unarchive this form template?");
        await notice(page, "Successfully unarchived form template");
        await page.getByLabel("Search").fill("fraud");
        await page.getByLabel("Filter").selectOption("All");
        await row(page, "Fraud Intake").waitFor();
        await row(page, "Safety Intake").waitFor({ state: "detached" });

        // Inside one organisation the super admin sees its forms, under the organisation's addresses.
        const owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
        const viewer = await owner.gql<{ viewer: { organisation: { id: string } } }>(`{ viewer { organisation { id } } }`);
        const organisationID = viewer.data!.viewer.organisation.id;
        await page.goto(`${suite.consoleOrigin}/admin/manage/organisations/report-forms/${organisationID}`);
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Forms" }).waitFor();
        await expect(row(page, MISCONDUCT).getByRole("link", { name: MISCONDUCT }).getAttribute("href")).resolves.toMatch(
          new RegExp(`^/admin/manage/organisations/report-forms/overview/${organisationID}/[0-9a-f-]+$`),
        );
        await expect(page.getByRole("link", { name: "Create Your Own" }).getAttribute("href")).resolves.toBe(`/admin/manage/organisations/report-forms/create/${organisationID}`);
        await row(page, MISCONDUCT).getByRole("link", { name: MISCONDUCT }).click();
        await page.getByRole("heading", { name: MISCONDUCT, level: 1 }).waitFor();
        await page.getByRole("region", { name: "Form Information" }).getByText(/^Revision \d+$/).waitFor();
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
