import { describe, expect, test } from "bun:test";
import { REDACTION_ALREADY, REDACTION_BAD_SPAN, REDACTION_MARKER, REDACTION_SPLITS_CHARACTER, redactSpan } from "../../api/shared/redaction.ts";
import { applyEvent as staffApply, type ChatMessage as StaffMessage } from "../../site/src/admin/features/reports/detail/chat-api.ts";
import { textOffset } from "../../site/src/admin/features/reports/detail/redact-dialog.tsx";
import { applyEvent as reporterApply, type ChatMessage as ReporterMessage } from "../../site/src/islands/report-area/conversation.ts";

/** The span rules the server and the console's dialog share, and how open chats take a redaction (decision 053). */

describe("redactSpan", () => {
  test("replaces the span by the marker", () => {
    expect(redactSpan("Ada Quill took it", 0, 9)).toEqual({ ok: true, text: `${REDACTION_MARKER} took it` });
  });
  test("refuses spans outside the text, empty or reversed, and halves of a character", () => {
    for (const [start, end] of [[-1, 2], [0, 18], [3, 3], [4, 2], [0.5, 2]]) expect(redactSpan("Ada Quill took it", start!, end!)).toEqual({ ok: false, problem: REDACTION_BAD_SPAN });
    expect(redactSpan("a😀b", 2, 4)).toEqual({ ok: false, problem: REDACTION_SPLITS_CHARACTER });
    expect(redactSpan("a😀b", 1, 3)).toEqual({ ok: true, text: `a${REDACTION_MARKER}b` });
  });
  test("refuses a span within a marker, allows one that reaches beyond it", () => {
    const text = `x ${REDACTION_MARKER} y`;
    expect(redactSpan(text, 2, 2 + REDACTION_MARKER.length)).toEqual({ ok: false, problem: REDACTION_ALREADY });
    expect(redactSpan(text, 3, 5)).toEqual({ ok: false, problem: REDACTION_ALREADY });
    expect(redactSpan(text, 0, text.length).ok).toBe(true);
  });
});

test("a text field's offsets map back onto a text with CRLF line breaks", () => {
  const text = "one\r\ntwo\r\nthree";
  // The field shows "one\ntwo\nthree": "two" is at 4..7 there and 5..8 in the text.
  expect([textOffset(text, 4), textOffset(text, 7)]).toEqual([5, 8]);
  expect(text.slice(textOffset(text, 8), textOffset(text, 13))).toBe("three");
  expect(textOffset("plain", 3)).toBe(3);
});

describe("open chats replace a redacted message they show, and ignore one they do not", () => {
  const staff: StaffMessage = { id: "m1", type: "Text", message: "Bo Tander", from: "Guest", fromUser: null, image: null, createdAt: "2026-11-01T10:00:00Z", read: true, readAt: null };
  const reporter: ReporterMessage = { id: "m1", type: "Text", message: "Bo Tander", from: "Guest", createdAt: "2026-11-01T10:00:00Z", read: true, image: null };
  test("the staff chat", () => {
    expect(staffApply([staff], { action: "redacted", message: { ...staff, message: REDACTION_MARKER } }).map((m) => m.message)).toEqual([REDACTION_MARKER]);
    expect(staffApply([staff], { action: "redacted", message: { ...staff, id: "m2", message: REDACTION_MARKER } })).toEqual([staff]);
  });
  test("the reporter's chat", () => {
    expect(reporterApply([reporter], { action: "redacted", message: { ...reporter, message: REDACTION_MARKER } }).map((m) => m.message)).toEqual([REDACTION_MARKER]);
    expect(reporterApply([reporter], { action: "redacted", message: { ...reporter, id: "m2", message: REDACTION_MARKER } })).toEqual([reporter]);
  });
});
