import { ascii, startsWithBytes, u16be, u16le, u32be } from "./bytes.ts";

/**
 * The pixels a picture says it has, read from its header. Nothing here decodes pixels, but a
 * browser showing the picture does: a 1 MB PNG declaring 50,000 × 50,000 pixels asks the staff
 * member's or reporter's browser for 10 GB. Such pictures are refused before they are stored
 * (decision 060); 250 megapixels is above the largest phone cameras (200).
 */
export const MAX_PIXELS = 250_000_000;
export const PICTURE_TOO_LARGE = "This picture has too many pixels to be shown safely (at most 250 megapixels). Save it at a smaller size and try again.";

export class TooManyPixelsError extends Error {
  constructor() {
    super(PICTURE_TOO_LARGE);
    this.name = "TooManyPixelsError";
  }
}

/** Width × height of the first frame header of a JPEG (SOF0–SOF15, not DHT, JPG or DAC), or null. */
function jpegPixels(bytes: Uint8Array): number | null {
  let at = 2;
  while (at + 9 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return u16be(bytes, at + 5) * u16be(bytes, at + 7);
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

/** The declared pixel count of a PNG, JPEG, GIF or WebP (VP8X canvas; plain VP8 and VP8L cannot pass 16,383 × 16,383), or null. */
export function declaredPixels(kind: "png" | "jpeg" | "gif" | "webp", bytes: Uint8Array): number | null {
  if (kind === "png") return bytes.length >= 24 ? u32be(bytes, 16) * u32be(bytes, 20) : null;
  if (kind === "jpeg") return jpegPixels(bytes);
  if (kind === "gif") return bytes.length >= 10 ? u16le(bytes, 6) * u16le(bytes, 8) : null;
  return bytes.length >= 30 && startsWithBytes(bytes, ascii("VP8X"), 12) ? (u24le(bytes, 24) + 1) * (u24le(bytes, 27) + 1) : null;
}

export function refuseTooManyPixels(kind: "png" | "jpeg" | "gif" | "webp", bytes: Uint8Array): void {
  if ((declaredPixels(kind, bytes) ?? 0) > MAX_PIXELS) throw new TooManyPixelsError();
}
