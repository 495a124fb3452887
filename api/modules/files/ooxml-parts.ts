import { ByteList, UnreadableFileError } from "./bytes.ts";
import { xmlTokens, XmlSyntaxError, type XmlAttribute, type XmlToken } from "./xml-tokens.ts";

/**
 * The XML parts of an Office Open XML package that name people, rewritten without those names
 * (docs/decisions/048-clean-files.md). The strict tokenizer of the SVG sanitizer reads them; a part
 * it cannot follow makes the whole file unreadable rather than half cleaned. Comments in the XML are
 * dropped; everything else is written back as it was, so the part stays valid against its schema:
 * only optional elements are removed, and required attributes get a neutral value instead.
 */

const NEUTRAL_NAME = "Author";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** app.xml (extended properties) children that name the author's organisation, machine or habits; all optional. */
const IDENTIFYING_APP_PROPERTIES = new Set(["Company", "Manager", "Template", "HyperlinkBase", "TotalTime"]);

/**
 * Elements removed wherever they appear in a cleaned part: the revision-session list of Word
 * (w:rsids, which ties a document to the editing sessions of other documents from the same machine),
 * the account behind a comment author (w15:presenceInfo), Word's document variables (w:docVars,
 * optional in settings.xml, where macros and add-ins keep values such as the user's name), and
 * Excel's folder of the saved workbook (x15ac:absPath, which holds a user name in most paths).
 */
const DROPPED_ELEMENTS = new Set(["w:rsids", "w15:presenceInfo", "w:docVars", "x15ac:absPath"]);

/** Attributes of people records (PowerPoint comment authors, Excel persons, modern comment authors). */
const PERSON_ELEMENTS = new Set(["cmAuthor", "author", "person"]);
const PERSON_ATTRIBUTES: Readonly<Record<string, string>> = { name: NEUTRAL_NAME, displayName: NEUTRAL_NAME, userId: NEUTRAL_NAME, providerId: "None", initials: "A" };

/** The attribute as it should be written, or null to leave it out. */
function cleanAttribute(element: string, attribute: XmlAttribute): XmlAttribute | null {
  // w:rsidR, w:rsidRPr, w:rsidRDefault, w:rsidP, w:rsidDel, w:rsidSect, w:rsidTr: all optional.
  if (attribute.name.startsWith("w:rsid")) return null;
  const local = localName(attribute.name);
  let value: string | undefined;
  if (local === "author" || local === "userName") value = NEUTRAL_NAME;
  else if (local === "initials") value = "A";
  else if (PERSON_ELEMENTS.has(localName(element))) value = PERSON_ATTRIBUTES[local];
  return value === undefined ? attribute : { name: attribute.name, raw: value, value };
}

function startTag(token: Extract<XmlToken, { kind: "start" }>, selfClosing = token.selfClosing): string {
  // A raw value read between single quotes may hold a double quote; it is written back between single quotes.
  const attributes = token.attributes.map((a) => (a.raw.includes('"') ? ` ${a.name}='${a.raw}'` : ` ${a.name}="${a.raw}"`)).join("");
  return `<${token.name}${attributes}${selfClosing ? "/>" : ">"}`;
}

/** The part's tokens one at a time (a large part is never held as an array of them); unreadable XML throws UnreadableFileError. */
function* tokensOf(content: Uint8Array): Generator<XmlToken, void, undefined> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    throw new UnreadableFileError();
  }
  try {
    yield* xmlTokens(text);
  } catch (error) {
    throw error instanceof XmlSyntaxError ? new UnreadableFileError() : error;
  }
}

const encode = (text: string) => new TextEncoder().encode(text);

/** Chunks written between collections (see TextOut). */
const COLLECT_EVERY_CHUNKS = 16;

/**
 * Text written piece by piece and encoded in chunks, so millions of small pieces are never held at
 * once. Rewriting leaves many times the part's size in short-lived tokens and strings, which the
 * engine would collect only once its heap had grown: a collection every megabyte written kept the
 * cleaning worker at 111 MB instead of 138 MB for 8 MB of `<w:p/>`, and took less time (decision 060).
 */
class TextOut {
  private readonly bytes = new ByteList();
  private pending = "";
  private chunks = 0;

  push(text: string): void {
    this.pending += text;
    if (this.pending.length >= 65_536) this.flush();
  }

  private flush(): void {
    this.bytes.push(encode(this.pending));
    this.pending = "";
    if (++this.chunks % COLLECT_EVERY_CHUNKS === 0) Bun.gc(true);
  }

  join(): Uint8Array {
    this.flush();
    return this.bytes.join();
  }
}

/** core.xml and custom.xml: the root element alone, with its namespace declarations, and no properties. */
export function emptiedPropertiesPart(content: Uint8Array): Uint8Array {
  let root: XmlToken | undefined;
  // The whole part is read, so that one we cannot follow is refused as before, not half read.
  for (const token of tokensOf(content)) if (!root && token.kind === "start") root = token;
  if (!root || root.kind !== "start") throw new UnreadableFileError();
  return encode(XML_DECLARATION + startTag(root, true));
}

/**
 * Any other part: people's names neutral, revision identities and dropped elements gone. In
 * app.xml (`isAppProperties`) the identifying top-level properties go too.
 */
export function cleanedPart(content: Uint8Array, isAppProperties: boolean): Uint8Array {
  const out = new TextOut();
  const open: string[] = [];
  /** Depth at which an element being dropped started; its whole subtree is skipped. */
  let droppingFrom = -1;
  for (const token of tokensOf(content)) {
    if (token.kind === "start") {
      const drop = DROPPED_ELEMENTS.has(token.name) || (isAppProperties && open.length === 1 && IDENTIFYING_APP_PROPERTIES.has(localName(token.name)));
      if (droppingFrom < 0 && drop) droppingFrom = open.length;
      if (!token.selfClosing) open.push(token.name);
      if (droppingFrom < 0) {
        const attributes = token.attributes.map((attribute) => cleanAttribute(token.name, attribute)).filter((a): a is XmlAttribute => a !== null);
        out.push(startTag({ ...token, attributes }));
      } else if (token.selfClosing && droppingFrom === open.length) droppingFrom = -1;
      continue;
    }
    if (token.kind === "end") {
      if (open.pop() !== token.name) throw new UnreadableFileError();
      if (droppingFrom < 0) out.push(`</${token.name}>`);
      else if (droppingFrom === open.length) droppingFrom = -1;
      continue;
    }
    if (droppingFrom >= 0 || token.kind === "comment") continue;
    // Excel's legacy comments list their authors as text: <authors><author>Jane</author></authors>.
    if ((token.kind === "text" || token.kind === "cdata") && open.at(-1) === "author") out.push(NEUTRAL_NAME);
    else out.push(token.raw);
  }
  if (open.length > 0) throw new UnreadableFileError();
  return out.join();
}
