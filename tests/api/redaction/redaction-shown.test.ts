import { afterAll, beforeAll, expect, test } from "bun:test";
import { messageTopic } from "../../../api/modules/conversations/messages.ts";
import { REDACTION_MARKER } from "../../../api/shared/redaction.ts";
import { untilListening } from "../../helpers/live-topics.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { readZip } from "../../helpers/zip-reader.ts";
import { CHAT, MESSAGE, MESSAGE_NAME, NAME, REDACT_ANSWER, REDACT_MESSAGE, REPORTER_VIEW, startRedactionFixture, SUMMARY, type Answer, type RedactionFixture } from "./redaction-fixture.ts";

/**
 * Redaction changes the stored text itself (docs/decisions/053-redaction.md), so everything that
 * reads it shows the marker and never the span: the report's document, the zip of reports, the
 * reporter's follow-up area and chat, and chats open at the time.
 */

const LIVE = `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id message } } }`;
type LiveResult = { data?: { reportConversationMessage: { action: string; message: { id: string; message: string } } } };

let fx: RedactionFixture;
const REDACTED_SUMMARY = SUMMARY.replace(NAME, REDACTION_MARKER);
const REDACTED_MESSAGE = MESSAGE.replace(MESSAGE_NAME, REDACTION_MARKER);

const data = <T>(answer: Answer<T>): T => {
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data!;
};

beforeAll(async () => {
  fx = await startRedactionFixture();
}, 60_000);
afterAll(() => fx.server.stop());

test("open chats, the staff's and the reporter's, are told and show the redacted message", async () => {
  const staffSocket = wsClient(fx.server, fx.as.admin.cookie);
  const reporterSocket = wsClient(fx.server, fx.reporter.cookie, { host: "demo.localhost" });
  const staffLive = collect<LiveResult>(staffSocket, LIVE, 1, { id: fx.submissionId });
  const reporterLive = collect<LiveResult>(reporterSocket, LIVE, 1);
  await untilListening(fx.server, messageTopic(fx.submissionId), 2);

  const at = MESSAGE.indexOf(MESSAGE_NAME);
  data(await fx.as.owner.gql(REDACT_MESSAGE, { id: fx.messageId, s: at, e: at + MESSAGE_NAME.length }));
  await Promise.all([staffLive.done, reporterLive.done]);
  for (const live of [staffLive, reporterLive]) {
    live.dispose();
    expect(live.errors).toEqual([]);
    expect(live.results.map((result) => result.data?.reportConversationMessage)).toEqual([{ action: "redacted", message: { id: fx.messageId, message: REDACTED_MESSAGE } }]);
  }
  await Promise.all([staffSocket.dispose(), reporterSocket.dispose()]);
});

test("the reporter's chat and the staff's chat show the marker, not the name", async () => {
  const reporterChat = data(await fx.reporter.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(CHAT));
  expect(reporterChat.reportConversationMessages.messages.map((m) => m.message)).toEqual([REDACTED_MESSAGE]);
  const staffChat = data(await fx.as.admin.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(CHAT, { id: fx.submissionId }));
  expect(staffChat.reportConversationMessages.messages.map((m) => m.message)).toEqual([REDACTED_MESSAGE]);
});

test("the reporter's follow-up view shows the redacted answer", async () => {
  const before = JSON.stringify(data(await fx.reporter.gql(REPORTER_VIEW)));
  expect(before).toContain(NAME);
  data(await fx.as.owner.gql(REDACT_ANSWER, { id: fx.submissionId, w: "w_summary", i: 0, s: 0, e: NAME.length }));
  const view = data(await fx.reporter.gql<{ reporterSubmission: { pages: { answers: { widgetID: string; answer: string[] }[] }[] } }>(REPORTER_VIEW));
  const summary = view.reporterSubmission.pages.flatMap((page) => page.answers).find((answer) => answer.widgetID === "w_summary");
  expect(summary?.answer).toEqual([REDACTED_SUMMARY]);
  expect(JSON.stringify(view)).not.toContain(NAME);
});

const expectRedacted = (html: string) => {
  expect(html).toContain(REDACTION_MARKER);
  expect(html).toContain(SUMMARY.slice(NAME.length));
  expect(html).toContain(REDACTED_MESSAGE.slice(0, MESSAGE.indexOf(MESSAGE_NAME)));
  expect(html).not.toContain(NAME);
  expect(html).not.toContain(MESSAGE_NAME);
};

test("the report's document shows the marker and neither name", async () => {
  const response = await fx.as.owner.fetch(`/api/report-submissions/export/${fx.submissionId}`);
  expect(response.status).toBe(200);
  expectRedacted(await response.text());
});

test("the zip of reports shows the marker and neither name", async () => {
  const response = await fx.as.owner.fetch(`/api/report-submissions/export-all`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ search: { text: fx.reportID }, limit: -1, offset: 0 }),
  });
  expect(response.status).toBe(200);
  const file = readZip(new Uint8Array(await response.arrayBuffer())).get(`Report ${fx.reportID}.html`);
  expect(file).toBeDefined();
  expectRedacted(new TextDecoder().decode(file));
});
