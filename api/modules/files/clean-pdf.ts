import { deflateSync, inflateSync } from "node:zlib";
import type { CleanedFile } from "./cleaned-file.ts";
import { OverBudgetError, type CleaningBudget } from "./cleaning-budget.ts";
import { blankPieceInfo, blankPieceInfoIn, PIECE_INFO } from "./pdf-piece-info.ts";
import { blankString, integerEntry, PdfText, streamFilter, type StringSpan } from "./pdf-syntax.ts";

/**
 * A PDF without the metadata that names its author (docs/decisions/048-clean-files.md). Nothing
 * moves: every byte offset stays where it was, so the cross-reference tables (and the byte ranges
 * of any signature) remain valid without rewriting the file. What is blanked, in place and at the
 * same length:
 * - every document-information dictionary (each /Info of every trailer or cross-reference stream,
 *   older incremental revisions included, since they still carry the values they had): each of its
 *   strings, and strings it references, become spaces;
 * - the same dictionaries held in compressed object streams, re-compressed into the room they had;
 * - every /Type /Metadata (XMP) stream, replaced by an empty XMP packet;
 * - every page-piece dictionary (/PieceInfo, where Illustrator, Acrobat and plug-ins keep their own
 *   private data, names and dates among them): its strings, and those of what it references, with
 *   the private-data streams emptied (pdf-piece-info.ts).
 * When any of this cannot be done (encrypted file, an object we cannot follow, a blank that does not
 * fit), the file is returned exactly as uploaded and marked as not cleaned. Object streams inflating
 * past the upload's budget make it OverBudgetError: refused, not stored (decision 060).
 */

