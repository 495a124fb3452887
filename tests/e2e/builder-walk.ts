import { expect } from "bun:test";
import type { Page } from "playwright-core";

// The form builder as a staff member drives it, shared by the builder's own tests and the forms journey.

export const list = (page: Page) => page.locator(".builder-widgets");
export const titles = (page: Page) => list(page).locator(".builder-widget__title").allTextContents();
export const preview = (page: Page) => page.locator(".builder-preview");

/** Adds a widget by its spec label and fills what the editor shows for it. */
export async function addWidget(page: Page, label: string, fields: Record<string, string>, options: string[] = []) {
  await page.getByRole("group", { name: "Add a widget" }).getByRole("button", { name: `+ ${label}`, exact: true }).click();
  const panel = list(page).locator(".builder-widget__panel");
  // The new widget's first field has focus: its title can be typed at once.
  await panel.locator("input:focus").waitFor();
  for (const [field, value] of Object.entries(fields)) await panel.getByLabel(field, { exact: true }).fill(value);
  for (const option of options) {
    await panel.getByLabel("Options", { exact: true }).fill(option);
    await panel.getByLabel("Options", { exact: true }).press("Enter");
  }
  return panel;
}

/** Saves and waits for the outcome: the success notice, or the error block (whose text then fails the test). */
export async function save(page: Page, expected: "saved" | "refused" = "saved") {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.locator(".builder__error").or(page.getByText(/^(Report Form|Form Template) has been updated successfully$/).first()).first().waitFor();
  const error = (await page.locator(".builder__error").count()) > 0 ? await page.locator(".builder__error").textContent() : null;
  if (expected === "saved") expect(error).toBeNull();
  return error;
}

export async function openWidget(page: Page, title: string) {
  const summary = list(page).locator(".builder-widget__summary", { hasText: title });
  if ((await summary.getAttribute("aria-expanded")) !== "true") await summary.click();
  return list(page).locator(".builder-widget__panel");
}

export async function closeWidgets(page: Page) {
  for (const open of await list(page).locator('.builder-widget__summary[aria-expanded="true"]').all()) await open.click();
}

