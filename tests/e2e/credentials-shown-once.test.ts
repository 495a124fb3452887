import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { seedDemo } from "../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { failoverProxy, type FailoverProxy } from "../helpers/failover-proxy.ts";
import { credentialTraces, recordPageShows, tracesInRestored } from "../helpers/credential-traces.ts";
import { demoForm } from "../helpers/reporter.ts";
import { checkScreen, fillEveryPage, next } from "./reporter-walk.ts";

// A new report's ID and password, and an enquiry's, are shown once: nothing the next person at a
// shared computer can do (Back, Forward, reload, Quick Exit on another host) brings them back
// (decision 066). The browser keeps its back/forward cache on, and the pages are reached through a
// proxy that drops `no-store` from every answer: Lantern sends it, yet browsers may keep such pages
// in that cache all the same, and the pages must be empty when they do.

let server: TestServer;
let proxy: FailoverProxy;
let browser: Browser;
let main: Awaited<ReturnType<typeof demoForm>>;
/** Through the proxy: pages the back/forward cache may keep. */
let cachedOrigin: string;
/** Straight to the server, headers as sent. */
let origin: string;

const keepInBackForwardCache = (headers: Headers) => {
  const value = headers.get("cache-control");
  if (value?.includes("no-store")) headers.set("cache-control", value.replace("no-store", "no-cache"));
};

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  proxy = failoverProxy([server.port], { rewriteHeaders: keepInBackForwardCache });
  browser = await launchBrowser({ backForwardCache: true });
  cachedOrigin = `http://demo.localhost:${proxy.port}`;
  origin = `http://demo.localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  await server?.stop();
});

/** Fills in and submits the demo form; returns the credentials as the finish page shows them. */
async function finishReport(page: Page, at: string): Promise<[reportID: string, password: string]> {
  await page.goto(`${at}/report/${main.form.id}`);
  await next(page);
  await fillEveryPage(page, main.widgets, { flipCondition: false });
  await page.getByRole("heading", { name: "Attach files" }).waitFor();
  await next(page);
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("heading", { name: "Report Submitted" }).waitFor();
  const [reportID, password] = (await page.locator(".credentials__value").allTextContents()).map((text) => text.trim());
  expect(reportID).toMatch(/^\w{5}-\w{5}$/);
  expect(password).toMatch(/^\w{5}(-\w{5}){3}$/);
  return [reportID!, password!];
}

/** Where the flow settles: the form's start, or the finish page again if it kept the credentials. */
const settledStep = (page: Page) => page.getByRole("heading", { name: /^(Welcome|Report Submitted)$/ }).waitFor();

const navigationType = (page: Page) => page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).type);

describe("a new report's credentials", () => {
  test("are on the finish page to read, copy and download; Back after leaving restores a page without them", async () => {
    const page = await browser.newPage({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    const shows = await recordPageShows(page);
    const secrets = await finishReport(page, cachedOrigin);
    const [reportID, password] = secrets;
    // Visible, selectable text for copying, and the same in the file.
    await page.getByText(reportID, { exact: true }).waitFor();
    await page.getByText(password, { exact: true }).waitFor();
    await checkScreen(page, "credentials-finish-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await checkScreen(page, "credentials-finish-390");
    await page.setViewportSize({ width: 1440, height: 900 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download details" }).click()]);
    expect(download.suggestedFilename()).toBe(`Report ${reportID} credentials.txt`);
    expect(readFileSync((await download.path())!, "utf8")).toBe(`Report ID: ${reportID}\nPassword: ${password}\n`);
    const fileAddress = download.url();
    expect(fileAddress).toStartWith("blob:");
    // Saving the file is no leaving: the details stay on screen.
    expect(await page.locator(".credentials__value").allTextContents()).toEqual([reportID, password]);

    // On to following up, as the page offers; then Back.
    await page.getByRole("link", { name: "Follow up Report" }).click();
    await page.getByLabel("Report ID").waitFor();
    // The file's address died with the page that made it, though that page sits in the cache.
    const fetched = await page.evaluate((address) => fetch(address).then((response) => response.text(), () => "refused"), fileAddress);
    expect(fetched).toBe("refused");
    shows.length = 0;
    await page.goBack({ waitUntil: "commit" });
    await settledStep(page);
    // The cache was in play: the finish page came back from it, and held nothing when it did.
    expect(shows.filter((show) => show.persisted).map((show) => new URL(show.url).pathname)).toEqual([`/report/finish/${main.form.id}`]);
    expect(tracesInRestored(shows, secrets)).toEqual([]);
    expect(await credentialTraces(page, secrets)).toEqual([]);
    // A visit to finish without the report just made goes to the form's start (spec).
    expect(new URL(page.url()).pathname).toBe(`/report/${main.form.id}`);
    await page.getByRole("heading", { name: "Welcome" }).waitFor();

    await page.goForward({ waitUntil: "commit" });
    await page.getByLabel("Report ID").waitFor();
    expect(await credentialTraces(page, secrets)).toEqual([]);
    await page.close();
  }, 120_000);

  test("a reload of the finish page shows them no more, and the pages are sent to be stored nowhere", async () => {
    const page = await browser.newPage();
    const completion = page.waitForResponse((response) => response.url().endsWith("/api/gql/query") && (response.request().postData() ?? "").includes("userReportSubmissionComplete"));
    const secrets = await finishReport(page, origin);
    expect((await completion).headers()["cache-control"]).toBe("no-store");
    const finish = await server.fetch(`/report/finish/${main.form.id}`, { host: "demo.localhost" });
    expect(finish.headers.get("cache-control")).toBe("no-store");

    await page.reload();
    await settledStep(page);
    // A real reload of the finish page, not a page kept from before.
    expect(await navigationType(page)).toBe("reload");
    expect(await credentialTraces(page, secrets)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/report/${main.form.id}`);
    await page.close();
  }, 120_000);

  for (const elsewhere of ["northwind", "login"] as const) {
    test(`Quick Exit on ${elsewhere}. leaves none of them in the first organisation's storage`, async () => {
      const page = await browser.newPage();
      await page.route("https://duckduckgo.com/**", (route) => route.fulfill({ status: 200, body: "search" }));
      const secrets = await finishReport(page, origin);
      await page.goto(`http://${elsewhere}.localhost:${server.port}/`);
      await page.getByRole("button", { name: "Quick Exit" }).first().click();
      await page.waitForURL("https://duckduckgo.com/**");
      // Back on the first organisation in the same tab, on a page that writes nothing: what its storage holds.
      await page.goto(`${origin}/no-such-page`);
      expect(await credentialTraces(page, secrets)).toEqual([]);
      await page.close();
    }, 120_000);
  }
});

