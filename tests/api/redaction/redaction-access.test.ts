import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SEALED_TEXT_PREFIX } from "../../../api/lib/key-ring.ts";
import { reportConversationMessages, reportConversations, users } from "../../../db/schema/index.ts";
import { REDACTION_MARKER } from "../../../api/shared/redaction.ts";
import { eq } from "drizzle-orm";
import { anonymous, type StaffClient } from "../../helpers/session.ts";
import { EMOJI_AT, entriesOf, MESSAGE, MESSAGE_NAME, NAME, REDACT_ANSWER, REDACT_MESSAGE, startRedactionFixture, storedMessage, storedSummary, SUMMARY, type Answer, type RedactionFixture } from "./redaction-fixture.ts";

/**
 * Who may redact, and which spans (docs/decisions/053-redaction.md): owners, admins and the super
 * admin of the report's organisation; everyone else is refused with nothing changed and nothing
 * logged, as is every span that is not a whole, unredacted part of the text.
 */

let fx: RedactionFixture;
beforeAll(async () => {
  fx = await startRedactionFixture();
}, 60_000);
afterAll(() => fx.server.stop());

const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions?.code;
const answerVars = (s: number, e: number, more: Record<string, unknown> = {}) => ({ id: fx.submissionId, w: "w_summary", i: 0, s, e, ...more });

/** Whatever the attempt answered, the texts are as they were and no redaction was logged. */
async function expectUnchanged(attempt: Promise<Answer>, code: string) {
  const [summaryBefore, messageBefore, answersLogged, messagesLogged] = [await storedSummary(fx), await storedMessage(fx), (await entriesOf(fx, "RedactAnswer")).length, (await entriesOf(fx, "RedactMessage")).length];
  const answer = await attempt;
  expect(codeOf(answer)).toBe(code);
  expect(JSON.stringify(answer)).not.toContain(NAME);
  expect((await storedSummary(fx)).stored).toBe(summaryBefore.stored);
  expect((await storedMessage(fx)).stored).toBe(messageBefore.stored);
  expect((await entriesOf(fx, "RedactAnswer")).length).toBe(answersLogged);
  expect((await entriesOf(fx, "RedactMessage")).length).toBe(messagesLogged);
}

describe("denied", () => {
  const denials: [string, () => StaffClient | { gql: StaffClient["gql"] }, string][] = [
    ["a member", () => fx.as.member, "FORBIDDEN"],
    ["a guest member", () => fx.as.guest, "FORBIDDEN"],
    ["another organisation's owner", () => fx.northwind, "NOT_FOUND"],
    ["the reporter", () => fx.reporter, "FORBIDDEN"],
    ["someone signed out", () => anonymous(fx.server), "UNAUTHENTICATED"],
  ];
  for (const [who, client, code] of denials) {
    test(`${who} cannot redact an answer or a message`, async () => {
      await expectUnchanged(client().gql(REDACT_ANSWER, answerVars(0, NAME.length)), code);
      await expectUnchanged(client().gql(REDACT_MESSAGE, { id: fx.messageId, s: 0, e: 4 }), code);
    });
  }

  test("another organisation's owner learns nothing of the message, not even that it exists", async () => {
    const unknown = await fx.northwind.gql(REDACT_MESSAGE, { id: crypto.randomUUID(), s: 0, e: 4 });
    const existing = await fx.northwind.gql(REDACT_MESSAGE, { id: fx.messageId, s: 0, e: 4 });
    expect(existing.errors?.[0]?.message).toBe(unknown.errors![0]!.message);
  });

  test("malformed ids are refused as not found, a NUL at the edge as bad input (decision 015)", async () => {
    for (const id of ["not-an-id", "", crypto.randomUUID()]) {
      await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { id })), "NOT_FOUND");
      await expectUnchanged(fx.as.owner.gql(REDACT_MESSAGE, { id, s: 0, e: 3 }), "NOT_FOUND");
    }
    await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { id: `${fx.submissionId}\u0000` })), "BAD_USER_INPUT");
    await expectUnchanged(fx.as.owner.gql(REDACT_MESSAGE, { id: `${fx.messageId}\u0000`, s: 0, e: 3 }), "BAD_USER_INPUT");
    await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { w: "w_summary\u0000" })), "BAD_USER_INPUT");
    await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { w: "w".repeat(5000) })), "BAD_USER_INPUT");
    for (const w of ["", "w_nothing"]) await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { w })), "NOT_FOUND");
    for (const i of [-1, 1, 1e9]) await expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(0, 3, { i })), "NOT_FOUND");
  });
});

