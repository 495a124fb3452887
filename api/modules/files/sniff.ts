import { ascii, startsWithBytes, u16le, u32le } from "./bytes.ts";

/**
 * What a file really is, decided from its bytes and never from what the browser claims: the
 * extension the reporter's file carries must agree with the magic bytes, and the stored type
 * comes from here. A renamed executable or a PNG posing as a PDF is refused before it is stored.
 */

export type FileKind = "pdf" | "png" | "jpeg" | "gif" | "webp" | "ole" | "ooxml" | "isobmff" | "mp3" | "text";

interface FileType {
  kind: FileKind;
  mimeType: string;
}

/** Every extension an attachment may have, whatever a form allows: an unknown type cannot be checked, so it is refused. */
const TYPES: Readonly<Record<string, FileType>> = {
  pdf: { kind: "pdf", mimeType: "application/pdf" },
  png: { kind: "png", mimeType: "image/png" },
  jpg: { kind: "jpeg", mimeType: "image/jpeg" },
  jpeg: { kind: "jpeg", mimeType: "image/jpeg" },
  gif: { kind: "gif", mimeType: "image/gif" },
  webp: { kind: "webp", mimeType: "image/webp" },
  doc: { kind: "ole", mimeType: "application/msword" },
  xls: { kind: "ole", mimeType: "application/vnd.ms-excel" },
  ppt: { kind: "ole", mimeType: "application/vnd.ms-powerpoint" },
  docx: { kind: "ooxml", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  xlsx: { kind: "ooxml", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  pptx: { kind: "ooxml", mimeType: "application/vnd.openxmlformats-officedocument.presentationml.presentation" },
  mp4: { kind: "isobmff", mimeType: "video/mp4" },
  mov: { kind: "isobmff", mimeType: "video/quicktime" },
  m4a: { kind: "isobmff", mimeType: "audio/mp4" },
  mp3: { kind: "mp3", mimeType: "audio/mpeg" },
  txt: { kind: "text", mimeType: "text/plain; charset=utf-8" },
};

/** The folder each Office Open XML type keeps its main part in, so a .docx cannot be a renamed .xlsx or a plain zip. */
const OOXML_FOLDER: Readonly<Record<string, string>> = { docx: "word/", xlsx: "xl/", pptx: "ppt/" };

export function isKnownExtension(extension: string): boolean {
  return Object.hasOwn(TYPES, extension);
}

/**
 * The names in a zip's central directory (read from the end, as unzip does, so entries written
 * with data descriptors are found too). Null when the archive's directory cannot be read.
 */
function zipEntryNames(bytes: Uint8Array): string[] | null {
  const minEnd = Math.max(0, bytes.length - 22 - 0xffff);
  for (let end = bytes.length - 22; end >= minEnd; end -= 1) {
    if (!startsWithBytes(bytes, [0x50, 0x4b, 0x05, 0x06], end)) continue;
    const entries = u16le(bytes, end + 10);
    let at = u32le(bytes, end + 16);
    const names: string[] = [];
    const decoder = new TextDecoder();
    for (let i = 0; i < entries; i += 1) {
      if (!startsWithBytes(bytes, [0x50, 0x4b, 0x01, 0x02], at) || at + 46 > bytes.length) return null;
      const nameLength = u16le(bytes, at + 28);
      const skip = nameLength + u16le(bytes, at + 30) + u16le(bytes, at + 32);
      if (at + 46 + nameLength > bytes.length) return null;
      names.push(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)));
      at += 46 + skip;
    }
    return names;
  }
  return null;
}

function isOfficeOpenXml(bytes: Uint8Array, extension: string): boolean {
  if (!startsWithBytes(bytes, [0x50, 0x4b, 0x03, 0x04])) return false;
  const names = zipEntryNames(bytes);
  const folder = OOXML_FOLDER[extension]!;
  return names !== null && names.includes("[Content_Types].xml") && names.some((name) => name.startsWith(folder));
}

/** UTF-8 text without NUL bytes (a NUL means binary content, or UTF-16, which we do not accept as .txt). */
function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isMp3(bytes: Uint8Array): boolean {
  if (startsWithBytes(bytes, ascii("ID3"))) return true;
  // An MPEG audio frame header starts with 11 set bits.
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

function matches(kind: FileKind, bytes: Uint8Array, extension: string): boolean {
  switch (kind) {
    case "pdf":
      return startsWithBytes(bytes, ascii("%PDF-"));
    case "png":
      return startsWithBytes(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "jpeg":
      return startsWithBytes(bytes, [0xff, 0xd8, 0xff]);
    case "gif":
      return startsWithBytes(bytes, ascii("GIF87a")) || startsWithBytes(bytes, ascii("GIF89a"));
    case "webp":
      return startsWithBytes(bytes, ascii("RIFF")) && startsWithBytes(bytes, ascii("WEBP"), 8);
    case "ole":
      return startsWithBytes(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    case "ooxml":
      return isOfficeOpenXml(bytes, extension);
    case "isobmff":
      return startsWithBytes(bytes, ascii("ftyp"), 4);
    case "mp3":
      return isMp3(bytes);
    case "text":
      return isPlainText(bytes);
  }
}

/** The file's real type when its content matches its extension (lower case, no dot); null otherwise. */
export function sniffFileType(bytes: Uint8Array, extension: string): FileType | null {
  // hasOwn, not a plain lookup: "constructor" must not find Object's.
  if (!Object.hasOwn(TYPES, extension)) return null;
  const type = TYPES[extension]!;
  return matches(type.kind, bytes, extension) ? type : null;
}
