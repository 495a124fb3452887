import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { seriousAxeViolations } from "../helpers/axe.ts";
import { nothingReported, reported, startEditorsHarness, type EditorsHarness } from "./editors-harness.ts";

// The form builder's rich-text editor, alone in Chromium: the real component and milkdown, bundled for
// the browser and served under the console's CSP. What matters is what the builder receives: HTML in
// the allowlist of api/shared/rich-text.ts, unchanged by a trip through the editor.

let harness: EditorsHarness;

beforeAll(async () => {
  harness = await startEditorsHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function open(value = "") {
  const opened = await harness.open(`value=${encodeURIComponent(value)}`);
  await opened.page.getByRole("toolbar", { name: "Formatting" }).waitFor();
  return opened;
}

const editor = (page: Page) => page.getByRole("textbox", { name: "Welcome message" });

/**
 * Selects the editor's one line as a user would (click, End, Shift+Home) and waits until the
 * highlight is there: on a busy machine the keys can arrive before the editor has taken the focus.
 */
async function selectWholeLine(page: Page): Promise<void> {
  const line = (await editor(page).textContent())?.trim() ?? "";
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await editor(page).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Shift+Home");
    // The browser tells the editor of a new selection in a queued "selectionchange" event; on a loaded
    // machine the next step (focusing a toolbar field) can come first, and the editor then ignores it
    // as a selection outside itself. Delivering it now, while the editor has focus, is what a person's
    // slower hand allows for.
    const selected = await page.evaluate(() => {
      document.dispatchEvent(new Event("selectionchange"));
      return window.getSelection()?.toString().trim() ?? "";
    });
    if (selected === line) return;
  }
  throw new Error(`could not select "${line}" in the editor`);
}

/** Round trip: load HTML, change nothing that matters (type and remove a character), read what is reported. */
async function roundTrip(html: string, expectedProblems: string[] = []): Promise<string> {
  const { page, problems } = await open(html);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await editor(page).click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await page.keyboard.press("Backspace");
  await page.locator("#reported[data-reported='yes']").waitFor({ state: "attached" }).catch(() => undefined);
  const value = (await nothingReported(page)) ? html : await reported(page);
  expect(problems.map((problem) => problem.slice(0, 60))).toEqual(expectedProblems);
  expect(dialogs).toEqual([]);
  await page.close();
  return value;
}

describe("rich-text editor", () => {
  const samples: [string, string][] = [
    ["header 1", '<h1>Welcome</h1><p>text</p>'],
    ["header 2", '<h2>Welcome</h2><p>text</p>'],
    ["bold", "<p>a <strong>bold</strong> word</p>"],
    ["italic", "<p>an <em>italic</em> word</p>"],
    ["underline", "<p>an <u>underlined</u> word</p>"],
    ["strike", "<p>a <s>struck</s> word</p>"],
    ["blockquote", "<blockquote><p>quoted</p></blockquote><p>after</p>"],
    ["bullet list", "<ul><li><p>one</p></li><li><p>two</p></li></ul><p>after</p>"],
    ["ordered list", "<ol><li><p>one</p></li><li><p>two</p></li></ol><p>after</p>"],
    ["indent", '<p data-indent="2">indented</p><h1 data-indent="1">head</h1><ul><li data-indent="3"><p>item</p></li></ul><p>after</p>'],
    ["align", '<p style="text-align: center">centred</p><h2 style="text-align: right">right</h2><p style="text-align: justify">after</p>'],
    ["text colour", '<p>some <span style="color: #b42318">red</span> text</p>'],
    ["background colour", '<p>some <span style="background-color: #ffee00">marked</span> text</p>'],
    ["link", '<p>see <a href="https://example.org/help">help</a> and <a href="mailto:ethics@example.org">mail</a> now</p>'],
    ["do not translate", '<p>the <span translate="no">Lantern</span> team</p>'],
  ];
  for (const [name, html] of samples) {
    test(`${name} survives a trip through the editor`, async () => {
      expect(await roundTrip(html)).toBe(html);
    });
  }

  test("what the server would strip is not kept: a javascript: link becomes text, h3 becomes a paragraph", async () => {
    // Chromium reports the handler even in the inert document the HTML is read into; the CSP blocks it and nothing runs.
    const blocked = "csp: Executing inline event handler violates the following C";
    const value = await roundTrip('<p><a href="javascript:alert(1)">x</a> <img src="x" onerror="alert(1)"></p><h3>small</h3>', [blocked]);
    expect(value).toBe("<p>x</p><p>small</p>");
  });

  test("typing and the Bold button produce <strong>; clearing everything reports ''", async () => {
    const { page, problems, requests } = await open();
    await editor(page).click();
    await page.keyboard.type("Hello ");
    const bold = page.getByRole("button", { name: "Bold" });
    expect(await bold.getAttribute("aria-pressed")).toBe("false");
    await bold.click();
    expect(await bold.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.type("world");
    await page.waitForFunction(() => document.querySelector("#reported")?.textContent === "<p>Hello <strong>world</strong></p>");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Backspace");
    await page.waitForFunction(() => document.querySelector("#reported")?.textContent === "");
    expect(problems).toEqual([]);
    expect(requests.every((url) => url.startsWith(`${harness.origin}/`))).toBe(true);
    // Milkdown's styles come from the console's stylesheet: nothing is injected into the page.
    expect(await page.locator("style").count()).toBe(0);
    await page.close();
  });

  test("a javascript: link is refused with a message; an https link is applied", async () => {
    const { page } = await open("<p>Read the policy</p>");
    await selectWholeLine(page);
    await page.getByRole("button", { name: "Link" }).click();
    const address = page.getByRole("textbox", { name: "Link address" });
    await address.fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Apply link" }).click();
    await page.getByRole("alert").filter({ hasText: "Links must start with http://, https:// or mailto:" }).waitFor();
    expect(await nothingReported(page)).toBe(true);
    await address.fill("https://example.org/policy");
    await page.getByRole("button", { name: "Apply link" }).click();
    expect(await reported(page)).toBe('<p><a href="https://example.org/policy">Read the policy</a></p>');
    await page.close();
  });

  test("colour from the hex field; a bad hex is refused and not emitted", async () => {
    const { page } = await open("<p>Colour me</p>");
    await selectWholeLine(page);
    const hex = page.getByRole("textbox", { name: "Text colour hex" });
    await hex.fill("red");
    await hex.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Enter a hex colour such as #1a2b3c" }).waitFor();
    expect(await nothingReported(page)).toBe(true);
    await hex.fill("#1A2B3C");
    await hex.press("Enter");
    expect(await reported(page)).toBe('<p><span style="color: #1a2b3c">Colour me</span></p>');
    expect(await page.getByLabel("Text colour picker").inputValue()).toBe("#1a2b3c");
    await page.close();
  });

  test("every control is reachable by keyboard, the label names the editor, and axe finds nothing serious", async () => {
    const { page } = await open("<p>Text</p>");
    const names: string[] = [];
    await page.locator("body").focus();
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press("Tab");
      const name = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        return active?.getAttribute("aria-label") ?? active?.textContent?.trim() ?? "";
      });
      names.push(name);
      if (name === "Load from outside") break;
    }
    for (const label of ["Bold", "Italic", "Underline", "Strikethrough", "Header 1", "Header 2", "Blockquote", "Bullet list", "Numbered list", "Increase indent", "Align left", "Align centre", "Align right", "Justify", "Text colour picker", "Text colour hex", "Background colour picker", "Background colour hex", "Do not translate"]) {
      expect(names).toContain(label);
    }
    expect(names.some((name) => name === "Text")).toBe(true);
    expect(await editor(page).getAttribute("id")).toBe("message");
    expect(await seriousAxeViolations(page, ".rich-text")).toEqual([]);
    await page.close();
  });

  test("a value from outside replaces the document without being reported back", async () => {
    const { page } = await open("<p>Before</p>");
    await page.getByRole("button", { name: "Load from outside" }).click();
    await editor(page).getByText("from outside").waitFor();
    expect(await nothingReported(page)).toBe(true);
    await page.close();
  });

  test("a disabled editor takes no typing and its toolbar is disabled", async () => {
    const { page } = await open("<p>Fixed</p>");
    await page.getByRole("button", { name: "Toggle disabled" }).click();
    await page.waitForFunction(() => document.querySelector("#message")?.getAttribute("contenteditable") === "false");
    expect(await page.getByRole("button", { name: "Bold" }).isDisabled()).toBe(true);
    await editor(page).click({ force: true });
    await page.keyboard.type("more");
    expect(await editor(page).textContent()).toBe("Fixed");
    expect(await nothingReported(page)).toBe(true);
    await page.close();
  });

  test("keyboard shortcuts mark text, and at 390 px the toolbar wraps instead of overflowing", async () => {
    const opened = await harness.open("value=", { width: 390, height: 844 });
    const { page } = opened;
    await page.getByRole("toolbar", { name: "Formatting" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await editor(page).click();
    await page.keyboard.press("ControlOrMeta+i");
    await page.keyboard.type("slanted");
    await page.keyboard.press("ControlOrMeta+i");
    await page.keyboard.press("ControlOrMeta+u");
    await page.keyboard.type(" under");
    await page.waitForFunction(() => document.querySelector("#reported")?.textContent === "<p><em>slanted</em><u> under</u></p>");
    await page.close();
  });
});
