import { inflateRawSync, deflateRawSync } from "node:zlib";
import { crc32 } from "../exports/zip.ts";
import { startsWithBytes, u16le, u32le, UnreadableFileError } from "./bytes.ts";
import type { CleaningBudget } from "./cleaning-budget.ts";

/**
 * Reading and rewriting the ZIP container of an Office Open XML file (PKWARE APPNOTE 6.3), for
 * clean-ooxml.ts. The central directory is the truth (as for unzip and Office), so entries written
 * with data descriptors are followed. Refused, as UnreadableFileError: ZIP64, encryption, split
 * archives, methods other than store and deflate, more entries than below, and an entry whose
 * inflated size is not what the directory says (the classic zip bomb lies there). What a part may
 * inflate to is the upload's cleaning budget (cleaning-budget.ts), taken before it is inflated.
 * Rewriting keeps every entry, in the same order, with its compressed bytes untouched unless its
 * content was replaced.
 */

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const CENTRAL_HEADER = [0x50, 0x4b, 0x01, 0x02];
const END_OF_DIRECTORY = [0x50, 0x4b, 0x05, 0x06];
const STORE = 0;
const DEFLATE = 8;
const ENCRYPTED = 0x0001;
const DATA_DESCRIPTOR = 0x0008;
const STRONG_ENCRYPTION = 0x0040;
/** Far more parts than a real document has. */
const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  /** The raw central-directory record, copied into the rewritten directory. */
  central: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  uncompressedSize: number;
  /** The entry's bytes as stored (compressed when method is deflate). */
  data: Uint8Array;
}

function endOfDirectory(bytes: Uint8Array): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) if (startsWithBytes(bytes, END_OF_DIRECTORY, at)) return at;
  throw new UnreadableFileError();
}

/** The entries of the archive, in directory order. */
export function readZip(bytes: Uint8Array): ZipEntry[] {
  const end = endOfDirectory(bytes);
  const count = u16le(bytes, end + 10);
  const directoryOffset = u32le(bytes, end + 16);
  // Split archives and ZIP64 (whose markers are all-ones values here) are not what Office writes for documents this size.
  if (u16le(bytes, end + 4) !== 0 || u16le(bytes, end + 6) !== 0 || count !== u16le(bytes, end + 8)) throw new UnreadableFileError();
  if (count === 0xffff || directoryOffset === 0xffffffff || count > MAX_ENTRIES) throw new UnreadableFileError();
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = directoryOffset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > end || !startsWithBytes(bytes, CENTRAL_HEADER, at)) throw new UnreadableFileError();
    const flags = u16le(bytes, at + 8);
    const method = u16le(bytes, at + 10);
    const compressedSize = u32le(bytes, at + 20);
    const uncompressedSize = u32le(bytes, at + 24);
    const nameLength = u16le(bytes, at + 28);
    const recordLength = 46 + nameLength + u16le(bytes, at + 30) + u16le(bytes, at + 32);
    const localOffset = u32le(bytes, at + 42);
    if (at + recordLength > end) throw new UnreadableFileError();
    if (flags & (ENCRYPTED | STRONG_ENCRYPTION) || (method !== STORE && method !== DEFLATE)) throw new UnreadableFileError();
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) throw new UnreadableFileError();
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (names.has(name)) throw new UnreadableFileError();
    names.add(name);
    // The data starts after the local header, whose name and extra field may differ in length from the central ones.
    if (localOffset + 30 > bytes.length || !startsWithBytes(bytes, LOCAL_HEADER, localOffset)) throw new UnreadableFileError();
    const dataStart = localOffset + 30 + u16le(bytes, localOffset + 26) + u16le(bytes, localOffset + 28);
    if (dataStart + compressedSize > bytes.length) throw new UnreadableFileError();
    entries.push({
      name,
      central: bytes.subarray(at, at + recordLength),
      flags,
      method,
      crc: u32le(bytes, at + 16),
      uncompressedSize,
      data: bytes.subarray(dataStart, dataStart + compressedSize),
    });
    at += recordLength;
  }
  return entries;
}

/**
 * An entry's content, checked against the size and checksum the directory gives for it. That size
 * is taken from the budget first, and is the inflater's hard cap: no part inflates past what it announced.
 */
export function inflateEntry(entry: ZipEntry, budget: CleaningBudget): Uint8Array {
  budget.take(entry.uncompressedSize);
  let content: Uint8Array;
  if (entry.method === STORE) content = entry.data;
  else {
    try {
      // One byte more than announced is enough to know the directory lied.
      content = new Uint8Array(inflateRawSync(entry.data, { maxOutputLength: entry.uncompressedSize + 1 }));
    } catch {
      throw new UnreadableFileError();
    }
  }
  if (content.length !== entry.uncompressedSize || crc32(content) !== entry.crc) throw new UnreadableFileError();
  return content;
}

/** The same entry holding `content` instead, deflated. */
export function replaceContent(entry: ZipEntry, content: Uint8Array): ZipEntry {
  return { ...entry, method: DEFLATE, crc: crc32(content), uncompressedSize: content.length, data: new Uint8Array(deflateRawSync(content)) };
}

/**
 * The archive with the given entries in order. Local headers are written fresh (no data descriptor,
 * no extra field); central records keep their original fields (times, attributes, name) with the
 * sizes, checksum, method and offset updated, and no extra field or comment.
 */
export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const nameLength = u16le(entry.central, 28);
    const record = new Uint8Array(46 + nameLength);
    record.set(entry.central.subarray(0, 46 + nameLength));
    const view = new DataView(record.buffer);
    view.setUint16(8, entry.flags & ~DATA_DESCRIPTOR, true);
    view.setUint16(10, entry.method, true);
    view.setUint32(16, entry.crc, true);
    view.setUint32(20, entry.data.length, true);
    view.setUint32(24, entry.uncompressedSize, true);
    view.setUint16(30, 0, true);
    view.setUint16(32, 0, true);
    view.setUint32(42, offset, true);
    // A local header is its signature, the central record's bytes 6..32 (version needed to extra length), then the name.
    const local = new Uint8Array(30 + nameLength);
    local.set(LOCAL_HEADER);
    local.set(record.subarray(6, 32), 4);
    local.set(record.subarray(46, 46 + nameLength), 30);
    parts.push(local, entry.data);
    central.push(record);
    offset += local.length + entry.data.length;
  }
  const directorySize = central.reduce((sum, record) => sum + record.length, 0);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  end.set(END_OF_DIRECTORY);
  view.setUint16(8, entries.length, true);
  view.setUint16(10, entries.length, true);
  view.setUint32(12, directorySize, true);
  view.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...central, end]);
}
