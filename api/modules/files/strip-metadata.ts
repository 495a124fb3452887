import { cleanOoxml } from "./clean-ooxml.ts";
import { cleanPdf } from "./clean-pdf.ts";
import type { CleanedFile } from "./cleaned-file.ts";
import { CleaningBudget } from "./cleaning-budget.ts";
import { refuseTooManyPixels } from "./image-dimensions.ts";
import type { FileKind } from "./sniff.ts";
import { stripPng, stripWebp } from "./strip-chunked.ts";
import { stripGif } from "./strip-gif.ts";
import { stripJpeg } from "./strip-jpeg.ts";
import { stripIsoMedia, stripMp3 } from "./strip-media.ts";

const cleaned = (bytes: Uint8Array): CleanedFile => ({ bytes, metadataRemoved: true });

/**
 * The bytes to store for an uploaded file: the same content with the metadata that could say who
 * made it, where, or on which device, removed. Runs before anything is stored, so the original
 * never reaches the blob store. Throws UnreadableFileError when a format's structure cannot be
 * followed (the upload is then refused rather than stored unstripped), and OverBudgetError when
 * it would inflate past the upload's budget, TooManyPixelsError for a picture no browser should be
 * asked to draw (decision 060). Runs in the cleaning worker
 * (cleaning-pool.ts), never on the thread that serves requests.
 *
 * Not cleaned (docs/decisions/048-clean-files.md), and so stored as uploaded with
 * metadataRemoved false, which staff see next to the file:
 * - legacy Office files (OLE: .doc, .xls, .ppt), whose property streams and revision tables need a
 *   full compound-file writer; the reporter is told before sending (api/shared/uncleanable-files.ts);
 * - PDFs that are encrypted, or whose metadata cannot be blanked in place (clean-pdf.ts).
 * Plain text has no metadata container, so it counts as clean.
 */
export function stripMetadata(kind: FileKind, bytes: Uint8Array, budget = new CleaningBudget()): CleanedFile {
  if (kind === "jpeg" || kind === "png" || kind === "gif" || kind === "webp") refuseTooManyPixels(kind, bytes);
  switch (kind) {
    case "jpeg":
      return cleaned(stripJpeg(bytes));
    case "png":
      return cleaned(stripPng(bytes));
    case "gif":
      return cleaned(stripGif(bytes));
    case "webp":
      return cleaned(stripWebp(bytes));
    case "mp3":
      return cleaned(stripMp3(bytes));
    case "isobmff":
      return cleaned(stripIsoMedia(bytes));
    case "pdf":
      return cleanPdf(bytes, budget);
    case "ooxml":
      return cleanOoxml(bytes, budget);
    case "ole":
      return { bytes, metadataRemoved: false };
    case "text":
      return cleaned(bytes);
  }
}
