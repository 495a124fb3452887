import { crc32 as zlibCrc32, deflateRawSync } from "node:zlib";

/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3, no ZIP64): enough for an export of a few thousand
 * small documents, without a dependency. Each entry is compressed as it is added and only the
 * compressed bytes are kept, so memory follows the size of the finished archive.
 */

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20;
/** General purpose flag bit 11: the file name is UTF-8 (report IDs are ASCII, but names need not be). */
const UTF8_NAMES = 0x0800;
const STORE = 0;
const DEFLATE = 8;
/** Without ZIP64, counts are 16-bit and sizes and offsets 32-bit. */
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

/** CRC-32 (IEEE 802.3, the one ZIP uses) of `data`: zlib's, since a byte-by-byte loop here took 1.7 s for 95 MB. */
export const crc32 = (data: Uint8Array): number => zlibCrc32(data);

/** MS-DOS date and time, at their 2-second resolution; ZIP cannot express dates before 1980. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

interface StoredEntry {
  name: Uint8Array;
  method: number;
  crc: number;
  size: number;
  data: Uint8Array;
  time: number;
  date: number;
  offset: number;
}

/**
 * Entry names are relative paths with forward slashes. Anything an unzip tool could resolve
 * outside the folder it extracts into (absolute paths, drive letters, `..`, backslashes) is refused.
 */
function checkName(name: string): void {
  const unsafe = name === "" || name.startsWith("/") || name.includes("\\") || /^[a-zA-Z]:/.test(name) || name.split("/").some((part) => part === ".." || part === ".");
  if (unsafe || /[\u0000-\u001f\u007f]/.test(name)) throw new Error("Unsafe file name in archive");
}

export class ZipWriter {
  private readonly entries: StoredEntry[] = [];
  private readonly names = new Set<string>();
  private offset = 0;

  /** Adds one file; DEFLATE when it makes the file smaller, STORE otherwise. */
  add(name: string, content: Uint8Array | string, modified: Date = new Date()): void {
    checkName(name);
    if (this.names.has(name)) throw new Error("Duplicate file name in archive");
    if (this.entries.length >= MAX_ENTRIES) throw new Error("Too many files for an archive without ZIP64");
    const raw = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const deflated = deflateRawSync(raw);
    const compress = deflated.length < raw.length;
    const data = compress ? new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.length) : raw;
    const encodedName = new TextEncoder().encode(name);
    const entry: StoredEntry = { name: encodedName, method: compress ? DEFLATE : STORE, crc: crc32(raw), size: raw.length, data, ...dosDateTime(modified), offset: this.offset };
    this.offset += 30 + encodedName.length + data.length;
    if (this.offset > MAX_OFFSET || raw.length > MAX_OFFSET) throw new Error("Archive too large without ZIP64");
    this.names.add(name);
    this.entries.push(entry);
  }

  get count(): number {
    return this.entries.length;
  }

  /** The complete archive: local headers with their data, then the central directory. */
  finish(): Uint8Array<ArrayBuffer> {
    const centralSize = this.entries.reduce((sum, entry) => sum + 46 + entry.name.length, 0);
    const out = new Uint8Array(this.offset + centralSize + 22);
    const view = new DataView(out.buffer);
    let at = 0;
    const u16 = (value: number) => {
      view.setUint16(at, value, true);
      at += 2;
    };
    const u32 = (value: number) => {
      view.setUint32(at, value >>> 0, true);
      at += 4;
    };
    const bytes = (value: Uint8Array) => {
      out.set(value, at);
      at += value.length;
    };
    // Fields shared by the local and the central header, from "version needed" to the extra length.
    const common = (entry: StoredEntry) => {
      u16(VERSION);
      u16(UTF8_NAMES);
      u16(entry.method);
      u16(entry.time);
      u16(entry.date);
      u32(entry.crc);
      u32(entry.data.length);
      u32(entry.size);
      u16(entry.name.length);
      u16(0);
    };
    for (const entry of this.entries) {
      u32(LOCAL_HEADER);
      common(entry);
      bytes(entry.name);
      bytes(entry.data);
    }
    const centralStart = at;
    for (const entry of this.entries) {
      u32(CENTRAL_HEADER);
      u16(VERSION); // made by: MS-DOS attributes, version 2.0
      common(entry);
      u16(0); // comment length
      u16(0); // disk number start
      u16(0); // internal attributes
      u32(0); // external attributes
      u32(entry.offset);
      bytes(entry.name);
    }
    u32(END_OF_CENTRAL_DIRECTORY);
    u16(0);
    u16(0);
    u16(this.entries.length);
    u16(this.entries.length);
    u32(centralSize);
    u32(centralStart);
    u16(0);
    return out;
  }
}
