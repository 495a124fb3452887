import { describe, expect, test } from "bun:test";
import { generateReportId } from "../../../api/lib/report-credentials.ts";
import { failureSequence, postSolving } from "../../helpers/proof-of-work.ts";
import { demoForm, ReporterClient, submitReport, demoReportServer } from "../../helpers/reporter.ts";

const demo = demoReportServer();

const WRONG = "AAAAA-AAAAA-AAAAA-AAAAA";

function poster(host: string) {
  const reporter = new ReporterClient(demo.server, host);
  return (body: Record<string, unknown>) => reporter.fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

describe("failed reporter logins cost the guesser work, never lock the reporter out", () => {
  test("after many wrong passwords the right one, with the solved challenge, still opens the report", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(demo.server, "demo.localhost"), demo.main.form.id, demo.main.widgets);
    const post = poster("demo.localhost");
    const costs: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { response, solved } = await postSolving(post, { reportID, password: WRONG });
      expect(response.status).toBe(401);
      costs.push(...solved);
    }
    // Free at first, then each wrong guess pays more than the one before.
    expect(costs.length).toBe(3);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(new Set(costs).size).toBe(3);
    const { response, solved } = await postSolving(post, { reportID, password: generatedPassword.toLowerCase() });
    expect(response.status).toBe(200);
    expect(solved.length).toBe(1);
  });

  test("an existing, an unknown and another organisation's report ID answer alike: status, body, headers, challenge difficulty", async () => {
    const { reportID } = await submitReport(new ReporterClient(demo.server, "demo.localhost"), demo.main.form.id, demo.main.widgets);
    const northwind = await demoForm(demo.server, "northwind", "Safety and Compliance Report");
    const { reportID: elsewhere } = await submitReport(new ReporterClient(demo.server, "northwind.localhost"), northwind.form.id, northwind.widgets);
    const known = await failureSequence(poster("demo.localhost"), { reportID, password: WRONG }, 6);
    const unknown = await failureSequence(poster("demo.localhost"), { reportID: generateReportId(), password: WRONG }, 6);
    const foreign = await failureSequence(poster("demo.localhost"), { reportID: elsewhere, password: WRONG }, 6);
    expect(known.some((answer) => answer.status === 428)).toBe(true);
    expect(unknown).toEqual(known);
    expect(foreign).toEqual(known);
  });

  test("a flood of unknown report IDs does not turn a real reporter login into an error", async () => {
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(demo.server, "demo.localhost"), demo.main.form.id, demo.main.widgets);
    const flood = Array.from({ length: 300 }, () => poster("demo.localhost")({ reportID: generateReportId(), password: WRONG }).then((response) => response.status));
    await Promise.race(flood);
    const { response } = await postSolving(poster("demo.localhost"), { reportID, password: generatedPassword });
    expect(response.status).toBe(200);
    expect([...new Set(await Promise.all(flood))].sort()).toEqual([401, 428]);
  });
});
