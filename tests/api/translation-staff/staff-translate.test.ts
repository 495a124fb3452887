import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { setLogLevel } from "../../../api/lib/log.ts";
import { organisations, reportSubmissions, translationCache, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, demoStaff, joinTeam, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";

/**
 * Staff's Translate action on a reporter's words (docs/decisions/046-staff-translation.md), with a
 * self-hosted LibreTranslate-protocol server on loopback: who may use it, what reaches the provider,
 * what comes back beside the original, and what must be turned away.
 */

type Answer = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

let provider: TestTranslationServer;
let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let reporter: ReporterClient;
let reportId: string;
let demoId: string;
let reporterMessageId: string;
let staffMessageId: string;
let freeTexts: string[];

const AVAILABLE = `query ($id: ID!) { reporterTranslationAvailable(reportSubmissionID: $id) { available formLanguage } }`;
const REPORT = `query ($id: ID!, $lang: String!) { reportSubmissionTranslate(id: $id, lang: $lang) { reportSubmissionID lang answers { widgetID title originalText translatedText } } }`;
const MESSAGE = `query ($id: ID!, $lang: String!) { reportConversationMessageTranslate(id: $id, lang: $lang) { messageID lang originalText translatedText } }`;
const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;

const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions?.code;
const messageOf = (answer: Answer) => answer.errors?.[0]?.message;
const cacheRows = async () => (await server.db.select({ n: count() }).from(translationCache))[0]!.n;
const setTranslations = (on: boolean) => server.db.update(organisations).set({ enableFormTranslations: on }).where(eq(organisations.id, demoId));

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  as = await demoStaff(server);
  northwind = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  demoId = main.form.organisationId;
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
  reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const [row] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  reportId = row!.id;
  freeTexts = main.widgets.filter((widget) => widget.type === "ShortText" || widget.type === "LongText").map((widget) => `Answer to ${widget.title}`);
  const fromReporter = (await reporter.gql<any>(SEND, { text: "Mein Vorgesetzter hat mich bedroht." })) as Answer;
  reporterMessageId = fromReporter.data!.reportConversationSendMessage.id;
  await joinTeam(as.admin, reportId);
  const fromStaff = (await as.admin.gql<any>(SEND, { id: reportId, text: "Thank you, we are looking into it." })) as Answer;
  staffMessageId = fromStaff.data!.reportConversationSendMessage.id;
  provider.reset();
}, 60_000);
afterAll(async () => {
  await server.stop();
  await provider.stop();
});

