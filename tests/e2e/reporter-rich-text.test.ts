import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { organisations, reportForms, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_REPORT_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { seriousAxeViolations } from "../helpers/axe.ts";
import { launchBrowser, recordRequests } from "../helpers/browser.ts";
import { demoForm } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { updateOrganisations } from "../helpers/organisations.ts";

// A stored message as the editor writes it, plus what a hostile or careless store could hold. The
// server's sanitiser should never let the second half through; the renderer must drop it anyway.
const WELCOME_HTML = [
  "<h1>Before you start</h1>",
  "<p>Reports are <strong>confidential</strong> and <em>anonymous</em>.</p>",
  '<p><span style="color: #b00020">Do not include your name.</span></p>',
  '<p>Read our <a href="https://example.org/policy">whistleblowing policy</a>.</p>',
  '<p>Ask for <span translate="no">Lantern Trust</span> by name.</p>',
  '<p data-indent="3">An indented paragraph.</p>',
  "<ul>\n<li>First point</li>\n<li>Second point</li>\n</ul>",
  "<script>window.__pwned = 'script'</script>",
  '<img src="/nowhere.png" onerror="window.__pwned = \'img\'">',
  '<img src="/nowhere.png"onerror="window.__pwned = \'quoted\'"><svg/onload="window.__pwned = \'svg\'"></svg>',
  "<p><a href=\"javascript:window.__pwned='link'\">Click for more</a></p>",
  '<p style="background-image: url(https://tracker.example/pixel.png); color: #1a5e20">Tracked paragraph</p>',
  '<p onclick="window.__pwned = \'click\'"><iframe src="https://tracker.example/"></iframe>Framed text</p>',
].join("\n");

const PORTAL_WELCOME = "First line\nSecond line\n\nAnother paragraph &amp; more";

let server: TestServer;
let browser: Browser;
let origin: string;
let formId: string;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const { form } = await demoForm(server, "demo", "Workplace Misconduct Report");
  formId = form.id;
  await server.db.update(reportForms).set({ welcomeMessageContent: WELCOME_HTML }).where(eq(reportForms.id, formId));
  await updateOrganisations(server, eq(organisations.slug, "demo"), { portalWelcomeMessageContent: PORTAL_WELCOME, portalWelcomeMessageEnabled: true });
  browser = await launchBrowser();
  origin = `http://demo.localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** CSP violations (as the page's own event reports them) and every console error or uncaught exception. */
async function watchProblems(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  // Added through the DevTools protocol, so the page's CSP does not apply to the listener itself.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => [...problems, ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations))];
}

describe("a form message as a reporter sees it", () => {
  test("keeps the editor's formatting, drops everything else, and breaks no rule of the page", async () => {
    const page = await browser.newPage();
    const requests = recordRequests(page);
    const problems = await watchProblems(page);
    await page.goto(`${origin}/report/${formId}`);
    const message = page.locator(".report-step .rich-text");
    await message.getByText("An indented paragraph.").waitFor();

    // The editor's heading sits below the step's own title.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Welcome");
    expect(await message.getByRole("heading", { level: 2, name: "Before you start" }).isVisible()).toBe(true);
    expect(await message.locator("strong").textContent()).toBe("confidential");
    expect(await message.locator("em").textContent()).toBe("anonymous");

    const coloured = message.getByText("Do not include your name.");
    expect(await coloured.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(176, 0, 32)");

    const link = message.getByRole("link", { name: "whistleblowing policy" });
    expect(await link.getAttribute("href")).toBe("https://example.org/policy");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await link.getAttribute("target")).toBe("_blank");
    // A screen reader hears where it leads to; the hint takes no room on screen.
    expect(await message.getByRole("link", { name: "whistleblowing policy (opens in a new tab)", exact: true }).count()).toBe(1);
    expect(await link.locator(".visually-hidden").evaluate((element) => element.getBoundingClientRect().width)).toBeLessThanOrEqual(1);

    expect(await message.getByText("Lantern Trust").getAttribute("translate")).toBe("no");

    const indented = await message.getByText("An indented paragraph.").boundingBox();
    const plain = await message.getByText("Do not include your name.").locator("xpath=..").boundingBox();
    expect(indented!.x - plain!.x).toBeGreaterThan(40);
    expect(await message.getByRole("listitem").allTextContents()).toEqual(["First point", "Second point"]);

    // The hostile half: its text may stay, nothing of it acts.
    expect(await message.locator("script, img, iframe, [onclick], [onerror]").count()).toBe(0);
    expect(await message.getByText("Click for more").isVisible()).toBe(true);
    expect(await message.getByRole("link", { name: "Click for more" }).count()).toBe(0);
    await message.getByText("Click for more").click();
    await message.getByText("Framed text").click();
    const tracked = message.getByText("Tracked paragraph");
    expect(await tracked.evaluate((element) => [getComputedStyle(element).color, getComputedStyle(element).backgroundImage])).toEqual(["rgb(26, 94, 32)", "none"]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(requests.some((url) => url.includes("nowhere.png"))).toBe(false);

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.close();
  });

  test("a plain-text message keeps its line breaks and paragraphs", async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${origin}/`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Welcome" }).waitFor();
    const paragraphs = dialog.locator(".rich-text p");
    expect(await paragraphs.count()).toBe(2);
    expect(await paragraphs.nth(0).innerText()).toBe("First line\nSecond line");
    expect(await paragraphs.nth(1).innerText()).toBe("Another paragraph & more");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.close();
  });

  test("the follow-up dashboard shows the form's message for a report being handled", async () => {
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [assigned] = await server.db
      .select()
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.status, "Assigned")));
    const message = '<p>A <strong>case officer</strong> has your report. <a href="mailto:help@example.org">Write to us</a> with questions.</p><img src=x onerror="window.__pwned = 1">';
    await server.db.update(reportForms).set({ assignedToSupportMessage: message }).where(eq(reportForms.id, assigned!.formId));

    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${origin}/report/login`);
    await page.getByLabel("Report ID").fill(assigned!.reportId!);
    await page.getByLabel("Password").fill(DEMO_REPORT_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/report/dashboard");
    const standing = page.locator(".report-standing__message");
    await standing.getByText("case officer").waitFor();
    expect(await standing.locator("strong").textContent()).toBe("case officer");
    expect(await standing.getByRole("link", { name: "Write to us" }).getAttribute("href")).toBe("mailto:help@example.org");
    expect(await standing.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.close();
  });
});
