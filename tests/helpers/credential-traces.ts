import type { Page } from "playwright-core";

// Where a reporter's report ID and password could still be found by the next person at the same
// browser: in the page (its markup, attributes, field values, title) and in what the browser keeps
// for the page's origin (decision 066).

/** What a page holds as text, read in the page itself; also run inside the page at `pageshow`, so it must stay self-contained. */
function pageText(): Record<string, string> {
  const held: Record<string, string> = { markup: document.documentElement.outerHTML, title: document.title, address: location.href };
  document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea").forEach((field, index) => (held[`field ${index}`] = field.value));
  for (const [name, storage] of [["sessionStorage", sessionStorage], ["localStorage", localStorage]] as const) {
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index)!;
      held[`${name} ${key}`] = `${key}=${storage.getItem(key)}`;
    }
  }
  return held;
}

function found(held: Record<string, string>, secrets: readonly string[]): string[] {
  return Object.entries(held).flatMap(([where, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${secret} in ${where}`));
}

/** Each secret the page, its origin's storage in this tab, or the browser's cookies still hold, and where. */
export async function credentialTraces(page: Page, secrets: readonly string[]): Promise<string[]> {
  const cookies = await page.context().cookies();
  const held = { ...(await page.evaluate(pageText)), cookies: JSON.stringify(cookies) };
  return found(held, secrets);
}

export type PageShow = { url: string; persisted: boolean; held: Record<string, string> };

/**
 * Records every `pageshow` of the page: whether the back/forward cache restored it, and what it held
 * at that moment, before the page's own scripts could react. A test can then show that the cache
 * was really in play and that what it restored was already empty.
 */
export async function recordPageShows(page: Page): Promise<PageShow[]> {
  const shows: PageShow[] = [];
  await page.exposeBinding("__lanternPageShow", (_source, show: PageShow) => void shows.push(show));
  await page.addInitScript(`addEventListener("pageshow", (event) => {
    const pageText = ${pageText.toString()};
    globalThis.__lanternPageShow({ url: location.href, persisted: event.persisted, held: pageText() });
  });`);
  return shows;
}

/** The secrets a restored page held when it came back. */
export function tracesInRestored(shows: readonly PageShow[], secrets: readonly string[]): string[] {
  return shows.filter((show) => show.persisted).flatMap((show) => found(show.held, secrets).map((trace) => `${trace} (restored ${show.url})`));
}
