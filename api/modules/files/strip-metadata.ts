import type { FileKind } from "./sniff.ts";
import { stripPng, stripWebp } from "./strip-chunked.ts";
import { stripGif } from "./strip-gif.ts";
import { stripJpeg } from "./strip-jpeg.ts";
import { stripIsoMedia, stripMp3 } from "./strip-media.ts";

/**
 * The bytes to store for an uploaded file: the same content with the metadata that could say who
 * made it, where, or on which device, removed. Runs before anything is stored, so the original
 * never reaches the blob store. Throws UnreadableFileError when a format's structure cannot be
 * followed (the upload is then refused rather than stored unstripped).
 *
 * Not stripped, by design of this first version:
 * - PDF (author, creator tool, XMP, incremental-update history) and Office files, old (OLE) and
 *   new (OOXML: docProps/core.xml and app.xml with author, last-modified-by, company, template
 *   path; tracked changes and comments in the body). Rewriting them safely needs a full parser
 *   and can break signatures or layout. Staff are warned in the console that such files may
 *   carry the reporter's details or be malicious; the reporter's upload page already says so.
 * - Plain text has no metadata container.
 */
export function stripMetadata(kind: FileKind, bytes: Uint8Array): Uint8Array {
  switch (kind) {
    case "jpeg":
      return stripJpeg(bytes);
    case "png":
      return stripPng(bytes);
    case "gif":
      return stripGif(bytes);
    case "webp":
      return stripWebp(bytes);
    case "mp3":
      return stripMp3(bytes);
    case "isobmff":
      return stripIsoMedia(bytes);
    case "pdf":
    case "ole":
    case "ooxml":
    case "text":
      return bytes;
  }
}
