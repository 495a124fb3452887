import { badInput } from "../../lib/errors.ts";
import { UnreadableFileError } from "./bytes.ts";
import { OverBudgetError } from "./cleaning-budget.ts";
import { TooManyPixelsError } from "./image-dimensions.ts";
import type { CleaningJob } from "./cleaning-job.ts";
import { cleanInWorker, type CleaningLane } from "./cleaning-pool.ts";
import type { CleanedFile } from "./cleaned-file.ts";
import { cleanFileName, extensionOf } from "./file-name.ts";
import { sniffFileType } from "./sniff.ts";

/**
 * The one way an uploaded file becomes bytes we may store, shared by report attachments and help
 * documents: its name is cleaned, its extension must be one the caller allows, its content must
 * be what that extension says (the browser's claimed type is ignored), and its metadata is
 * stripped before anything reaches the blob store. Size and room checks stay with the callers,
 * which run them before the body is read. Stripping runs in the cleaning pool, within the upload's
 * budget (decision 060).
 */

export const EMPTY_FILE = "This file is empty.";
export const CONTENT_MISMATCH = "The file's content does not match its type.";

/** The file part of a request, read only once the cheap checks have passed. */
export interface IncomingFile {
  name: string;
  size: number;
  bytes(): Promise<Uint8Array>;
}

export interface CheckedUpload {
  fileName: string;
  mimeType: string;
  /** What is stored: the content with its metadata removed, or as uploaded when its type cannot be cleaned. */
  bytes: Uint8Array;
  metadataRemoved: boolean;
}

/** The sentence that names what is allowed: "Allowed types: .pdf, .png." */
export const allowedTypesText = (allowed: readonly string[]) => `Allowed types: ${allowed.map((type) => `.${type}`).join(", ")}.`;

/**
 * The job cleaned in the pool's `lane`, or refused with a clear message: `unreadable` for a file
 * whose structure cannot be followed, TOO_COSTLY_TO_CLEAN for one past the budget, PICTURE_TOO_LARGE
 * for a picture of too many pixels. Every upload
 * that is cleaned (attachments, help documents, chat images, avatars, logos) comes through here.
 */
export async function cleanedOrRefused(job: CleaningJob, lane: CleaningLane, unreadable?: string): Promise<CleanedFile> {
  try {
    return await cleanInWorker(job, lane);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw badInput(unreadable ?? error.message);
    if (error instanceof OverBudgetError || error instanceof TooManyPixelsError) throw badInput(error.message);
    throw error;
  }
}

/**
 * Checks and strips one file. `allowed` are lower-case extensions without dots, each one that
 * sniff.ts knows; `typeRefused` is the message for any other extension; `lane` is the cleaning
 * pool's lane the uploader may use (cleaning-pool.ts).
 */
export async function checkUpload(file: IncomingFile, allowed: readonly string[], typeRefused: string, lane: CleaningLane): Promise<CheckedUpload> {
  if (file.size === 0) throw badInput(EMPTY_FILE);
  const fileName = cleanFileName(file.name);
  const extension = extensionOf(fileName);
  if (!allowed.includes(extension)) throw badInput(typeRefused);
  const original = await file.bytes();
  const type = sniffFileType(original, extension);
  if (!type) throw badInput(CONTENT_MISMATCH);
  const cleaned = await cleanedOrRefused({ kind: type.kind, bytes: original }, lane);
  if (cleaned.bytes.length === 0) throw badInput(EMPTY_FILE);
  return { fileName, mimeType: type.mimeType, ...cleaned };
}
