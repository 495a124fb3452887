/**
 * Just enough PDF syntax (ISO 32000-1 §7.2–7.3) to find strings, dictionaries and streams in a
 * file read as Latin-1 text, one character per byte, so every index is also a byte offset. Used by
 * clean-pdf.ts, which only ever overwrites bytes in place. Malformed input makes these functions
 * return -1 or null; they never throw. A hostile file can make the same bytes be read again from many
 * starting points (a thousand unclosed dictionaries), so every step is counted against a budget in
 * proportion to the file's size; once it is spent, everything reads as malformed.
 */

/** Deeper nesting than any real document uses; a hostile file cannot make the scanner recurse without end. */
const MAX_DEPTH = 64;

export interface StringSpan {
  /** Index of the opening `(` or `<`. */
  open: number;
  /** Index of the closing `)` or `>`. */
  close: number;
}

const isWhite = (c: string | undefined) => c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\f" || c === "\0";
const isDelimiter = (c: string | undefined) => c !== undefined && "()<>[]{}/%".includes(c);
const HEX_DIGITS = /^[0-9A-Fa-f\s]*$/;
/** Steps allowed per byte of text (and a floor for small files): far more than any real file needs. */
const STEPS_PER_BYTE = 20;
const MINIMUM_STEPS = 1_000_000;

/** Text of a PDF (or of a decompressed object stream), read with a bounded amount of work. */
export class PdfText {
  private steps: number;

  constructor(readonly s: string) {
    this.steps = STEPS_PER_BYTE * s.length + MINIMUM_STEPS;
  }

  /** Whether the budget is spent, so that any later "malformed" may only mean "too much work". */
  get exhausted(): boolean {
    return this.steps < 0;
  }

  private spend(count = 1): boolean {
    this.steps -= count;
    return this.steps >= 0;
  }

  /** Skips white space and comments. */
  skipSpace(at: number): number {
    const s = this.s;
    while (at < s.length && this.spend()) {
      if (isWhite(s[at])) at += 1;
      else if (s[at] === "%") while (at < s.length && s[at] !== "\n" && s[at] !== "\r" && this.spend()) at += 1;
      else break;
    }
    return at;
  }

  /** The index after a literal string opening at `at`: nested parentheses balance, a backslash escapes the next byte. */
  private literalStringEnd(at: number): number {
    const s = this.s;
    let depth = 0;
    for (let i = at; i < s.length && this.spend(); i += 1) {
      const c = s[i];
      if (c === "\\") i += 1;
      else if (c === "(") depth += 1;
      else if (c === ")" && --depth === 0) return i + 1;
    }
    return -1;
  }

  /**
   * The index after the value starting at `at` (a dictionary, array, string, name, number or
   * keyword), collecting every string inside it into `strings`; -1 when the value is malformed.
   */
  valueEnd(at: number, strings: StringSpan[], depth = 0): number {
    const s = this.s;
    if (depth > MAX_DEPTH || at >= s.length || !this.spend()) return -1;
    const c = s[at];
    if (c === "(") {
      const end = this.literalStringEnd(at);
      if (end > 0) strings.push({ open: at, close: end - 1 });
      return end;
    }
    if (s.startsWith("<<", at) || c === "[") {
      const close = c === "[" ? "]" : ">>";
      let i = at + (c === "[" ? 1 : 2);
      for (;;) {
        i = this.skipSpace(i);
        if (i >= s.length || this.exhausted) return -1;
        if (s.startsWith(close, i)) return i + close.length;
        i = this.valueEnd(i, strings, depth + 1);
        if (i < 0) return -1;
      }
    }
    if (c === "<") {
      const close = s.indexOf(">", at);
      if (close < 0 || !this.spend(close - at) || !HEX_DIGITS.test(s.slice(at + 1, close))) return -1;
      strings.push({ open: at, close });
      return close + 1;
    }
    // A name, number or keyword (R, true, null…): regular characters up to the next delimiter.
    let i = c === "/" ? at + 1 : at;
    while (i < s.length && !isWhite(s[i]) && !isDelimiter(s[i]) && this.spend()) i += 1;
    return i === at ? -1 : i;
  }

  /** The dictionary starting at `at` (after white space): its text and the index after it, or null. */
  dictionaryAt(at: number, strings: StringSpan[] = []): { text: string; start: number; end: number } | null {
    const start = this.skipSpace(at);
    if (!this.s.startsWith("<<", start)) return null;
    const end = this.valueEnd(start, strings);
    return end < 0 ? null : { text: this.s.slice(start, end), start, end };
  }

  /** Where a stream's data starts after its dictionary (`stream` and one end-of-line), or -1 when no stream follows. */
  streamDataStart(dictEnd: number): number {
    const s = this.s;
    const at = this.skipSpace(dictEnd);
    if (!s.startsWith("stream", at)) return -1;
    const afterKeyword = at + 6;
    if (s.startsWith("\r\n", afterKeyword)) return afterKeyword + 2;
    if (s[afterKeyword] === "\n" || s[afterKeyword] === "\r") return afterKeyword + 1;
    return -1;
  }

  /**
   * Where a stream's data ends: at start + /Length when `endstream` follows there, otherwise (a
   * wrong or absurd /Length, which readers repair) just before the next `endstream`; -1 if there is none.
   * The caller continues after the stream, so these searches never cover the same bytes twice.
   */
  streamDataEnd(start: number, length: number | null): number {
    const s = this.s;
    if (length !== null && start + length <= s.length && s.startsWith("endstream", this.skipSpace(start + length))) return start + length;
    const keyword = s.indexOf("endstream", start);
    if (keyword < 0) return -1;
    let end = keyword;
    if (s[end - 1] === "\n") end -= 1;
    if (s[end - 1] === "\r") end -= 1;
    return Math.max(start, end);
  }
}

/** Overwrites a string's content with spaces, keeping its length: `(Jane)` → `(    )`, `<4A61>` → `<2020>`. */
export function blankString(out: Uint8Array, s: string, span: StringSpan): void {
  const hex = s[span.open] === "<";
  for (let i = span.open + 1; i < span.close; i += 1) out[i] = hex ? ((i - span.open) % 2 === 1 ? 0x32 : 0x30) : 0x20;
}

/** A direct integer value of `key` in a dictionary's text, or an indirect reference to one. */
export function integerEntry(dictionary: string, key: string): { value: number } | { ref: number } | null {
  const match = new RegExp(`/${key}\\s+(\\d{1,10})(?:\\s+(\\d{1,5})\\s+R)?(?![0-9A-Za-z])`).exec(dictionary);
  if (!match) return null;
  return match[2] === undefined ? { value: Number(match[1]) } : { ref: Number(match[1]) };
}

/** The stream's filter when it is none or exactly FlateDecode without parameters; "other" for anything we cannot rewrite. */
export function streamFilter(dictionary: string): "none" | "flate" | "other" {
  if (/\/DecodeParms(?![A-Za-z])/.test(dictionary)) return "other";
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dictionary);
  if (!filter) return /\/Filter(?![A-Za-z])/.test(dictionary) ? "other" : "none";
  const names = filter[1]!.match(/\/[A-Za-z0-9]+/g) ?? [];
  if (names.length === 0) return "none";
  return names.length === 1 && names[0] === "/FlateDecode" ? "flate" : "other";
}