/** `12 0 obj`, not preceded by a digit (so `112 0 obj` is not read as object 12). */
const OBJECT_HEADER = /(?<![0-9])(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+obj(?![A-Za-z0-9])/g;
const INFO_REFERENCE = /\/Info[ \t\r\n\f\0]*(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+R(?![A-Za-z0-9])/g;
const INLINE_INFO = /\/Info[ \t\r\n\f\0]*<</g;
const REFERENCE = /(?<![0-9])(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+R(?![A-Za-z0-9])/g;
const ENCRYPT = /\/Encrypt(?![A-Za-z0-9])/;
/** Every readable PDF ends a revision with it; without one we cannot tell what a reader would find. */
const START_XREF = /startxref[ \t\r\n\f\0]+\d/;
const TYPE_METADATA = /\/Type[ \t\r\n\f\0]*\/Metadata(?![A-Za-z0-9])/;
const TYPE_OBJECT_STREAM = /\/Type[ \t\r\n\f\0]*\/ObjStm(?![A-Za-z0-9])/;

/** More objects than any document needs; past it the file is not followed. */
const MAX_OBJECTS = 2_000_000;

/** An empty XMP packet (XMP part 1, §7.3): the padding between body and trailer is how XMP reserves room. */
const XMP_HEAD = '<?xpacket begin="\u00ef\u00bb\u00bf" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
const XMP_TAIL = '<?xpacket end="w"?>';

interface StreamObject {
  dictionary: string;
  dataStart: number;
  dataEnd: number;
}

interface PdfObjects {
  /** Where each object number's value starts, once for every revision that defines it. */
  definitions: Map<number, number[]>;
  metadataStreams: StreamObject[];
  objectStreams: StreamObject[];
  /** Where each object dictionary holding a /PieceInfo starts. */
  pieceInfoHolders: number[];
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");

/**
 * Every object in file order, as a reader repairing a damaged file finds them. Stream data is
 * skipped, so bytes inside a compressed stream are never taken for an object. Null when a stream's
 * end cannot be found (then nothing after it can be trusted).
 */
function scanObjects(text: PdfText): PdfObjects | null {
  const s = text.s;
  const found: PdfObjects = { definitions: new Map(), metadataStreams: [], objectStreams: [], pieceInfoHolders: [] };
  let count = 0;
  const header = new RegExp(OBJECT_HEADER.source, "g");
  for (let match = header.exec(s); match; match = header.exec(s)) {
    if (++count > MAX_OBJECTS) return null;
    const number = Number(match[1]);
    const valueStart = header.lastIndex;
    const definitions = found.definitions.get(number);
    if (definitions) definitions.push(valueStart);
    else found.definitions.set(number, [valueStart]);
    const dictionary = text.dictionaryAt(valueStart);
    if (!dictionary) continue;
    if (PIECE_INFO.test(dictionary.text)) found.pieceInfoHolders.push(dictionary.start);
    header.lastIndex = dictionary.end;
    const dataStart = text.streamDataStart(dictionary.end);
    if (dataStart < 0) continue;
    const length = integerEntry(dictionary.text, "Length");
    const dataEnd = text.streamDataEnd(dataStart, length && "value" in length ? length.value : null);
    if (dataEnd < 0) return null;
    header.lastIndex = dataEnd;
    const stream = { dictionary: dictionary.text, dataStart, dataEnd };
    if (TYPE_METADATA.test(dictionary.text)) found.metadataStreams.push(stream);
    if (TYPE_OBJECT_STREAM.test(dictionary.text)) found.objectStreams.push(stream);
  }
  return text.exhausted ? null : found;
}

const referencesIn = (text: string) => Array.from(text.matchAll(REFERENCE), (match) => Number(match[1]));

/** Writes `content` over a stream's data and fills the rest with `fill`; false when it does not fit. */
function overwriteStream(out: Uint8Array, stream: StreamObject, content: Uint8Array, fill: number): boolean {
  const room = stream.dataEnd - stream.dataStart;
  if (content.length > room) return false;
  out.set(content, stream.dataStart);
  out.fill(fill, stream.dataStart + content.length, stream.dataEnd);
  return true;
}

/** An XMP stream replaced by an empty packet of the same length (compressed when the stream was). */
function blankXmp(out: Uint8Array, stream: StreamObject): boolean {
  const room = stream.dataEnd - stream.dataStart;
  const filter = streamFilter(stream.dictionary);
  if (filter === "other") return false;
  if (filter === "flate") return overwriteStream(out, stream, deflateSync(Buffer.from(XMP_HEAD + XMP_TAIL, "latin1"), { level: 9 }), 0);
  // Too small for a packet: spaces are no XMP at all, which readers treat as no metadata.
  if (room < XMP_HEAD.length + XMP_TAIL.length + 1) return overwriteStream(out, stream, new Uint8Array(0), 0x20);
  const packet = XMP_HEAD + "\n" + " ".repeat(room - XMP_HEAD.length - XMP_TAIL.length - 1) + XMP_TAIL;
  return overwriteStream(out, stream, Buffer.from(packet, "latin1"), 0x20);
}

/** A stream's data replaced by nothing at the same length (spaces, or an empty deflated stream padded with zeros). */
function emptyStream(out: Uint8Array, stream: StreamObject): boolean {
  const filter = streamFilter(stream.dictionary);
  if (filter === "other") return false;
  if (filter === "flate") return overwriteStream(out, stream, deflateSync(new Uint8Array(0)), 0);
  return overwriteStream(out, stream, new Uint8Array(0), 0x20);
}

/**
 * Blanks the strings of the target objects an object stream holds, then writes the stream back,
 * compressed into its old room (padded with zeros: a reader stops at the end of the zlib data).
 * Returns the object numbers it blanked, or null when it cannot rewrite the stream.
 */
function cleanObjectStream(out: Uint8Array, stream: StreamObject, targets: ReadonlySet<number>, budget: CleaningBudget): number[] | null {
  if (streamFilter(stream.dictionary) !== "flate") return [];
  const count = integerEntry(stream.dictionary, "N");
  const first = integerEntry(stream.dictionary, "First");
  if (!count || !first || !("value" in count) || !("value" in first)) return null;
  let inflated: Uint8Array;
  try {
    // The budget left is the inflater's hard cap: a stream of gigabytes stops there, not after.
    inflated = new Uint8Array(inflateSync(out.subarray(stream.dataStart, stream.dataEnd), { maxOutputLength: Math.max(1, budget.remaining) }));
  } catch (error) {
    if (error instanceof RangeError) throw new OverBudgetError();
    return null;
  }
  budget.take(inflated.length);
  const text = new PdfText(latin1(inflated));
  // Page pieces held here are blanked where they stand; one that reaches elsewhere cannot be followed from here.
  const pieces = blankPieceInfoIn(inflated, text, 0, text.s.length);
  if (!pieces || pieces.references.length > 0) return null;
  const header = text.s.slice(0, first.value).trim().split(/\s+/).map(Number);
  if (header.length < count.value * 2 || header.some((n) => !Number.isInteger(n))) return null;
  const blanked: number[] = [];
  for (let i = 0; i < count.value; i += 1) {
    if (!targets.has(header[i * 2]!)) continue;
    const strings: StringSpan[] = [];
    if (text.valueEnd(text.skipSpace(first.value + header[i * 2 + 1]!), strings) < 0) return null;
    for (const span of strings) blankString(inflated, text.s, span);
    blanked.push(header[i * 2]!);
  }
  if (blanked.length === 0 && !pieces.blanked) return [];
  return overwriteStream(out, stream, deflateSync(inflated, { level: 9 }), 0) ? blanked : null;
}

export function cleanPdf(bytes: Uint8Array, budget: CleaningBudget): CleanedFile {
  const asUploaded = { bytes, metadataRemoved: false };
  const s = latin1(bytes);
  // Encrypted strings cannot be blanked without the key, and an encrypted XMP stream cannot be read.
  if (ENCRYPT.test(s) || !START_XREF.test(s)) return asUploaded;
  const text = new PdfText(s);
  const objects = scanObjects(text);
  if (!objects) return asUploaded;
  const out = bytes.slice();

  for (const inline of s.matchAll(INLINE_INFO)) {
    const strings: StringSpan[] = [];
    if (!text.dictionaryAt(inline.index + inline[0].length - 2, strings)) return asUploaded;
    for (const span of strings) blankString(out, s, span);
  }
  const infoObjects = new Set(Array.from(s.matchAll(INFO_REFERENCE), (match) => Number(match[1])));
  // Values an Info dictionary holds by reference (`/Author 9 0 R`) are blanked where they are defined.
  const targets = new Set(infoObjects);
  const cleaned = new Set<number>();
  for (const number of infoObjects) {
    for (const at of objects.definitions.get(number) ?? []) {
      const strings: StringSpan[] = [];
      const dictionary = text.dictionaryAt(at, strings);
      if (!dictionary) return asUploaded;
      for (const span of strings) blankString(out, s, span);
      for (const referenced of referencesIn(dictionary.text)) targets.add(referenced);
      cleaned.add(number);
    }
  }
  for (const number of targets) {
    if (infoObjects.has(number)) continue;
    for (const at of objects.definitions.get(number) ?? []) {
      const start = text.skipSpace(at);
      const strings: StringSpan[] = [];
      if (s[start] === "(" || (s[start] === "<" && s[start + 1] !== "<")) text.valueEnd(start, strings);
      for (const span of strings) blankString(out, s, span);
    }
  }
  const pieceStreams = blankPieceInfo(out, text, objects.pieceInfoHolders, objects.definitions);
  if (!pieceStreams || !pieceStreams.every((stream) => emptyStream(out, stream))) return asUploaded;
  for (const stream of objects.objectStreams) {
    const blanked = cleanObjectStream(out, stream, targets, budget);
    if (!blanked) return asUploaded;
    for (const number of blanked) cleaned.add(number);
  }
  // An Info dictionary we did not find may sit where we cannot look (an object stream we cannot decode).
  for (const number of infoObjects) if (!cleaned.has(number)) return asUploaded;
  for (const stream of objects.metadataStreams) if (!blankXmp(out, stream)) return asUploaded;
  // A step past the budget may have cut a string short; what was blanked cannot be trusted to be all.
  if (text.exhausted) return asUploaded;
  return { bytes: out, metadataRemoved: true };
}
