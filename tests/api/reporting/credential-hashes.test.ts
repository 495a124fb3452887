import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { hashPassword } from "../../../api/lib/passwords.ts";
import { generateReportId } from "../../../api/lib/report-credentials.ts";
import { REPORT_LOGIN_FAILED } from "../../../api/modules/reporting/login.ts";
import { failureSequence } from "../../helpers/proof-of-work.ts";
import { demoReportServer, ReporterClient, submitReport } from "../../helpers/reporter.ts";

/**
 * Generated passwords and enquiry pins (100 random bits) are stored with a fast salted hash; a
 * password the reporter chose stays Argon2id; rows hashed with Argon2id before the change keep
 * opening their report (docs/decisions/005-report-credentials.md).
 */
const demo = demoReportServer();

const FAST = "$hmac-sha256$v=1$";
const ARGON2ID = "$argon2id$";
const ENQUIRY = `mutation ($org: ID!, $message: String!) { guestSendEnquiry(organisationID: $org, message: $message) { reportID pin } }`;
const CHANGE = `mutation ($o: String!, $n: String!) { userReportSubmissionChangePassword(oldPassword: $o, newPassword: $n) }`;

const post = (body: Record<string, unknown>) => new ReporterClient(demo.server, "demo.localhost").fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const login = async (reportID: string, password: string) => {
  const response = await post({ reportID, password });
  return { status: response.status, body: await response.json() };
};
const storedRow = async (reportID: string) => (await demo.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID)))[0]!;

async function newReport() {
  return submitReport(new ReporterClient(demo.server, "demo.localhost"), demo.main.form.id, demo.main.widgets);
}

async function newEnquiry() {
  const sent = await new ReporterClient(demo.server, "demo.localhost").gql<{ guestSendEnquiry: { reportID: string; pin: string } }>(ENQUIRY, { org: demo.demoId, message: "Who reads this?" });
  return sent.data!.guestSendEnquiry;
}

/** As an older release stored it: the Argon2id hash of the credential in canonical form. */
async function storeTheOldWay(reportID: string, canonical: string) {
  await demo.server.db.update(reportSubmissions).set({ passwordHash: await hashPassword(canonical) }).where(eq(reportSubmissions.reportId, reportID));
}

describe("generated credentials are stored with the fast hash and open their report", () => {
  test("a generated report password, typed loosely", async () => {
    const { reportID, generatedPassword } = await newReport();
    const row = await storedRow(reportID);
    expect(row.passwordHash!.startsWith(FAST)).toBe(true);
    expect(row.passwordHash).not.toContain(generatedPassword);
    expect(row.passwordChosen).toBe(false);
    expect((await login(reportID, ` ${generatedPassword.toLowerCase().replaceAll("-", " ")} `)).status).toBe(200);
  });

  test("an enquiry pin", async () => {
    const { reportID, pin } = await newEnquiry();
    expect((await storedRow(reportID)).passwordHash!.startsWith(FAST)).toBe(true);
    expect((await login(reportID, pin)).status).toBe(200);
  });

  test("each row has its own salt", async () => {
    const salts = await Promise.all([newReport(), newReport()].map(async (report) => (await storedRow((await report).reportID)).passwordHash!.split("$")[3]));
    expect(salts[0]).toHaveLength(22);
    expect(salts[0]).not.toBe(salts[1]);
  });
});

describe("rows hashed with Argon2id before the fast hash keep working", () => {
  test("a generated password stored the old way opens its report, and is moved to the fast hash", async () => {
    const { reportID, generatedPassword } = await newReport();
    await storeTheOldWay(reportID, generatedPassword);
    expect((await login(reportID, "wrong-guess")).status).toBe(401);
    expect((await storedRow(reportID)).passwordHash!.startsWith(ARGON2ID)).toBe(true);
    expect((await login(reportID, generatedPassword.toLowerCase())).status).toBe(200);
    expect((await storedRow(reportID)).passwordHash!.startsWith(FAST)).toBe(true);
    expect((await login(reportID, generatedPassword)).status).toBe(200);
  });

  test("an enquiry pin stored the old way opens its report", async () => {
    const { reportID, pin } = await newEnquiry();
    await storeTheOldWay(reportID, pin);
    expect((await login(reportID, pin)).status).toBe(200);
    expect((await login(reportID, pin)).status).toBe(200);
  });
});

