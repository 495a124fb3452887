/**
 * Redaction of a span of a reporter's answer or a chat message (docs/decisions/053-redaction.md).
 * Shared by the server, which decides, and the console, which previews the same result.
 */

/** What replaces a redacted span, in the stored text itself: exports and the reporter read it as is. */
export const REDACTION_MARKER = "[redacted]";

export const REDACTION_BAD_SPAN = "Select the text to redact within the text.";
export const REDACTION_SPLITS_CHARACTER = "The selection splits a character; select whole characters.";
export const REDACTION_ALREADY = "This text is already redacted.";

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A boundary between the two halves of one character (a surrogate pair) would leave half a character behind. */
const splitsPair = (text: string, at: number) => at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)) && isLowSurrogate(text.charCodeAt(at));

/** The span already is (part of) a marker: nothing of the reporter's is left there to redact. */
function insideMarker(text: string, start: number, end: number): boolean {
  for (let at = text.indexOf(REDACTION_MARKER); at !== -1; at = text.indexOf(REDACTION_MARKER, at + 1)) {
    if (at <= start && end <= at + REDACTION_MARKER.length) return true;
  }
  return false;
}

/**
 * The text with [start, end) replaced by the marker, or the reason it cannot be. Offsets are UTF-16
 * code units into the opened text, as a browser's selection gives them.
 */
export function redactSpan(text: string, start: number, end: number): { ok: true; text: string } | { ok: false; problem: string } {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > text.length || start >= end) return { ok: false, problem: REDACTION_BAD_SPAN };
  if (splitsPair(text, start) || splitsPair(text, end)) return { ok: false, problem: REDACTION_SPLITS_CHARACTER };
  if (insideMarker(text, start, end)) return { ok: false, problem: REDACTION_ALREADY };
  return { ok: true, text: text.slice(0, start) + REDACTION_MARKER + text.slice(end) };
}
