import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { derivePages, visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { seriousAxeViolations } from "../helpers/axe.ts";
import { screenshot } from "../helpers/browser.ts";
import { answerFor } from "../helpers/reporter.ts";

// What the reporter journeys share: answering the demo form as a person would, and the checks
// every reporter screen must pass (axe-core, nothing wider than the screen, Quick Exit covering nothing).

export const widgetBox = (page: Page, id: string) => page.locator(`[data-widget-id="${id}"]`);

/** Answers one widget the way a person would: typing, ticking, choosing. */
export async function answer(page: Page, widget: FormWidget, values: string[]) {
  const box = widgetBox(page, widget.id);
  switch (widget.type) {
    case "Radio":
      await box.getByRole("radio", { name: values[0]!, exact: true }).check();
      break;
    case "Checkbox":
      for (const value of values) await box.getByRole("checkbox", { name: value, exact: true }).check();
      break;
    case "Select":
      await box.locator("select").selectOption(values[0]!);
      break;
    case "Date":
      await box.locator('input[type="date"]').fill(values[0]!);
      break;
    default:
      await box.locator("input, textarea").first().fill(values[0]!);
  }
}

export async function next(page: Page) {
  await page.getByRole("button", { name: "Next", exact: true }).click();
}

type FillOptions = {
  flipCondition: boolean;
  /** Runs on each page as it appears, before anything is typed. */
  onPageShown?: (pageIndex: number, pageName: string) => Promise<void>;
  /** Runs on each page once it is filled in, before Next (screenshots, checks). */
  onPage?: (pageIndex: number, pageName: string) => Promise<void>;
  /** Runs once the condition's guarded question has appeared. */
  onConditionShown?: () => Promise<void>;
  /** Runs once the empty first page showed 'Required'. */
  onRequired?: () => Promise<void>;
};

/**
 * Walks the form's pages as a person would: on the page of the All-condition it first picks the
 * answer that hides the guarded question, then the one that shows it; on the first page it tries
 * Next empty and sees 'Required'.
 */
export async function fillEveryPage(page: Page, widgets: FormWidget[], options: FillOptions) {
  const guarded = widgets.find((w) => w.condition?.matchType === "All")!;
  const rule = guarded.condition!.rules[0]!;
  const source = widgets.find((w) => w.id === rule.conditionWidgetID)!;
  const other = source.answers.find((a) => a !== rule.conditionAnswer)!;
  const choices: Record<string, string[]> = { [source.id]: [rule.conditionAnswer] };
  const all: Record<string, string[]> = {};
  for (const w of widgets) if (w.type !== "Section" && w.type !== "Note") all[w.id] = answerFor(w, choices);
  const visible = visibleWidgetIds(widgets, all);
  for (const formPage of derivePages(widgets)) {
    const questions = formPage.widgets.filter((w) => visible.has(w.id) && w.type !== "Section" && w.type !== "Note");
    if (questions.length === 0) continue;
    await widgetBox(page, questions[0]!.id).waitFor();
    await options.onPageShown?.(formPage.index, formPage.name);
    if (options.flipCondition && formPage.widgets.some((w) => w.id === source.id) && formPage.widgets.some((w) => w.id === guarded.id)) {
      await answer(page, source, [other]);
      expect(await widgetBox(page, guarded.id).count()).toBe(0);
      await answer(page, source, [rule.conditionAnswer]);
      await widgetBox(page, guarded.id).waitFor();
      await options.onConditionShown?.();
    }
    if (formPage.index === 0 && options.flipCondition) {
      await next(page);
      await page.getByText("Required").first().waitFor();
      await options.onRequired?.();
    }
    for (const question of questions) await answer(page, question, all[question.id]!);
    await options.onPage?.(formPage.index, formPage.name);
    await next(page);
  }
}

/** The answers fillEveryPage gives, to check that none of them reaches a title. */
export function typedAnswers(widgets: FormWidget[]): string[] {
  return widgets.filter((w) => w.type === "ShortText" || w.type === "LongText").map((w) => answerFor(w)[0]!);
}

/**
 * Every control on the page that Quick Exit (its bar, or a floating button) overlaps when the
 * control is brought to the top of the screen, as following a link to it, an error scrolled into
 * view or a scripted focus does: scrollIntoView honours the page's scroll-padding, as WCAG 2.4.11
 * needs. Each control is then focused where it is, to catch a control the browser's own focus
 * scrolling would leave under it.
 */
export async function controlsUnderQuickExit(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cover = document.querySelector(".quick-exit-bar") ?? document.querySelector(".quick-exit");
    if (!cover) return ["no Quick Exit on the page"];
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const controls = [...document.querySelectorAll<HTMLElement>("main :is(a[href], button, input, select, textarea, [tabindex])")].filter(
      (element) => element.getClientRects().length > 0 && !element.closest("[inert], dialog"),
    );
    const covered = new Set<string>();
    const check = (control: HTMLElement) => {
      const box = control.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && overlaps(box, cover.getBoundingClientRect())) covered.add(control.outerHTML.slice(0, 120));
    };
    for (const control of controls) {
      control.scrollIntoView({ block: "start" });
      check(control);
      control.focus();
      if (document.activeElement === control) check(control);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    return [...covered];
  });
}

/** Quick Exit itself must not cover anything the reporter needs, and must be on screen. */
async function expectQuickExitCoversNothing(page: Page, name: string) {
  const exit = page.locator(".quick-exit").first();
  expect({ name, visible: await exit.isVisible() }).toEqual({ name, visible: true });
  expect({ name, covered: await controlsUnderQuickExit(page) }).toEqual({ name, covered: [] });
}

/**
 * The checks each distinct reporter screen passes, in the state it is now: no serious or critical
 * axe-core violation, no sideways scrolling of the page, and (unless a modal dialog is open, which
 * makes the page inert) Quick Exit covering no control. Then a screenshot.
 */
export async function checkScreen(page: Page, name: string, options: { quickExit?: boolean } = {}) {
  expect({ name, violations: await seriousAxeViolations(page) }).toEqual({ name, violations: [] });
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ name, scrollWidth: scrollWidth <= width }).toEqual({ name, scrollWidth: true });
  if (options.quickExit !== false) await expectQuickExitCoversNothing(page, name);
  await screenshot(page, name);
}

/**
 * The focused element's text, to check where focus went. Focus moves in an effect right after the
 * new content is drawn, so this waits a little for `expected` before answering what it sees.
 */
export async function focusedText(page: Page, expected?: string): Promise<string> {
  const read = () => page.evaluate(() => (document.activeElement && document.activeElement !== document.body ? (document.activeElement.textContent ?? "").trim() : "(body)"));
  let text = await read();
  for (let attempt = 0; expected !== undefined && text !== expected && attempt < 40; attempt++) {
    await Bun.sleep(25);
    text = await read();
  }
  return text;
}
