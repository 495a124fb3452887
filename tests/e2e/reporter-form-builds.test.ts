import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { seedDemo } from "../../db/seed/demo.ts";
import { launchBrowser, recordProblems } from "../helpers/browser.ts";
import { ADDED_QUESTION, insertBuild } from "../helpers/form-builds.ts";
import { demoForm } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { next } from "./reporter-walk.ts";

let server: TestServer;
let browser: Browser;
let main: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a form published anew while a reporter reads its welcome", () => {
  test("going on shows the new build's questions, the ones the report is checked against", async () => {
    const page = await browser.newPage();
    const problems = recordProblems(page);
    await page.goto(`http://demo.localhost:${server.port}/report/${main.form.id}`);
    await page.getByRole("heading", { name: "Welcome" }).waitFor();

    await insertBuild(server, main.form.id, main.widgets, "Revised: ", true);
    await next(page);
    await page.getByLabel(ADDED_QUESTION).waitFor();
    const firstQuestion = main.widgets.find((widget) => widget.type !== "Section" && widget.type !== "Note")!;
    expect(await page.getByText(`Revised: ${firstQuestion.title}`).count()).toBeGreaterThan(0);
    expect(await page.getByText(firstQuestion.title, { exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