describe("a wrong password fails the same way whatever the stored hash", () => {
  test("one wrong answer: a fast row, an Argon2id row and an unknown report ID say the same", async () => {
    const fast = await newReport();
    const old = await newReport();
    await storeTheOldWay(old.reportID, old.generatedPassword);
    const answers = await Promise.all([login(fast.reportID, "AAAAA-AAAAA-AAAAA-AAAAA"), login(old.reportID, "AAAAA-AAAAA-AAAAA-AAAAA"), login(generateReportId(), "AAAAA-AAAAA-AAAAA-AAAAA")]);
    for (const answer of answers) expect(answer).toEqual({ status: 401, body: answers[0]!.body });
    expect(JSON.stringify(answers[0]!.body)).toContain(REPORT_LOGIN_FAILED);
  });

  test("repeated failures: the same answers, headers and challenges for both kinds and for an unknown ID", async () => {
    const fast = await newReport();
    const old = await newReport();
    await storeTheOldWay(old.reportID, old.generatedPassword);
    const wrong = "BBBBB-BBBBB-BBBBB-BBBBB";
    const fastAnswers = await failureSequence(post, { reportID: fast.reportID, password: wrong }, 5);
    const oldAnswers = await failureSequence(post, { reportID: old.reportID, password: wrong }, 5);
    const unknownAnswers = await failureSequence(post, { reportID: generateReportId(), password: wrong }, 5);
    expect(fastAnswers.some((answer) => answer.status === 428)).toBe(true);
    expect(oldAnswers).toEqual(fastAnswers);
    expect(unknownAnswers).toEqual(fastAnswers);
  });
});

describe("a password the reporter chooses", () => {
  test("is stored with Argon2id and replaces the generated one", async () => {
    const reporter = new ReporterClient(demo.server, "demo.localhost");
    const { reportID, generatedPassword } = await submitReport(reporter, demo.main.form.id, demo.main.widgets);
    const changed = await reporter.gql<{ userReportSubmissionChangePassword: boolean }>(CHANGE, { o: generatedPassword, n: "a sentence I will remember 7" });
    expect(changed.data?.userReportSubmissionChangePassword).toBe(true);
    const row = await storedRow(reportID);
    expect(row.passwordHash!.startsWith(ARGON2ID)).toBe(true);
    expect(row.passwordChosen).toBe(true);
    expect((await login(reportID, "a sentence I will remember 7")).status).toBe(200);
    // Checked as typed, and never moved to the fast hash.
    expect((await login(reportID, "A SENTENCE I WILL REMEMBER 7")).status).toBe(401);
    expect((await login(reportID, generatedPassword)).status).toBe(401);
    expect((await storedRow(reportID)).passwordHash!.startsWith(ARGON2ID)).toBe(true);
  });

  test("a wrong old password is refused whichever hash the row holds", async () => {
    const reporter = new ReporterClient(demo.server, "demo.localhost");
    const { reportID, generatedPassword } = await submitReport(reporter, demo.main.form.id, demo.main.widgets);
    const refused = await reporter.gql(CHANGE, { o: "CCCCC-CCCCC-CCCCC-CCCCC", n: "a sentence I will remember 7" });
    expect(refused.errors?.[0]?.message).toBe("The old password is incorrect.");
    await storeTheOldWay(reportID, generatedPassword);
    const refusedOld = await reporter.gql(CHANGE, { o: "CCCCC-CCCCC-CCCCC-CCCCC", n: "a sentence I will remember 7" });
    expect(refusedOld.errors?.[0]?.message).toBe("The old password is incorrect.");
    const accepted = await reporter.gql<{ userReportSubmissionChangePassword: boolean }>(CHANGE, { o: generatedPassword.toLowerCase(), n: "a sentence I will remember 7" });
    expect(accepted.data?.userReportSubmissionChangePassword).toBe(true);
  });
});