describe("an enquiry's credentials", () => {
  test("leave with the page: Back restores it without them, and logging in with them leaves no trace behind", async () => {
    const page = await browser.newPage();
    const shows = await recordPageShows(page);
    await page.goto(`${cachedOrigin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Ask a Question" }).click();
    await page.getByRole("dialog").locator("textarea").fill("Who reads what I send here?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Message Sent").waitFor();
    const secrets = (await page.locator(".enquiry-steps__value").allTextContents()).map((text) => text.trim());
    expect(secrets).toHaveLength(2);
    const [reportID, password] = secrets as [string, string];

    await page.getByRole("link", { name: "login page" }).click();
    await page.getByLabel("Report ID").waitFor();
    shows.length = 0;
    await page.goBack({ waitUntil: "commit" });
    await page.getByRole("button", { name: "Ask a Question" }).waitFor();
    expect(shows.filter((show) => show.persisted).map((show) => new URL(show.url).pathname)).toEqual(["/"]);
    expect(tracesInRestored(shows, secrets)).toEqual([]);
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await credentialTraces(page, secrets)).toEqual([]);

    // The global login: what was typed is gone when Back returns to it, and the restored page still logs in.
    const loginOrigin = `http://login.localhost:${proxy.port}`;
    const logIn = async () => {
      await page.getByRole("button", { name: "Login" }).and(page.locator(":enabled")).waitFor();
      await page.getByLabel("Report ID").fill(reportID);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL(`${cachedOrigin}/report/dashboard`);
      await page.getByRole("heading", { name: `Report ${reportID}` }).waitFor();
    };
    await page.goto(`${loginOrigin}/`);
    await logIn();
    shows.length = 0;
    await page.goBack({ waitUntil: "commit" });
    // A page restored from the cache fires no load event.
    await page.waitForURL(`${loginOrigin}/`, { waitUntil: "commit" });
    await page.getByLabel("Report ID").waitFor();
    expect(shows.filter((show) => show.persisted).map((show) => show.url)).toEqual([`${loginOrigin}/`]);
    expect(tracesInRestored(shows, secrets)).toEqual([]);
    expect(await credentialTraces(page, secrets)).toEqual([]);
    await logIn();

    // The follow-up area's password change, half typed, then away and Back.
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Old Password").fill(password);
    await page.getByLabel("New Password").fill("a-new-secret-9");
    const typed = [...secrets, "a-new-secret-9"];
    await page.goto(`${cachedOrigin}/`);
    await page.getByRole("button", { name: "Ask a Question" }).waitFor();
    shows.length = 0;
    await page.goBack({ waitUntil: "commit" });
    // The area ended its session as it was left: restored, it loads afresh and the login takes its place.
    await page.waitForURL(`${cachedOrigin}/report/login`);
    await page.getByLabel("Report ID").waitFor();
    expect(shows.filter((show) => show.persisted).map((show) => new URL(show.url).pathname)).toEqual(["/report/settings"]);
    expect(tracesInRestored(shows, typed)).toEqual([]);
    expect(await credentialTraces(page, typed)).toEqual([]);
    await page.close();
  }, 120_000);
});

describe("without scripts", () => {
  test("the finish page shows the waiting message and nothing of any report", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin}/report/finish/${main.form.id}`);
    await page.getByText("Please wait. Anonymising your IP.").waitFor();
    expect(await page.locator(".credentials").count()).toBe(0);
    await screenshot(page, "credentials-finish-without-scripts");
    await context.close();
  });
});
