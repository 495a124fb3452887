import { ascii, ByteList, startsWithBytes, UnreadableFileError } from "./bytes.ts";

/**
 * GIF without comment extensions (free text) and application extensions (XMP and vendor data),
 * except NETSCAPE2.0 (ANIMEXTS1.0 is its older alias), which only says how often an animation loops.
 * Graphic control and plain-text extensions and every image block are copied unchanged.
 * Anything after the trailer is dropped.
 */

const EXTENSION = 0x21;
const IMAGE = 0x2c;
const TRAILER = 0x3b;
const COMMENT_LABEL = 0xfe;
const APPLICATION_LABEL = 0xff;
const LOOPING_APPLICATIONS = [ascii("NETSCAPE2.0"), ascii("ANIMEXTS1.0")];

const colourTableBytes = (packed: number) => ((packed & 0x80) === 0 ? 0 : 3 * 2 ** ((packed & 0x07) + 1));

/** The end of a run of data sub-blocks (each a length byte then that many bytes) and its terminating zero. */
function subBlocksEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const size = bytes[at];
    if (size === undefined) throw new UnreadableFileError();
    at += 1 + size;
    if (size === 0) return at;
  }
}

function keepsExtension(bytes: Uint8Array, at: number): boolean {
  const label = bytes[at + 1];
  if (label === COMMENT_LABEL) return false;
  if (label !== APPLICATION_LABEL) return true;
  // The first sub-block of an application extension is its 11-byte identifier and authentication code.
  return bytes[at + 2] === 11 && LOOPING_APPLICATIONS.some((id) => startsWithBytes(bytes, id, at + 3));
}

export function stripGif(bytes: Uint8Array): Uint8Array {
  if (!startsWithBytes(bytes, ascii("GIF87a")) && !startsWithBytes(bytes, ascii("GIF89a"))) throw new UnreadableFileError();
  if (bytes.length < 13) throw new UnreadableFileError();
  // Header (6), logical screen descriptor (7), global colour table.
  const headerEnd = 13 + colourTableBytes(bytes[10]!);
  if (headerEnd > bytes.length) throw new UnreadableFileError();
  const out = new ByteList();
  out.push(bytes.subarray(0, headerEnd));
  let at = headerEnd;
  for (;;) {
    const introducer = bytes[at];
    if (introducer === TRAILER || introducer === undefined) break;
    if (introducer === EXTENSION) {
      if (at + 2 > bytes.length) throw new UnreadableFileError();
      const end = subBlocksEnd(bytes, at + 2);
      if (end > bytes.length) throw new UnreadableFileError();
      if (keepsExtension(bytes, at)) out.push(bytes.subarray(at, end));
      at = end;
    } else if (introducer === IMAGE) {
      // Descriptor (10), local colour table, LZW minimum code size (1), then the image data sub-blocks.
      if (at + 10 > bytes.length) throw new UnreadableFileError();
      const dataStart = at + 10 + colourTableBytes(bytes[at + 9]!) + 1;
      const end = subBlocksEnd(bytes, dataStart);
      if (end > bytes.length) throw new UnreadableFileError();
      out.push(bytes.subarray(at, end));
      at = end;
    } else {
      throw new UnreadableFileError();
    }
  }
  // A file cut short before its trailer still gets one, so every decoder sees a complete stream.
  out.push([TRAILER]);
  return out.join();
}
