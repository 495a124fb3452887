import { UnreadableFileError } from "./bytes.ts";
import type { CleaningBudget } from "./cleaning-budget.ts";
import type { CleanedFile } from "./cleaned-file.ts";
import { inflateEntry, readZip, replaceContent, writeZip, type ZipEntry } from "./office-zip.ts";
import { cleanedPart, emptiedPropertiesPart } from "./ooxml-parts.ts";
import { sniffFileType } from "./sniff.ts";
import { stripPng, stripWebp } from "./strip-chunked.ts";
import { stripGif } from "./strip-gif.ts";
import { stripJpeg } from "./strip-jpeg.ts";

/**
 * A .docx, .xlsx or .pptx without what names its author (docs/decisions/048-clean-files.md):
 * - docProps/core.xml (creator, last modified by, dates, title, keywords…), docProps/custom.xml
 *   (custom properties, often the company's document-management fields), the custom XML items of
 *   any of the three (customXml/item*.xml: SharePoint writes the document's owner, author and
 *   library fields there) and the sensitivity labels (docMetadata/LabelInfo.xml, naming the
 *   company's tenant) keep only their root;
 * - Word's document variables (w:docVars in settings.xml: values macros and add-ins keep, user
 *   names among them) go;
 * - docProps/app.xml loses company, manager, template path, hyperlink base and total editing time;
 * - comment and tracked-change authors become "Author" (initials "A"), in Word, Excel and PowerPoint,
 *   and the accounts behind them go; Word's revision-session identifiers (rsid) are removed;
 * - pictures and the thumbnail lose their EXIF and similar through the image strippers;
 * - embedded Office files are cleaned the same way. Embedded objects of other kinds (legacy OLE
 *   files) cannot be, so such a document is stored cleaned but marked "not removed".
 * The package keeps every part, in the same order: [Content_Types].xml and the relationships stay
 * consistent because nothing is deleted. A container we cannot follow throws UnreadableFileError;
 * one that inflates past the upload's budget, at any level, throws OverBudgetError.
 */

/** Core and custom properties; System.IO.Packaging writers put the core ones under package/services instead of docProps. */
const EMPTIED_PARTS = /^(?:docProps\/(?:core|custom)\.xml|package\/services\/metadata\/core-properties\/[^/]+\.psmdcp|customXml\/item\d*\.xml|docMetadata\/LabelInfo\.xml)$/;
/** Parts that name people: every Word part (authors and rsids are everywhere in it), and Excel's and PowerPoint's people and comment parts. */
const PEOPLE_PARTS = [
  /^word\/.+\.xml$/,
  /^xl\/(?:comments[^/]*|workbook)\.xml$/,
  /^xl\/(?:persons|threadedComments)\/[^/]+\.xml$/,
  /^ppt\/(?:commentAuthors|authors)\.xml$/,
  /^ppt\/comments\/[^/]+\.xml$/,
];
const IMAGE = /\.(jpe?g|png|gif|webp)$/i;
const EMBEDDED_OFFICE = /\/embeddings\/[^/]+\.(docx|xlsx|pptx|docm|xlsm|pptm)$/i;
const EMBEDDED_OTHER = /\/embeddings\//;
/** An embedded document inside an embedded document is already unusual; deeper is not followed. */
const MAX_NESTING = 2;

function strippedImage(name: string, content: Uint8Array): Uint8Array | null {
  const extension = IMAGE.exec(name)![1]!.toLowerCase();
  // The picture's own bytes decide (a .png part may hold a JPEG); anything unrecognised is left as it is.
  const kind = sniffFileType(content, extension)?.kind;
  if (kind === "jpeg") return stripJpeg(content);
  if (kind === "png") return stripPng(content);
  if (kind === "gif") return stripGif(content);
  if (kind === "webp") return stripWebp(content);
  return null;
}

/** What `clean` returns, or undefined when the content's structure cannot be followed. */
function unlessUnreadable<T>(clean: () => T): T | undefined {
  try {
    return clean();
  } catch (error) {
    if (error instanceof UnreadableFileError) return undefined;
    throw error;
  }
}

/** The entry with its content passed through `clean`; the very same entry when nothing changed, so its bytes are kept as they were. */
function rewritten(entry: ZipEntry, clean: (content: Uint8Array) => Uint8Array, content: Uint8Array): ZipEntry {
  const cleaned = clean(content);
  return Buffer.from(cleaned).equals(Buffer.from(content)) ? entry : replaceContent(entry, cleaned);
}

/** The entry as it should be stored, and whether what it holds could be cleaned. */
/** An XML part inflated and rewritten by `clean`, within both of the upload's budgets. */
function rewrittenXml(entry: ZipEntry, clean: (content: Uint8Array) => Uint8Array, budget: CleaningBudget): ZipEntry {
  budget.takeXml(entry.uncompressedSize);
  return rewritten(entry, clean, inflateEntry(entry, budget));
}

function cleanedEntry(entry: ZipEntry, depth: number, budget: CleaningBudget): { entry: ZipEntry; cleaned: boolean } {
  const name = entry.name;
  if (EMPTIED_PARTS.test(name)) return { entry: rewrittenXml(entry, emptiedPropertiesPart, budget), cleaned: true };
  if (name === "docProps/app.xml") return { entry: rewrittenXml(entry, (content) => cleanedPart(content, true), budget), cleaned: true };
  if (PEOPLE_PARTS.some((pattern) => pattern.test(name))) return { entry: rewrittenXml(entry, (content) => cleanedPart(content, false), budget), cleaned: true };
  // A picture or embedded file we cannot follow is kept as it is (Office shows what it can); the document is then marked not cleaned.
  if (IMAGE.test(name)) {
    const content = inflateEntry(entry, budget);
    const stripped = unlessUnreadable(() => strippedImage(name, content));
    return { entry: stripped ? rewritten(entry, () => stripped, content) : entry, cleaned: stripped !== undefined };
  }
  if (EMBEDDED_OFFICE.test(name)) {
    if (depth >= MAX_NESTING) return { entry, cleaned: false };
    // The embedded package and everything in it spend the same budget as the document around it.
    const content = inflateEntry(entry, budget);
    const inner = unlessUnreadable(() => cleanOoxmlAt(content, depth + 1, budget));
    return inner ? { entry: rewritten(entry, () => inner.bytes, content), cleaned: inner.metadataRemoved } : { entry, cleaned: false };
  }
  return { entry, cleaned: !EMBEDDED_OTHER.test(name) };
}

function cleanOoxmlAt(bytes: Uint8Array, depth: number, budget: CleaningBudget): CleanedFile {
  let metadataRemoved = true;
  let changed = false;
  const entries = readZip(bytes).map((original) => {
    const { entry, cleaned } = cleanedEntry(original, depth, budget);
    metadataRemoved &&= cleaned;
    changed ||= entry !== original;
    return entry;
  });
  // A package with nothing to remove is stored byte for byte as it came.
  return { bytes: changed ? writeZip(entries) : bytes, metadataRemoved };
}

export function cleanOoxml(bytes: Uint8Array, budget: CleaningBudget): CleanedFile {
  return cleanOoxmlAt(bytes, 0, budget);
}