describe("while the organisation has translations off", () => {
  test("the action is not offered and is refused, with nothing sent to the provider", async () => {
    const availability = (await as.owner.gql(AVAILABLE, { id: reportId })) as Answer;
    expect(availability.data!.reporterTranslationAvailable).toEqual({ available: false, formLanguage: "en" });
    const refused = (await as.owner.gql(REPORT, { id: reportId, lang: "de" })) as Answer;
    expect(codeOf(refused)).toBe("FORBIDDEN");
    expect(messageOf(refused)).toBe("This organisation does not have translations turned on.");
    const message = (await as.owner.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
    expect(messageOf(message)).toBe("This organisation does not have translations turned on.");
    expect(provider.texts()).toEqual([]);
  });
});

describe("with translations on and a self-hosted provider", () => {
  beforeAll(async () => {
    await setTranslations(true);
  });

  test("allowed: the owner is offered the action", async () => {
    const availability = (await as.owner.gql(AVAILABLE, { id: reportId })) as Answer;
    expect(availability.data!.reporterTranslationAvailable).toEqual({ available: true, formLanguage: "en" });
  });

  test("allowed: the reporter's free-text answers reach the provider and come back translated beside the originals, never cached", async () => {
    const before = await cacheRows();
    const answer = (await as.owner.gql(REPORT, { id: reportId, lang: "de" })) as Answer;
    expect(answer.errors).toBeUndefined();
    const view = answer.data!.reportSubmissionTranslate;
    expect(view).toMatchObject({ reportSubmissionID: reportId, lang: "de" });
    expect(freeTexts.length).toBeGreaterThan(0);
    expect(view.answers.map((item: any) => item.originalText)).toEqual(freeTexts);
    for (const item of view.answers) expect(item.translatedText).toBe(`[de] ${item.originalText}`);
    // Only the reporter's own words went, with the source left for the provider to detect.
    expect(provider.texts()).toEqual(freeTexts);
    expect(provider.received.every((request) => request.source === "auto" && request.target === "de")).toBe(true);
    expect(await cacheRows()).toBe(before);
  });

  test("allowed: a chat message, the reporter's or staff's, comes back translated beside its original", async () => {
    provider.reset();
    const fromReporter = (await as.admin.gql(MESSAGE, { id: reporterMessageId, lang: "fr" })) as Answer;
    expect(fromReporter.data!.reportConversationMessageTranslate).toEqual({
      messageID: reporterMessageId,
      lang: "fr",
      originalText: "Mein Vorgesetzter hat mich bedroht.",
      translatedText: "[fr] Mein Vorgesetzter hat mich bedroht.",
    });
    const fromStaff = (await as.owner.gql(MESSAGE, { id: staffMessageId, lang: "de" })) as Answer;
    expect(fromStaff.data!.reportConversationMessageTranslate.translatedText).toBe("[de] Thank you, we are looking into it.");
    expect(provider.texts()).toEqual(["Mein Vorgesetzter hat mich bedroht.", "Thank you, we are looking into it."]);
  });

  test("allowed: a super admin reaches any organisation's report", async () => {
    const answer = (await as.superAdmin.gql(REPORT, { id: reportId, lang: "es" })) as Answer;
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.reportSubmissionTranslate.answers[0].translatedText).toStartWith("[es] ");
  });

  test("denied: another organisation's owner, a member not on the report's team, a reporter and a visitor get nothing translated", async () => {
    provider.reset();
    for (const query of [REPORT, AVAILABLE]) {
      const stranger = (await northwind.gql(query, { id: reportId, lang: "de" })) as Answer;
      expect(codeOf(stranger)).toBe("NOT_FOUND");
      const member = (await as.member.gql(query, { id: reportId, lang: "de" })) as Answer;
      expect(codeOf(member)).toBe("NOT_FOUND");
    }
    const strangerMessage = (await northwind.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
    expect(messageOf(strangerMessage)).toBe("Message is not found");
    const memberMessage = (await as.member.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
    expect(messageOf(memberMessage)).toBe("Message is not found");
    for (const client of [reporter, anonymous(server)]) {
      const report = (await client.gql(REPORT, { id: reportId, lang: "de" })) as Answer;
      expect(report.data?.reportSubmissionTranslate ?? null).toBeNull();
      expect(report.errors?.length).toBeGreaterThan(0);
      const message = (await client.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
      expect(message.data?.reportConversationMessageTranslate ?? null).toBeNull();
      expect(message.errors?.length).toBeGreaterThan(0);
    }
    expect(provider.texts()).toEqual([]);
  });

  test("allowed: a member once put on the report's team", async () => {
    const [member] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "member@demo.test"));
    const assigned = (await as.owner.gql(`mutation ($id: ID!, $userID: ID!) { reportSubmissionAssignUser(id: $id, userID: $userID) { id } }`, { id: reportId, userID: member!.id })) as Answer;
    expect(assigned.errors).toBeUndefined();
    const answer = (await as.member.gql(MESSAGE, { id: reporterMessageId, lang: "uk" })) as Answer;
    expect(answer.data!.reportConversationMessageTranslate.translatedText).toBe("[uk] Mein Vorgesetzter hat mich bedroht.");
  });

  test("hostile: a NUL, a megabyte, an unknown or malformed language and a malformed id are refused, nothing sent", async () => {
    provider.reset();
    for (const lang of ["de\u0000", "x".repeat(1_000_000), "xx", "de;drop", ""]) {
      for (const [query, id] of [[REPORT, reportId], [MESSAGE, reporterMessageId]] as const) {
        const answer = (await as.owner.gql(query, { id, lang })) as Answer;
        expect({ lang: lang.slice(0, 10), code: codeOf(answer) }).toEqual({ lang: lang.slice(0, 10), code: "BAD_USER_INPUT" });
      }
    }
    const unknown = (await as.owner.gql(REPORT, { id: reportId, lang: "xx" })) as Answer;
    expect(messageOf(unknown)).toBe("This language is not available for translation.");
    expect(codeOf((await as.owner.gql(REPORT, { id: "not-an-id", lang: "de" })) as Answer)).toBe("NOT_FOUND");
    expect(messageOf((await as.owner.gql(MESSAGE, { id: "not-an-id", lang: "de" })) as Answer)).toBe("Message is not found");
    expect(provider.texts()).toEqual([]);
  });

  test("a provider that is down gives a clear message, not a server error", async () => {
    provider.setMode("down");
    const report = (await as.owner.gql(REPORT, { id: reportId, lang: "de" })) as Answer;
    expect(codeOf(report)).toBe("UNAVAILABLE");
    expect(messageOf(report)).toBe("The translation server did not answer. The original is shown; please try again later.");
    const message = (await as.owner.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
    expect(codeOf(message)).toBe("UNAVAILABLE");
    provider.setMode("up");
    const again = (await as.owner.gql(MESSAGE, { id: reporterMessageId, lang: "de" })) as Answer;
    expect(again.data!.reportConversationMessageTranslate.translatedText).toBe("[de] Mein Vorgesetzter hat mich bedroht.");
  });

  test("the reporter's words reach no log line, whether the provider answers or fails", async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    const spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "error").mockImplementation(capture)];
    setLogLevel("info");
    try {
      await as.owner.gql(MESSAGE, { id: reporterMessageId, lang: "de" });
      await as.owner.gql(REPORT, { id: reportId, lang: "de" });
      provider.setMode("error");
      await as.owner.gql(MESSAGE, { id: reporterMessageId, lang: "fr" });
    } finally {
      provider.setMode("up");
      setLogLevel("silent");
      for (const spy of spies) spy.mockRestore();
    }
    // The failure itself is logged (naming the provider), so the capture above did see the log.
    expect(lines.some((line) => line.includes("could not be translated"))).toBe(true);
    for (const secret of ["Mein Vorgesetzter", ...freeTexts]) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });
});