describe("bounds", () => {
  const answerSpans: [string, number, number][] = [
    ["a negative start", -1, 3],
    ["an end past the text", 0, SUMMARY.length + 1],
    ["start after end", 5, 2],
    ["an empty span", 4, 4],
    ["an offset of 1e9", 0, 1e9],
    ["a start splitting a surrogate pair", EMOJI_AT + 1, EMOJI_AT + 4],
    ["an end splitting a surrogate pair", 0, EMOJI_AT + 1],
  ];
  for (const [what, s, e] of answerSpans) {
    test(`an answer: ${what} is refused`, () => expectUnchanged(fx.as.owner.gql(REDACT_ANSWER, answerVars(s, e)), "BAD_USER_INPUT"));
  }
  const messageSpans: [string, number, number][] = [
    ["a negative start", -5, 2],
    ["an end past the text", 0, MESSAGE.length + 1],
    ["start after end", 9, 3],
    ["an empty span", 0, 0],
    ["an offset of 1e9", 1e9, 1e9 + 1],
  ];
  for (const [what, s, e] of messageSpans) {
    test(`a message: ${what} is refused`, () => expectUnchanged(fx.as.owner.gql(REDACT_MESSAGE, { id: fx.messageId, s, e }), "BAD_USER_INPUT"));
  }
});

describe("allowed", () => {
  const userIdOf = async (email: string) => (await fx.server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

  test("the owner redacts a name in an answer: stored sealed without it, opened with the marker, logged as who and when only", async () => {
    const before = await storedSummary(fx);
    const answer = await fx.as.owner.gql(REDACT_ANSWER, answerVars(0, NAME.length));
    expect(answer.errors).toBeUndefined();
    const after = await storedSummary(fx);
    expect(after.stored.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(after.stored).not.toBe(before.stored);
    expect(after.opened).toBe(`${REDACTION_MARKER}${SUMMARY.slice(NAME.length)}`);
    const [entry, ...more] = await entriesOf(fx, "RedactAnswer");
    expect(more).toEqual([]);
    expect(entry!.userId).toBe(await userIdOf("owner@demo.test"));
    expect(entry!.metadata).toEqual({});
    expect(JSON.stringify(entry)).not.toContain("Ada");
  });

  test("a span that is already the marker, or part of it, is refused clearly", async () => {
    for (const [s, e] of [[0, REDACTION_MARKER.length], [1, 4]] as const) {
      const attempt = fx.as.owner.gql(REDACT_ANSWER, answerVars(s, e));
      await expectUnchanged(attempt, "CONFLICT");
      expect((await attempt).errors?.[0]?.message).toBe("This text is already redacted.");
    }
  });

  test("the super admin redacts a whole character outside the BMP", async () => {
    const { opened } = await storedSummary(fx);
    const at = opened.indexOf("😀");
    expect((await fx.as.superAdmin.gql(REDACT_ANSWER, answerVars(at, at + 2))).errors).toBeUndefined();
    expect((await storedSummary(fx)).opened).toBe(`${REDACTION_MARKER} took ${REDACTION_MARKER} cash from the till`);
  });

  test("an admin redacts a name in the reporter's message; the answer and the table show the marker, sealed", async () => {
    const at = MESSAGE.indexOf(MESSAGE_NAME);
    const answer = await fx.as.admin.gql<{ reportConversationMessageRedact: { message: string } }>(REDACT_MESSAGE, { id: fx.messageId, s: at, e: at + MESSAGE_NAME.length });
    const expected = MESSAGE.replace(MESSAGE_NAME, REDACTION_MARKER);
    expect(answer.data?.reportConversationMessageRedact.message).toBe(expected);
    const stored = await storedMessage(fx);
    expect(stored.stored.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(stored.opened).toBe(expected);
    const [entry] = await entriesOf(fx, "RedactMessage");
    expect(entry!.userId).toBe(await userIdOf("admin@demo.test"));
    expect(entry!.metadata).toEqual({});
    expect(JSON.stringify(entry)).not.toContain("Tander");
  });

  test("a system message has no text of a person's to redact", async () => {
    const [conversation] = await fx.server.db.select({ id: reportConversations.id }).from(reportConversations).where(eq(reportConversations.submissionId, fx.submissionId));
    const [system] = await fx.server.db.insert(reportConversationMessages).values({ conversationId: conversation!.id, organisationId: fx.demoId, type: "System", message: "The report was closed", from: "User" }).returning({ id: reportConversationMessages.id });
    const answer = await fx.as.owner.gql(REDACT_MESSAGE, { id: system!.id, s: 0, e: 3 });
    expect(codeOf(answer)).toBe("CONFLICT");
    expect((await storedMessage(fx, system!.id)).opened).toBe("The report was closed");
  });
});
