import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ARTIFACTS_DIR, recordProblems } from "../helpers/browser.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { addWidget, closeWidgets, list, openWidget, preview, save, titles } from "./builder-walk.ts";

// Issue 9's builder in Chromium: the demo owner builds a two-page form with every widget type and a
// condition, reorders with the keyboard, saves, reloads; then two editors collide, a leave is
// prompted, and a locked form refuses edits.

const suite = demoInBrowser();
const CREATE = "/admin/manage/report-forms/create";
const LEAVE = "You have unsaved changes, are you sure you want to leave?";

let editPath = "";

async function shoot(page: Page, name: string, fullPage = true) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `form-builder-${name}.png`), fullPage });
}

async function ownerPage(browser: Browser, origin: string, width = 1440): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInToConsole(page, origin, "owner@demo.test");
  return page;
}

/** Moves a widget with the keyboard only: Space picks it up, arrows move it, Space drops it. */
async function keyboardMove(page: Page, title: string, key: "ArrowUp" | "ArrowDown", steps: number) {
  const handle = list(page).getByRole("button", { name: new RegExp(`^Move .*"${title}"`) });
  const start = Number(/position (\d+) of/.exec((await handle.getAttribute("aria-label")) ?? "")?.[1]);
  await handle.focus();
  await page.keyboard.press("Space");
  // Picked up: announced as such, then as over its own place.
  await page.getByText(new RegExp(`"${title}"(,| is over) position ${start} of`)).last().waitFor({ state: "attached" });
  for (let step = 1; step <= steps; step += 1) {
    await page.keyboard.press(key);
    // Each step is announced before the next key is read, as a screen-reader user would hear it.
    await page.getByText(`"${title}" is over position ${key === "ArrowUp" ? start - step : start + step} of`).waitFor({ state: "attached" });
  }
  await page.keyboard.press("Space");
}

