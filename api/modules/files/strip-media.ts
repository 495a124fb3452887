import { ascii, asciiAt, startsWithBytes, u32be, u32le, UnreadableFileError } from "./bytes.ts";

/**
 * MP3: ID3v2 tags at the start, APEv2 and ID3v1 tags at the end (artist, comments, the encoding
 * software, sometimes a cover picture with its own EXIF) are cut off; the audio frames stay.
 */
export function stripMp3(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (startsWithBytes(bytes, ascii("ID3"), start)) {
    if (start + 10 > bytes.length) throw new UnreadableFileError();
    // The tag size is "synchsafe": 7 bits per byte.
    const size = (bytes[start + 6]! << 21) | (bytes[start + 7]! << 14) | (bytes[start + 8]! << 7) | bytes[start + 9]!;
    const footer = (bytes[start + 5]! & 0x10) !== 0 ? 10 : 0;
    start += 10 + size + footer;
    if (start > bytes.length) throw new UnreadableFileError();
  }
  let end = bytes.length;
  if (end - start >= 128 && startsWithBytes(bytes, ascii("TAG"), end - 128)) end -= 128;
  if (end - start >= 32 && startsWithBytes(bytes, ascii("APETAGEX"), end - 32)) {
    const size = u32le(bytes, end - 32 + 12);
    const hasHeader = (u32le(bytes, end - 32 + 20) & 0x80000000) !== 0;
    const total = size + (hasHeader ? 32 : 0);
    if (total <= end - start) end -= total;
  }
  return bytes.slice(start, end);
}

/**
 * MP4, MOV and M4A (ISO base media). Phones write the recording's GPS position, device make and
 * model and software into `udta` and `meta` boxes (QuickTime ©xyz, com.apple.quicktime.location,
 * iTunes tags) and Adobe tools write XMP into a `uuid` box. Those boxes are overwritten in place
 * as `free` boxes full of zeros, and the creation and modification times in the movie, track and
 * media headers are zeroed. Nothing moves, so every sample offset stays valid and the file plays
 * as before. Not reached: metadata carried as a timed track inside `mdat` (some action cameras
 * write GPS that way) and compressed movie headers (`cmov`); removing those needs a remux.
 */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf"]);
const METADATA = new Set(["udta", "meta", "XMP_"]);
const XMP_UUID = Uint8Array.from([0xbe, 0x7a, 0xcf, 0xcb, 0x97, 0xa9, 0x42, 0xe8, 0x9c, 0x71, 0x99, 0x94, 0x91, 0xe3, 0xaf, 0xac]);
const TIMED_HEADERS = new Set(["mvhd", "tkhd", "mdhd"]);
const MAX_DEPTH = 8;

function blankBoxes(bytes: Uint8Array, start: number, end: number, depth: number): void {
  let at = start;
  while (at + 8 <= end) {
    let size = u32be(bytes, at);
    const type = asciiAt(bytes, at + 4, 4);
    let header = 8;
    if (size === 1) {
      // A 64-bit size follows; files we accept are far below 4 GB, so the high word must be zero.
      if (at + 16 > end || u32be(bytes, at + 8) !== 0) throw new UnreadableFileError();
      size = u32be(bytes, at + 12);
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) throw new UnreadableFileError();
    const isXmp = type === "uuid" && startsWithBytes(bytes, XMP_UUID, at + header);
    if (METADATA.has(type) || isXmp) {
      bytes.set(ascii("free"), at + 4);
      bytes.fill(0, at + header, at + size);
    } else if (TIMED_HEADERS.has(type) && at + header + 4 <= at + size) {
      // version 1: 64-bit creation and modification times; version 0: 32-bit.
      const timesLength = bytes[at + header] === 1 ? 16 : 8;
      const timesStart = at + header + 4;
      bytes.fill(0, timesStart, Math.min(timesStart + timesLength, at + size));
    } else if (CONTAINERS.has(type) && depth < MAX_DEPTH) {
      blankBoxes(bytes, at + header, at + size, depth + 1);
    }
    at += size;
  }
}

export function stripIsoMedia(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  blankBoxes(copy, 0, copy.length, 0);
  return copy;
}
