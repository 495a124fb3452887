/**
 * A strict tokenizer for the XML of an uploaded SVG. It accepts only what a drawing program
 * writes: elements, attributes, text, CDATA, comments and processing instructions, with the five
 * predefined entities and character references. A DOCTYPE (and with it every entity declaration,
 * the way to "billion laughs" and external-entity tricks) is refused, as is anything malformed:
 * a file the sanitizer cannot read exactly is not stored. Nesting is checked by the caller.
 */

export interface XmlAttribute {
  name: string;
  /** As written between the quotes (references still escaped), for writing it back out. */
  raw: string;
  /** With references resolved, for checking. */
  value: string;
}

export type XmlToken =
  | { kind: "start"; name: string; attributes: XmlAttribute[]; selfClosing: boolean }
  | { kind: "end"; name: string }
  | { kind: "text"; raw: string; value: string }
  | { kind: "cdata"; raw: string; value: string }
  | { kind: "comment" }
  | { kind: "pi"; target: string; raw: string };

const NAME = "[A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_.-]*)?";
const START_NAME = new RegExp(`<(${NAME})`, "y");
const END_TAG = new RegExp(`</(${NAME})\\s*>`, "y");
const ATTRIBUTE = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, "y");
const TAG_CLOSE = /\s*(\/?)>/y;
const PI = new RegExp(`<\\?(${NAME})(?:\\s[\\s\\S]*?)?\\?>`, "y");
const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/gu;
const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Characters XML 1.0 does not allow in a document at all, written or referenced. */
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/u;

/** Resolves references; null when an `&` starts anything but a well-formed one. */
export function decodeReferences(raw: string): string | null {
  let invalid = false;
  const decoded = raw.replace(REFERENCE, (_match, named: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (named) return PREDEFINED[named]!;
    const code = decimal ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      invalid = true;
      return "";
    }
    return String.fromCodePoint(code);
  });
  // Whatever `&` is left was not part of a reference.
  if (invalid || FORBIDDEN_CHARACTER.test(decoded) || raw.replace(REFERENCE, "").includes("&")) return null;
  return decoded;
}

function readStartTag(text: string, at: number): { token: XmlToken; next: number } | null {
  START_NAME.lastIndex = at;
  const name = START_NAME.exec(text);
  if (!name) return null;
  let next = START_NAME.lastIndex;
  const attributes: XmlAttribute[] = [];
  for (;;) {
    ATTRIBUTE.lastIndex = next;
    const match = ATTRIBUTE.exec(text);
    if (!match) break;
    const raw = match[2] ?? match[3] ?? "";
    const value = decodeReferences(raw);
    if (value === null || attributes.some((attribute) => attribute.name === match[1])) return null;
    attributes.push({ name: match[1]!, raw, value });
    next = ATTRIBUTE.lastIndex;
  }
  TAG_CLOSE.lastIndex = next;
  const close = TAG_CLOSE.exec(text);
  if (!close) return null;
  return { token: { kind: "start", name: name[1]!, attributes, selfClosing: close[1] === "/" }, next: TAG_CLOSE.lastIndex };
}

function readMarkup(text: string, at: number): { token: XmlToken; next: number } | null {
  if (text.startsWith("<!--", at)) {
    const end = text.indexOf("-->", at + 4);
    return end < 0 ? null : { token: { kind: "comment" }, next: end + 3 };
  }
  if (text.startsWith("<![CDATA[", at)) {
    const end = text.indexOf("]]>", at + 9);
    return end < 0 ? null : { token: { kind: "cdata", raw: text.slice(at, end + 3), value: text.slice(at + 9, end) }, next: end + 3 };
  }
  // DOCTYPE and every other declaration.
  if (text.startsWith("<!", at)) return null;
  if (text.startsWith("<?", at)) {
    PI.lastIndex = at;
    const match = PI.exec(text);
    return match ? { token: { kind: "pi", target: match[1]!, raw: match[0] }, next: PI.lastIndex } : null;
  }
  if (text.startsWith("</", at)) {
    END_TAG.lastIndex = at;
    const match = END_TAG.exec(text);
    return match ? { token: { kind: "end", name: match[1]! }, next: END_TAG.lastIndex } : null;
  }
  return readStartTag(text, at);
}

/** The text is not XML this tokenizer can follow exactly. */
export class XmlSyntaxError extends Error {}

/**
 * The document's tokens in order, one at a time: a part of many small elements never exists as an
 * array of them (12 MB of `<w:p/>` held that way took a gigabyte). Throws XmlSyntaxError, at the
 * point it is reached, when the text is not XML this tokenizer can follow exactly.
 */
export function* xmlTokens(text: string): Generator<XmlToken, void, undefined> {
  if (FORBIDDEN_CHARACTER.test(text)) throw new XmlSyntaxError();
  let at = 0;
  while (at < text.length) {
    if (text[at] !== "<") {
      const end = text.indexOf("<", at);
      const raw = text.slice(at, end < 0 ? text.length : end);
      const value = decodeReferences(raw);
      if (value === null) throw new XmlSyntaxError();
      yield { kind: "text", raw, value };
      at += raw.length;
      continue;
    }
    const read = readMarkup(text, at);
    if (!read) throw new XmlSyntaxError();
    yield read.token;
    at = read.next;
  }
}

/** The document's tokens in order, or null when it is not XML this tokenizer can follow exactly. */
export function tokenizeXml(text: string): XmlToken[] | null {
  try {
    return Array.from(xmlTokens(text));
  } catch (error) {
    if (error instanceof XmlSyntaxError) return null;
    throw error;
  }
}
