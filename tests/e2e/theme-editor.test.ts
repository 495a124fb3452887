import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { THEME_GROUPS, THEME_KEYS } from "../../api/shared/theme.ts";
import { THEME_DEFAULTS } from "../../site/src/forms/theme-defaults.ts";
import { seriousAxeViolations } from "../helpers/axe.ts";
import { nothingReported, reported, startEditorsHarness, type EditorsHarness } from "./editors-harness.ts";

// The form builder's theme editor in Chromium, under the console's CSP: what the builder receives is a
// theme with hex colours only, unset keys meaning the palette default.

let harness: EditorsHarness;

beforeAll(async () => {
  harness = await startEditorsHarness();
});

afterAll(async () => {
  await harness?.close();
});

/** A group's fold by its exact label ("Buttons" is also in "Radio buttons and checkboxes"). */
const summary = (page: Page, label: string) => page.locator("summary").getByText(label, { exact: true });

const open = (theme: object = {}, viewport?: { width: number; height: number }) =>
  harness.open(`component=theme&theme=${encodeURIComponent(JSON.stringify(theme))}`, viewport);

describe("theme editor", () => {
  test("every key is listed under its group with its default, and the groups fold", async () => {
    const { page, problems } = await open();
    for (const group of THEME_GROUPS) await summary(page, group.label).click();
    expect(await page.locator(".theme-editor__hex").count()).toBe(THEME_KEYS.length);
    const title = page.getByRole("textbox", { name: "Section title background", exact: true });
    expect(await title.getAttribute("placeholder")).toBe(THEME_DEFAULTS.sectionTitleBackground);
    expect(await page.getByLabel("Section title background colour picker").inputValue()).toBe(THEME_DEFAULTS.sectionTitleBackground);
    await summary(page, THEME_GROUPS[0]!.label).click();
    expect(await title.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a bad hex shows an error and is not emitted; a good one is, and the picker follows", async () => {
    const { page } = await open();
    await summary(page, "Buttons").click();
    const field = page.getByRole("textbox", { name: "Next button background", exact: true });
    await field.fill("blue");
    await field.blur();
    await page.getByRole("alert").filter({ hasText: "Enter a hex colour such as #1a2b3c" }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await nothingReported(page)).toBe(true);
    await field.fill("#0A0");
    expect(JSON.parse(await reported(page))).toEqual({ nextButtonBackground: "#0a0" });
    expect(await page.getByLabel("Next button background colour picker").inputValue()).toBe("#00aa00");
    expect(await page.getByRole("alert").count()).toBe(0);
    await page.close();
  });

  test("the picker sets the hex field; reset one and reset all return to the palette", async () => {
    const { page } = await open({ errorText: "#123456", tooltipForeground: "#abcdef" });
    await summary(page, "Important message and errors").click();
    const picker = page.getByLabel("Important message heading colour picker");
    await picker.evaluate((input: HTMLInputElement) => {
      // The native colour dialog cannot be driven; setting the value and firing input is what it does.
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      setter.call(input, "#336699");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(JSON.parse(await reported(page))).toEqual({ errorText: "#123456", tooltipForeground: "#abcdef", importantMessageHeading: "#336699" });
    expect(await page.getByRole("textbox", { name: "Important message heading", exact: true }).inputValue()).toBe("#336699");

    await page.getByRole("button", { name: "Reset error text to default" }).click();
    expect(JSON.parse(await reported(page))).toEqual({ tooltipForeground: "#abcdef", importantMessageHeading: "#336699" });
    expect(await page.getByRole("textbox", { name: "Error text", exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Error text colour picker").inputValue()).toBe(THEME_DEFAULTS.errorText);

    await page.getByRole("button", { name: "Reset all" }).click();
    expect(JSON.parse(await reported(page))).toEqual({});
    expect(await page.getByRole("button", { name: "Reset all" }).isDisabled()).toBe(true);
    await page.close();
  });

  test("at 390 px nothing overflows sideways, and axe finds nothing serious", async () => {
    const { page } = await open({}, { width: 390, height: 844 });
    for (const group of THEME_GROUPS) await summary(page, group.label).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page, ".theme-editor")).toEqual([]);
    await page.close();
  });
});
