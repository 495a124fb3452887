import { blankString, integerEntry, type PdfText, type StringSpan } from "./pdf-syntax.ts";

/**
 * Page-piece dictionaries (ISO 32000-1 §14.5): /PieceInfo on the catalog, a page or a form holds,
 * per application, a /LastModified date and /Private data: Illustrator keeps its whole native file
 * there (with its own author and paths), plug-ins their user and machine. None of it is needed to
 * show the document. Strings in the dictionary and in what it references are blanked in place; the
 * streams it references (private data) are returned to be emptied. References are followed a few
 * levels only: a piece's own data never sits deeper, and the page tree must not be reached through it.
 */

export const PIECE_INFO = /\/PieceInfo(?![A-Za-z0-9])/;
const REFERENCE = /(?<![0-9])(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+R(?![A-Za-z0-9])/g;
const REFERENCE_HERE = /(\d{1,10})[ \t\r\n\f\0]+\d{1,5}[ \t\r\n\f\0]+R(?![A-Za-z0-9])/y;
const MAX_DEPTH = 6;

export interface PieceStream {
  dictionary: string;
  dataStart: number;
  dataEnd: number;
}

const referencesIn = (text: string) => Array.from(text.matchAll(REFERENCE), (match) => Number(match[1]));

/**
 * Blanks the value of every /PieceInfo between `from` and `to` of `text` (written into `out`, whose
 * bytes `text` reads one for one). Returns whether anything was blanked and the objects the values
 * reference, or null when a value cannot be read.
 */
export function blankPieceInfoIn(out: Uint8Array, text: PdfText, from: number, to: number): { blanked: boolean; references: number[] } | null {
  const s = text.s;
  const references: number[] = [];
  let blanked = false;
  const key = new RegExp(PIECE_INFO.source, "g");
  key.lastIndex = from;
  for (let match = key.exec(s); match && match.index < to; match = key.exec(s)) {
    const start = text.skipSpace(match.index + match[0].length);
    const reference = new RegExp(REFERENCE_HERE.source, "y");
    reference.lastIndex = start;
    const direct = reference.exec(s);
    if (direct) {
      references.push(Number(direct[1]));
      key.lastIndex = reference.lastIndex;
      continue;
    }
    const strings: StringSpan[] = [];
    const end = text.valueEnd(start, strings);
    if (end < 0) return null;
    for (const span of strings) blankString(out, s, span);
    blanked ||= strings.length > 0;
    references.push(...referencesIn(s.slice(start, end)));
    key.lastIndex = end;
  }
  return { blanked, references };
}

/**
 * Every /PieceInfo in the file's own objects, and the objects they reach: strings blanked in
 * `out`; the streams among them returned to be emptied. Null when something cannot be read.
 */
export function blankPieceInfo(out: Uint8Array, text: PdfText, holders: readonly number[], definitions: ReadonlyMap<number, number[]>): PieceStream[] | null {
  let next: number[] = [];
  for (const holder of holders) {
    const dictionary = text.dictionaryAt(holder);
    if (!dictionary) return null;
    const found = blankPieceInfoIn(out, text, dictionary.start, dictionary.end);
    if (!found) return null;
    next.push(...found.references);
  }
  const streams: PieceStream[] = [];
  const seen = new Set<number>();
  for (let depth = 0; depth < MAX_DEPTH && next.length > 0; depth += 1) {
    const current = next.filter((number) => !seen.has(number));
    next = [];
    for (const number of current) {
      seen.add(number);
      for (const at of definitions.get(number) ?? []) {
        const start = text.skipSpace(at);
        const strings: StringSpan[] = [];
        const end = text.valueEnd(start, strings);
        if (end < 0) return null;
        for (const span of strings) blankString(out, text.s, span);
        next.push(...referencesIn(text.s.slice(start, end)));
        const dataStart = text.s.startsWith("<<", start) ? text.streamDataStart(end) : -1;
        if (dataStart < 0) continue;
        const dictionary = text.s.slice(start, end);
        const length = integerEntry(dictionary, "Length");
        const dataEnd = text.streamDataEnd(dataStart, length && "value" in length ? length.value : null);
        if (dataEnd < 0) return null;
        streams.push({ dictionary, dataStart, dataEnd });
      }
    }
  }
  return streams;
}
