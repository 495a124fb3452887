import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { seedDemo } from "../../db/seed/demo.ts";
import { createOrganisation, createUser } from "../factories/users.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { demoForm, ReporterClient, submitReport } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Failed attempts made elsewhere (an attacker), so the next sign-in must solve a challenge. */
async function failElsewhere(path: string, body: Record<string, unknown>, host = "localhost") {
  for (let i = 0; i < 3; i += 1) {
    const response = await server.fetch(path, { method: "POST", host, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(401);
  }
}

/** The statuses of one path's answers and whether the repeats carried a solution. */
function recordCalls(page: Page, path: string) {
  const calls: { status: number; solved: boolean }[] = [];
  page.on("response", (response) => {
    if (!response.url().endsWith(path)) return;
    const body = response.request().postDataJSON() as { verifyToken?: string } | null;
    calls.push({ status: response.status(), solved: Boolean(body?.verifyToken) });
  });
  return calls;
}

/** Requests, page problems, and the sign-in calls' statuses with whether each carried a solution. */
function watchPage(page: Page, path: string) {
  return { requests: recordRequests(page), problems: recordProblems(page), calls: recordCalls(page, path) };
}

/** One challenge, solved by the page on its own; nothing loaded from elsewhere; no page errors. */
function expectSolvedOnce(watch: ReturnType<typeof watchPage>, origin: string) {
  expect(watch.calls).toEqual([
    { status: 428, solved: false },
    { status: 200, solved: true },
  ]);
  expect(watch.requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  expect(watch.problems).toEqual([]);
}

describe("the browser solves the sign-in challenge by itself", () => {
  test("the console login, after an attacker's failures, asks for work; Chromium does it and the owner signs in", async () => {
    const organisation = await createOrganisation(server.db, { name: "Challenge Org" });
    const owner = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id, password: "browser-pass-1" });
    await failElsewhere("/api/auth/login", { email: owner.email, password: "attacker-guess-1" });

    const page = await browser.newPage();
    const watch = watchPage(page, "/api/auth/login");
    const origin = `http://localhost:${server.port}`;
    await page.goto(`${origin}/admin`);
    await page.getByLabel("Email Address").fill(owner.email);
    await page.getByLabel("Password").fill("browser-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("You are viewing organisation: Challenge Org").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await screenshot(page, "sign-in-challenge-console");
    expectSolvedOnce(watch, origin);
    await page.close();
  });

  test("the reporter login, after an attacker's failures, asks for work; Chromium does it and the reporter gets in", async () => {
    const main = await demoForm(server, "demo", "Workplace Misconduct Report");
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    await failElsewhere("/api/auth/report_login", { reportID, password: "AAAAA-AAAAA-AAAAA-AAAAA" }, "demo.localhost");

    const page = await browser.newPage();
    const watch = watchPage(page, "/api/auth/report_login");
    const origin = `http://demo.localhost:${server.port}`;
    await page.goto(`${origin}/report/login`);
    await page.getByLabel("Report ID").fill(reportID);
    await page.getByLabel("Password").fill(generatedPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/report/dashboard");
    await page.getByText(reportID).first().waitFor();
    await screenshot(page, "sign-in-challenge-reporter");
    expectSolvedOnce(watch, origin);
    await page.close();
  });
});