describe("the form builder in Chromium", () => {
  test("the owner builds a two-page form with every widget type and a condition, reorders by keyboard, saves and finds it all after a reload", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await ownerPage(browser, consoleOrigin);
    const problems = recordProblems(page);
    await page.goto(`${consoleOrigin}${CREATE}`);
    await page.getByRole("heading", { name: "Create A Report Form" }).waitFor();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Report Forms" }).getAttribute("href")).resolves.toBe("/admin/manage/report-forms");

    // Saving an empty editor says what is missing and sends nothing.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator("#builder-name-error", { hasText: "Required" }).waitFor();

    await page.getByLabel("Form Name").fill("Builder Journey Form");
    await addWidget(page, "Section", { "Section Title": "About you" });
    const text = await addWidget(page, "Single Line", { Question: "Your name" });
    await text.getByLabel("Required").check();
    const radio = await addWidget(page, "Multiple Options 1 choice", { Question: "Did you witness it" }, ["Yes", "No", "Yes"]);
    await radio.getByText('"Yes" is already an option').waitFor();
    expect(await radio.locator(".builder-tag").allTextContents()).toEqual(["Yes×", "No×"]);
    const pageBreak = await addWidget(page, "Page Break", { "Section Title": "What happened" });
    expect(await pageBreak.getByLabel("Page Name").inputValue()).toBe("New Page Name");
    await pageBreak.getByLabel("Page Name").fill("Details");
    await addWidget(page, "Multiline", { Question: "Describe it" });
    const select = await addWidget(page, "Select Options 1 choice", { Question: "Where" }, ["Office", "Remote", "Home"]);
    // Backspace in the empty input takes the last tag back.
    await select.getByLabel("Options", { exact: true }).press("Backspace");
    expect(await select.locator(".builder-tag").allTextContents()).toEqual(["Office×", "Remote×"]);
    await addWidget(page, "Multiple Options 1+ choices", { Question: "Who was involved" }, ["Manager", "Colleague"]);
    await addWidget(page, "Date picker", { Question: "When" });
    await addWidget(page, "Note", { "Note Title": "Thank you", "Note Text": "We read every report." });
    expect(await titles(page)).toEqual(["About you", "Your name", "Did you witness it", "What happened", "Describe it", "Where", "Who was involved", "When", "Thank you"]);

    // The condition: 'Describe it' shows only when the witness question is answered Yes.
    const describe = await openWidget(page, "Describe it");
    await describe.getByRole("button", { name: "Conditions" }).click();
    const dialog = page.getByRole("dialog", { name: "Conditions: Describe it" });
    await dialog.getByRole("button", { name: "Save Condition" }).click();
    expect(await dialog.locator(".field__error").allTextContents()).toEqual(["Required", "Required", "Required"]);
    // Only earlier questions are offered: no sections, nothing below.
    expect(await dialog.getByLabel("Question").locator("option").allTextContents()).toEqual(["Choose…", "#2 Your name", "#3 Did you witness it"]);
    await dialog.getByLabel("Show this widget when").selectOption("All");
    await dialog.getByLabel("Question").selectOption({ label: "#3 Did you witness it" });
    expect(await dialog.getByLabel("Answer").locator("option").allTextContents()).toEqual(["Choose…", "Yes", "No"]);
    await dialog.getByLabel("Answer").selectOption("Yes");
    await expectAxeClean(page, "conditions dialog");
    await dialog.getByRole("button", { name: "Save Condition" }).click();
    await dialog.waitFor({ state: "detached" });

    // The preview draws both pages; clicking Yes there shows the conditional question.
    await preview(page).getByRole("region", { name: "Page 2: Details" }).waitFor();
    expect(await preview(page).getByLabel("Describe it").count()).toBe(0);
    await preview(page).getByRole("radio", { name: "Yes" }).check();
    await preview(page).getByLabel("Describe it").waitFor();

    // Keyboard reordering: 'When' goes above 'Who was involved', and the move is announced.
    await closeWidgets(page);
    await keyboardMove(page, "When", "ArrowUp", 1);
    await page.getByText('Date picker "When" dropped at position 7 of 9.').waitFor({ state: "attached" });
    expect((await titles(page)).slice(5)).toEqual(["Where", "When", "Who was involved", "Thank you"]);
    // A drop above the question its condition reads is refused, with the reason.
    await keyboardMove(page, "Describe it", "ArrowUp", 3);
    await page.locator(".builder-refusal", { hasText: 'the condition of "Describe it" must refer to "Did you witness it" above it' }).waitFor();
    expect((await titles(page))[4]).toBe("Describe it");

    await expectAxeClean(page, "builder before saving");
    await shoot(page, "1440-create");
    await save(page);
    await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/manage\/report-forms\/edit\/[^/]+$/);
    editPath = new URL(page.url()).pathname;

    await page.reload();
    await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    expect(await page.getByLabel("Form Name").inputValue()).toBe("Builder Journey Form");
    expect(await titles(page)).toEqual(["About you", "Your name", "Did you witness it", "What happened", "Describe it", "Where", "When", "Who was involved", "Thank you"]);
    const reloaded = await openWidget(page, "Describe it");
    await reloaded.getByRole("button", { name: "Conditions (1)" }).waitFor();
    const pageBreakAgain = await openWidget(page, "What happened");
    expect(await pageBreakAgain.getByLabel("Page Name").inputValue()).toBe("Details");
    expect(await (await openWidget(page, "Where")).locator(".builder-tag").allTextContents()).toEqual(["Office×", "Remote×"]);
    await expectAxeClean(page, "builder after reload");

    expect(problems).toEqual([]);
    await page.context().close();

    // On a phone the editor and the preview stack, and nothing scrolls sideways.
    const phone = await ownerPage(browser, consoleOrigin, 390);
    await phone.goto(`${consoleOrigin}${editPath}`);
    await phone.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    await shoot(phone, "390-top", false);
    await (await openWidget(phone, "Where")).scrollIntoViewIfNeeded();
    await shoot(phone, "390-widgets", false);
    await preview(phone).getByRole("region", { name: "Page 2: Details" }).scrollIntoViewIfNeeded();
    await shoot(phone, "390-preview", false);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAxeClean(phone, "builder at 390 px");
    await phone.context().close();
  });

  test("two editors of one form: the second save is refused with who saved first, and Reload brings their work", async () => {
    const { browser, consoleOrigin } = suite;
    const [first, second] = [await ownerPage(browser, consoleOrigin), await ownerPage(browser, consoleOrigin)];
    for (const page of [first, second]) {
      await page.goto(`${consoleOrigin}${editPath}`);
      await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    }
    await first.getByLabel("Form Name").fill("Renamed by the first editor");
    await save(first);

    await second.getByLabel("Form Name").fill("Renamed by the second editor");
    expect(await save(second, "refused")).toContain("owner@demo.test saved this form while you were editing.");
    const conflict = second.locator(".builder__error");
    await conflict.getByText("owner@demo.test saved this form while you were editing. Reload it to see their changes; yours are not saved.").waitFor();
    await conflict.getByRole("button", { name: "Reload" }).click();
    await conflict.waitFor({ state: "detached" });
    expect(await second.getByLabel("Form Name").inputValue()).toBe("Renamed by the first editor");
    await first.context().close();
    await second.context().close();
  });

  test("leaving with unsaved changes asks first, and staying keeps the work", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await ownerPage(browser, consoleOrigin);
    await page.goto(`${consoleOrigin}${editPath}`);
    await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    await page.getByLabel("Form Name").fill("Not saved yet");
    const prompted = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      }),
    );
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Report Forms" }).click();
    expect(await prompted).toBe(LEAVE);
    expect(new URL(page.url()).pathname).toBe(editPath);
    expect(await page.getByLabel("Form Name").inputValue()).toBe("Not saved yet");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Report Forms" }).click();
    await page.waitForURL(`${consoleOrigin}/admin/manage/report-forms`);
    await page.context().close();
  });

  test("a locked form refuses every edit until it is unlocked and saved", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await ownerPage(browser, consoleOrigin);
    await page.goto(`${consoleOrigin}${editPath}`);
    await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    await page.getByLabel("Lock this form").check();
    await save(page);
    await page.getByText(/This form is locked/).waitFor();
    expect(await page.getByLabel("Form Name").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "+ Section", exact: true }).isDisabled()).toBe(true);
    expect(await list(page).getByRole("button", { name: /^Move / }).first().isDisabled()).toBe(true);
    expect(await (await openWidget(page, "Your name")).getByLabel("Question").isDisabled()).toBe(true);
    await expectAxeClean(page, "locked form");
    await shoot(page, "1440-locked");

    await page.reload();
    await page.getByText(/This form is locked/).waitFor();
    await page.getByLabel("Lock this form").uncheck();
    await save(page);
    await page.getByText(/This form is locked/).waitFor({ state: "detached" });
    expect(await page.getByLabel("Form Name").isDisabled()).toBe(false);
    await page.context().close();
  });

  test("a super admin's template becomes the start of an owner's new form", async () => {
    const { browser, consoleOrigin } = suite;
    const admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await admin.goto(`${consoleOrigin}/admin`);
    await admin.getByLabel("Email Address").fill("admin@lantern.test");
    await admin.getByLabel("Password").fill(DEMO_PASSWORD);
    await admin.getByRole("button", { name: "Login" }).click();
    await admin.waitForURL((url) => url.pathname !== "/admin");
    await admin.goto(`${consoleOrigin}/admin/manage/form-templates/create`);
    await admin.getByRole("heading", { name: "Create A Form Template" }).waitFor();
    await admin.getByLabel("Template Name").fill("Builder Template");
    await addWidget(admin, "Section", { "Section Title": "Start" });
    await addWidget(admin, "Multiple Options 1 choice", { Question: "Is it urgent" }, ["Yes", "No"]);
    await addWidget(admin, "Multiline", { Question: "Why" });
    await save(admin);
    await admin.getByRole("heading", { name: "Edit A Form Template" }).waitFor();
    const templateID = new URL(admin.url()).pathname.split("/").at(-1)!;
    await admin.context().close();

    const page = await ownerPage(browser, consoleOrigin);
    await page.goto(`${consoleOrigin}${CREATE}?template_id=${templateID}`);
    await page.getByRole("heading", { name: "Create A Report Form" }).waitFor();
    expect(await page.getByLabel("Form Name").inputValue()).toBe("Builder Template");
    expect(await titles(page)).toEqual(["Start", "Is it urgent", "Why"]);
    await page.getByLabel("Form Name").fill("From the template");
    await save(page);
    await page.getByRole("heading", { name: "Edit A Report Form" }).waitFor();
    expect(await titles(page)).toEqual(["Start", "Is it urgent", "Why"]);

    // Publish and Unpublish are offered by state (spec §4); the saved build goes live.
    expect(await page.getByRole("button", { name: "Unpublish" }).count()).toBe(0);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Report Form has been published").first().waitFor();
    await page.getByText("Status: Published").waitFor();
    expect(await page.getByRole("button", { name: "Publish", exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Unpublish" }).click();
    await page.getByText("Report Form has been unpublished").first().waitFor();
    await page.getByText("Status: Unpublished").waitFor();

    await page.goto(`${consoleOrigin}${CREATE}?template_id=no-such-template`);
    await page.getByRole("heading", { name: "Form Template is not found" }).waitFor();
    await page.goto(`${consoleOrigin}/admin/manage/report-forms/edit/no-such-form`);
    await page.getByRole("heading", { name: "Report Form is not found" }).waitFor();
    await page.context().close();
  });
});
