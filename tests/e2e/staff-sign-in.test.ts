import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { createOrganisation, createUser } from "../factories/users.ts";
import { expectAxeClean } from "../helpers/console-browser.ts";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("staff sign-in in a real browser", () => {
  test("an owner signs in at /admin, lands on the dashboard route, and signs out", async () => {
    const organisation = await createOrganisation(server.db, { name: "Browser Test Org" });
    const owner = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id, password: "browser-pass-1" });
    const page = await browser.newPage();
    const requests = recordRequests(page);
    const problems = recordProblems(page);
    const origin = `http://localhost:${server.port}`;

    await page.goto(`${origin}/admin`);
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    await expect(page.getByText("Please enter your login details").isVisible()).resolves.toBe(true);
    await screenshot(page, "staff-sign-in-1-login");
    await expectAxeClean(page, "login");

    await page.getByRole("button", { name: "Login" }).click();
    expect(await page.getByText("Required").count()).toBeGreaterThanOrEqual(2);

    await page.getByLabel("Email Address").fill(owner.email);
    await page.getByLabel("Password").fill("wrong-password-1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Invalid email or password.").waitFor();
    await screenshot(page, "staff-sign-in-2-wrong-password");
    await expectAxeClean(page, "login, wrong password");

    await page.getByLabel("Password").fill("browser-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("You are viewing organisation: Browser Test Org").waitFor();
    await page.getByText("Reports Received").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await screenshot(page, "staff-sign-in-3-signed-in");
    await expectAxeClean(page, "dashboard");

    await page.locator(".user-menu__toggle").click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    const check = await page.evaluate(() => fetch("/api/auth/check").then((r) => r.text()));
    expect(check).toBe("unauthorised");

    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
