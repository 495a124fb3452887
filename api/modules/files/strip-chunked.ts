import { ascii, asciiAt, ByteList, startsWithBytes, u32be, u32le, UnreadableFileError } from "./bytes.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * PNG chunks that carry words or dates rather than pixels: tEXt, zTXt and iTXt hold author,
 * software, comments and XMP; eXIf holds EXIF (GPS included); tIME the last-modified time.
 * Every other chunk is copied whole, its CRC untouched, so the image decodes as before.
 */
const PNG_DROPPED = new Set(["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]);

export function stripPng(bytes: Uint8Array): Uint8Array {
  if (!startsWithBytes(bytes, PNG_SIGNATURE)) throw new UnreadableFileError();
  const out = new ByteList();
  out.push(bytes.subarray(0, 8));
  let at = 8;
  let first = true;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = asciiAt(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (end > bytes.length || (first && type !== "IHDR")) throw new UnreadableFileError();
    first = false;
    if (!PNG_DROPPED.has(type)) out.push(bytes.subarray(at, end));
    at = end;
    // Data after IEND is not part of the image and is a favourite hiding place: it is dropped.
    if (type === "IEND") return out.join();
  }
  throw new UnreadableFileError();
}

/** WebP's RIFF chunks with metadata; VP8X's flags announcing them are cleared to match. */
const WEBP_DROPPED = new Set(["EXIF", "XMP "]);
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

export function stripWebp(bytes: Uint8Array): Uint8Array {
  if (!startsWithBytes(bytes, ascii("RIFF")) || !startsWithBytes(bytes, ascii("WEBP"), 8)) throw new UnreadableFileError();
  const end = Math.min(bytes.length, 8 + u32le(bytes, 4));
  const out = new ByteList();
  out.push(new Uint8Array(12));
  let at = 12;
  while (at + 8 <= end) {
    const type = asciiAt(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    // Chunks are padded to an even length.
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > end) throw new UnreadableFileError();
    const chunk = bytes.slice(at, Math.min(next, end));
    if (type === "VP8X" && size >= 1) chunk[8] = chunk[8]! & ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
    if (!WEBP_DROPPED.has(type)) out.push(chunk);
    at = next;
  }
  const result = out.join();
  result.set(ascii("RIFF"), 0);
  new DataView(result.buffer).setUint32(4, result.length - 8, true);
  result.set(ascii("WEBP"), 8);
  return result;
}
