import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportConversationMessages, reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * Where staff translation is not offered (docs/decisions/046-staff-translation.md): a hosted provider
 * (DeepL here, pointed at a loopback server that records what reaches it) is refused before any of a
 * reporter's words is sent, and an installation without a provider says so.
 */

type Answer = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

const AVAILABLE = `query ($id: ID!) { reporterTranslationAvailable(reportSubmissionID: $id) { available formLanguage } }`;
const REPORT = `query ($id: ID!, $lang: String!) { reportSubmissionTranslate(id: $id, lang: $lang) { answers { translatedText } } }`;
const MESSAGE = `query ($id: ID!, $lang: String!) { reportConversationMessageTranslate(id: $id, lang: $lang) { translatedText } }`;

/** A seeded Demo report with a reporter's chat message, translations turned on for Demo. */
async function demoWithTranslationsOn(server: TestServer): Promise<{ owner: StaffClient; reportId: string; messageId: string }> {
  await seedDemo(server.db);
  await server.db.update(organisations).set({ enableFormTranslations: true }).where(eq(organisations.slug, "demo"));
  const [row] = await server.db
    .select({ reportId: reportSubmissions.id, messageId: reportConversationMessages.id })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(organisations.slug, "demo"), eq(reportConversationMessages.from, "Guest"), eq(reportConversationMessages.type, "Text"), eq(reportSubmissions.completed, true)))
    .limit(1);
  return { owner: await loginAs(server, "owner@demo.test", DEMO_PASSWORD), ...row! };
}

describe("a hosted provider (DeepL)", () => {
  const requests: { path: string; body: string }[] = [];
  let hosted: ReturnType<typeof Bun.serve>;
  let server: TestServer;
  let demo: Awaited<ReturnType<typeof demoWithTranslationsOn>>;

  beforeAll(async () => {
    hosted = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        requests.push({ path: new URL(request.url).pathname, body: await request.text() });
        return Response.json([]);
      },
    });
    server = await startTestServer({ env: { TRANSLATION_PROVIDER: "deepl", TRANSLATION_URL: `http://127.0.0.1:${hosted.port}`, TRANSLATION_API_KEY: "dummy-key" } });
    demo = await demoWithTranslationsOn(server);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await hosted.stop(true);
  });

  test("the action is not offered, and asking anyway is refused before anything is sent", async () => {
    const availability = (await demo.owner.gql(AVAILABLE, { id: demo.reportId })) as Answer;
    expect(availability.data!.reporterTranslationAvailable.available).toBe(false);
    for (const [query, id] of [[REPORT, demo.reportId], [MESSAGE, demo.messageId]] as const) {
      const answer = (await demo.owner.gql(query, { id, lang: "de" })) as Answer;
      expect(answer.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect(answer.errors?.[0]?.message).toBe("Reporters' words are only translated by a translation server the organisation runs itself.");
    }
    // At most the language list the server asks for at start; never a translation request.
    expect(requests.filter((request) => !request.path.includes("languages"))).toEqual([]);
  });
});

describe("no provider set up", () => {
  let server: TestServer;
  let demo: Awaited<ReturnType<typeof demoWithTranslationsOn>>;

  beforeAll(async () => {
    server = await startTestServer();
    demo = await demoWithTranslationsOn(server);
  }, 60_000);
  afterAll(() => server.stop());

  test("the action is not offered, and asking anyway says translation is not set up", async () => {
    const availability = (await demo.owner.gql(AVAILABLE, { id: demo.reportId })) as Answer;
    expect(availability.data!.reporterTranslationAvailable.available).toBe(false);
    const answer = (await demo.owner.gql(MESSAGE, { id: demo.messageId, lang: "de" })) as Answer;
    expect(answer.errors?.[0]?.extensions?.code).toBe("UNAVAILABLE");
    expect(answer.errors?.[0]?.message).toBe("Translation is not set up on this server.");
  });
});
