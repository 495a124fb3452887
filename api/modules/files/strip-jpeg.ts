import { ByteList, startsWithBytes, u16be, UnreadableFileError, ascii } from "./bytes.ts";

/**
 * JPEG without its metadata. Cameras and phones write who, where and with what into APPn
 * segments: EXIF (GPS position, camera serial number, owner name, a thumbnail of the uncropped
 * picture) in APP1, XMP in APP1, ICC profiles and MPF in APP2, Photoshop/IPTC in APP13, vendor
 * data in the rest; COM holds free text. All of them go, except:
 * - APP0 JFIF, rewritten without its optional thumbnail (it only says "this is JFIF" and the pixel density);
 * - APP14 Adobe, which says how to interpret the colour channels of CMYK/YCCK images.
 * Dropping the ICC profile can shift colours slightly on wide-gamut photos; that is the price of
 * not keeping a segment that may name the device.
 * Every other segment (tables, frame, scans) and the entropy-coded data are copied byte for byte,
 * so the picture decodes exactly as before. Anything after the end-of-image marker (where phones
 * append further pictures, each with its own EXIF) is dropped.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP14 = 0xee;
const APP15 = 0xef;
const COM = 0xfe;

const JFIF = ascii("JFIF\0");
const ADOBE = ascii("Adobe");

/** The segment to write instead of this one, or null to drop it. */
function keptSegment(marker: number, segment: Uint8Array): Uint8Array | null {
  const payload = segment.subarray(4);
  if (marker === APP0) {
    // identifier (5), version (2), units (1), densities (4), then thumbnail width and height (0 and 0: none).
    if (!startsWithBytes(payload, JFIF) || payload.length < 14) return null;
    const rewritten = new Uint8Array(18);
    rewritten.set([0xff, APP0, 0x00, 0x10]);
    rewritten.set(payload.subarray(0, 12), 4);
    return rewritten;
  }
  if (marker === APP14) return startsWithBytes(payload, ADOBE) ? segment : null;
  if (marker > APP0 && marker <= APP15) return null;
  if (marker === COM) return null;
  return segment;
}

/** Where the entropy-coded data after a scan header ends: the next marker that is not a restart marker or a stuffed 0xFF. */
function scanEnd(bytes: Uint8Array, from: number): number {
  for (let at = from; at + 1 < bytes.length; at += 1) {
    if (bytes[at] !== 0xff) continue;
    const next = bytes[at + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
    return at;
  }
  return bytes.length;
}

export function stripJpeg(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) throw new UnreadableFileError();
  const out = new ByteList();
  out.push(bytes.subarray(0, 2));
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new UnreadableFileError();
    // Any number of 0xFF fill bytes may precede a marker.
    while (bytes[at + 1] === 0xff) at += 1;
    const marker = bytes[at + 1];
    if (marker === undefined) break;
    if (marker === EOI) break;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      out.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (marker === SOI || marker === 0x00 || at + 4 > bytes.length) throw new UnreadableFileError();
    const length = u16be(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) throw new UnreadableFileError();
    const segment = bytes.subarray(at, at + 2 + length);
    at += 2 + length;
    if (marker === SOS) {
      const end = scanEnd(bytes, at);
      out.push(segment);
      out.push(bytes.subarray(at, end));
      at = end;
      continue;
    }
    const kept = keptSegment(marker, segment);
    if (kept) out.push(kept);
  }
  // A file cut short after its last scan still ends properly; decoders treat the missing data as grey.
  out.push([0xff, EOI]);
  return out.join();
}
