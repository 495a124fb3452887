import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { recordProblems } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { addWidget, openWidget, preview, save } from "./builder-walk.ts";
import { next } from "./reporter-walk.ts";

// Issue 9's whole story in Chromium: the demo owner builds a form of their own in the console,
// themes and publishes it; a reporter in another browser context opens its public link and
// reports; later edits wait for the next publish; a secured form asks for its password; a locked
// form refuses edits.

const suite = demoInBrowser();
const FORM_NAME = "Safety Concern Form";
const NEXT_BUTTON_COLOUR = "#7a1f5c";
const FORM_PASSWORD = "harbour-lights-42";

let formID = "";
let publicLink = "";

async function ownerPage(browser: Browser, origin: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInToConsole(page, origin, "owner@demo.test");
  return page;
}

/** A reporter: a browser context of their own, with no console session. */
async function reporterPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  return context.newPage();
}

async function publishFromBuilder(page: Page) {
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Report Form has been published").first().waitFor();
}

async function overviewStatus(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/admin/manage/report-forms/overview/${formID}`);
  const status = page.locator("dt", { hasText: /^Status$/ }).locator("xpath=following-sibling::dd[1]");
  await status.waitFor();
  return (await status.textContent())!.trim();
}

describe("a report form of the organisation's own, from the builder to a reporter", () => {
  test("the owner builds, themes and publishes a two-page form; a reporter sees its colour, bold welcome and condition, and submits", async () => {
    const { browser, consoleOrigin, reporterOrigin } = suite;
    const owner = await ownerPage(browser, consoleOrigin);
    const problems = recordProblems(owner);

    await owner.goto(`${consoleOrigin}/admin/manage/report-forms`);
    await owner.getByRole("link", { name: "Create Your Own" }).click();
    await owner.getByRole("heading", { name: "Create A Report Form" }).waitFor();
    await owner.getByLabel("Form Name").fill(FORM_NAME);

    // Two pages and every widget type; the witness question guards the description.
    await addWidget(owner, "Section", { "Section Title": "What happened" });
    const summary = await addWidget(owner, "Single Line", { Question: "Sum it up in a line" });
    await summary.getByLabel("Required").check();
    await addWidget(owner, "Multiple Options 1 choice", { Question: "Did you see it yourself" }, ["Yes", "No"]);
    await addWidget(owner, "Multiline", { Question: "Describe what you saw" });
    const pageBreak = await addWidget(owner, "Page Break", { "Section Title": "Where and when" });
    await pageBreak.getByLabel("Page Name").fill("Details");
    await addWidget(owner, "Select Options 1 choice", { Question: "Where was it" }, ["Warehouse", "Office"]);
    await addWidget(owner, "Multiple Options 1+ choices", { Question: "Who was there" }, ["Manager", "Contractor"]);
    await addWidget(owner, "Date picker", { Question: "On what day" });
    await addWidget(owner, "Note", { "Note Title": "Thank you", "Note Text": "Every report is read by the safety team." });

    const describeIt = await openWidget(owner, "Describe what you saw");
    await describeIt.getByRole("button", { name: "Conditions" }).click();
    const dialog = owner.getByRole("dialog", { name: "Conditions: Describe what you saw" });
    await dialog.getByLabel("Show this widget when").selectOption("All");
    await dialog.getByLabel("Question").selectOption({ label: "#3 Did you see it yourself" });
    await dialog.getByLabel("Answer").selectOption("Yes");
    await dialog.getByRole("button", { name: "Save Condition" }).click();
    await dialog.waitFor({ state: "detached" });

    // A bold welcome, typed into the rich-text editor and made bold from its toolbar.
    const welcome = owner.locator(".rich-text", { has: owner.locator("#builder-welcomeMessageContent") });
    await owner.locator("#builder-welcomeMessageContent").click();
    await owner.keyboard.type("Your name is never asked for.");
    await owner.keyboard.press("ControlOrMeta+a");
    await welcome.getByRole("button", { name: "Bold", exact: true }).click();

    // The Next button's colour, from the theme editor.
    await owner.locator("summary", { hasText: /^Buttons$/ }).click();
    await owner.getByLabel("Next button background", { exact: true }).fill(NEXT_BUTTON_COLOUR);
    // The preview shows the welcome as reporters will meet it: bold text, the themed Next button.
    const welcomePreview = preview(owner).getByRole("region", { name: "Welcome" });
    await welcomePreview.locator("strong", { hasText: "Your name is never asked for." }).waitFor();
    expect(await welcomePreview.locator(".report-button--next").evaluate((button) => getComputedStyle(button).backgroundColor)).toBe("rgb(122, 31, 92)");
    await expectAxeClean(owner, "the builder with a theme and a welcome");

    await save(owner);
    await owner.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    formID = new URL(owner.url()).pathname.split("/").at(-1)!;
    await publishFromBuilder(owner);

    // The overview gives the public link on the organisation's own host.
    expect(await overviewStatus(owner, consoleOrigin)).toBe("Published");
    const link = owner.getByRole("link", { name: /\/report\// });
    // Links are built from the configured port (3000 by default); the test server listens on a free one.
    const href = new URL((await link.getAttribute("href"))!);
    expect([href.protocol, href.hostname, href.pathname]).toEqual(["http:", "demo.localhost", `/report/${formID}`]);
    publicLink = `${reporterOrigin}${href.pathname}`;
    expect(await link.getAttribute("target")).toBe("_blank");
    await expectAxeClean(owner, "the form's overview");

    // The reporter, in a browser of their own.
    const reporter = await reporterPage(browser);
    const reporterProblems = recordProblems(reporter);
    await reporter.goto(publicLink);
    await reporter.getByRole("heading", { name: "Welcome" }).waitFor();
    await reporter.locator("strong", { hasText: "Your name is never asked for." }).waitFor();
    const nextColour = await reporter.getByRole("button", { name: "Next", exact: true }).evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(nextColour).toBe("rgb(122, 31, 92)");
    await next(reporter);

    await reporter.getByLabel("Sum it up in a line").fill("A forklift was driven without its guard");
    await reporter.getByRole("radio", { name: "No", exact: true }).check();
    expect(await reporter.getByLabel("Describe what you saw").count()).toBe(0);
    await reporter.getByRole("radio", { name: "Yes", exact: true }).check();
    await reporter.getByLabel("Describe what you saw").fill("It happened twice on the night shift.");
    await next(reporter);

    await reporter.locator("select").selectOption("Warehouse");
    await reporter.getByRole("checkbox", { name: "Contractor", exact: true }).check();
    await reporter.locator('input[type="date"]').fill("2026-11-02");
    await reporter.getByText("Every report is read by the safety team.").waitFor();
    await next(reporter);

    // A new form takes files with a report, as the builder's default says.
    await reporter.getByRole("heading", { name: "Attach files" }).waitFor();
    await next(reporter);
    await reporter.getByRole("heading", { name: "Review" }).waitFor();
    await reporter.getByText("It happened twice on the night shift.").waitFor();
    await reporter.getByRole("button", { name: "Submit" }).click();
    await reporter.getByRole("heading", { name: "Report Submitted" }).waitFor();
    const [reportID] = await reporter.locator(".credentials__value").allTextContents();
    expect(reportID).toMatch(/^\w{5}-\w{5}$/);
    expect(reporterProblems).toEqual([]);
    await reporter.context().close();

    // The owner finds the report among the form's latest reports.
    await owner.goto(`${consoleOrigin}/admin/manage/report-forms/overview/${formID}`);
    await owner.getByRole("link", { name: reportID! }).waitFor();
    expect(problems).toEqual([]);
    await owner.context().close();
  });

  test("an edit shows the form as Outdated and reporters keep the published build until it is published again", async () => {
    const { browser, consoleOrigin } = suite;
    const owner = await ownerPage(browser, consoleOrigin);
    await owner.goto(`${consoleOrigin}/admin/manage/report-forms/edit/${formID}`);
    await owner.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    const question = await openWidget(owner, "Sum it up in a line");
    await question.getByLabel("Question", { exact: true }).fill("In one line, what happened");
    await save(owner);
    expect(await overviewStatus(owner, consoleOrigin)).toBe("Outdated");

    const before = await reporterPage(browser);
    await before.goto(publicLink);
    await next(before);
    await before.getByLabel("Sum it up in a line").waitFor();
    expect(await before.getByLabel("In one line, what happened").count()).toBe(0);
    await before.context().close();

    await owner.goto(`${consoleOrigin}/admin/manage/report-forms/edit/${formID}`);
    await owner.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    await publishFromBuilder(owner);
    expect(await overviewStatus(owner, consoleOrigin)).toBe("Published");

    const after = await reporterPage(browser);
    await after.goto(publicLink);
    await next(after);
    await after.getByLabel("In one line, what happened").waitFor();
    await after.context().close();
    await owner.context().close();
  });

  test("a secured form asks reporters for its password; a locked form refuses edits", async () => {
    const { browser, consoleOrigin } = suite;
    const owner = await ownerPage(browser, consoleOrigin);
    await owner.goto(`${consoleOrigin}/admin/manage/report-forms/edit/${formID}`);
    await owner.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    await owner.getByLabel("Secure this form with a password").check();
    await owner.getByRole("button", { name: "Save", exact: true }).click();
    await owner.locator("#builder-password-error", { hasText: "Password is required" }).or(owner.getByText("Password is required").first()).first().waitFor();
    await owner.getByLabel("Form Password").fill(FORM_PASSWORD);
    await save(owner);

    const reporter = await reporterPage(browser);
    await reporter.goto(publicLink);
    await reporter.getByLabel("Form Password").fill("not-the-password");
    await next(reporter);
    await reporter.getByText("Form password is incorrect").waitFor();
    await reporter.getByLabel("Form Password").fill(FORM_PASSWORD);
    await next(reporter);
    await reporter.getByLabel("In one line, what happened").waitFor();
    await reporter.context().close();

    // Locked from the forms list: the builder then explains the lock and every control is off.
    await owner.goto(`${consoleOrigin}/admin/manage/report-forms`);
    await owner.getByRole("switch", { name: `Form lock for ${FORM_NAME}` }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await owner.getByRole("switch", { name: `Form lock for ${FORM_NAME}`, checked: true }).waitFor();
    await owner.goto(`${consoleOrigin}/admin/manage/report-forms/edit/${formID}`);
    await owner.getByText("This form is locked: its widgets and settings cannot be changed.").waitFor();
    expect(await owner.getByLabel("Form Name").isDisabled()).toBe(true);
    expect(await owner.getByRole("group", { name: "Add a widget" }).getByRole("button", { name: "+ Single Line", exact: true }).isDisabled()).toBe(true);
    await owner.context().close();
  });
});
