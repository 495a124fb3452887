import { badInput } from "../../lib/errors.ts";
import { UnreadableFileError } from "./bytes.ts";
import type { CleanedFile } from "./cleaned-file.ts";
import { cleanFileName, extensionOf } from "./file-name.ts";
import { sniffFileType } from "./sniff.ts";
import { stripMetadata } from "./strip-metadata.ts";

/**
 * The one way an uploaded file becomes bytes we may store, shared by report attachments and help
 * documents: its name is cleaned, its extension must be one the caller allows, its content must
 * be what that extension says (the browser's claimed type is ignored), and its metadata is
 * stripped before anything reaches the blob store. Size and room checks stay with the callers,
 * which run them before the body is read.
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
 * Checks and strips one file. `allowed` are lower-case extensions without dots, each one that
 * sniff.ts knows; `typeRefused` is the message for any other extension.
 */
export async function checkUpload(file: IncomingFile, allowed: readonly string[], typeRefused: string): Promise<CheckedUpload> {
  if (file.size === 0) throw badInput(EMPTY_FILE);
  const fileName = cleanFileName(file.name);
  const extension = extensionOf(fileName);
  if (!allowed.includes(extension)) throw badInput(typeRefused);
  const original = await file.bytes();
  const type = sniffFileType(original, extension);
  if (!type) throw badInput(CONTENT_MISMATCH);
  let cleaned: CleanedFile;
  try {
    cleaned = stripMetadata(type.kind, original);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw badInput(error.message);
    throw error;
  }
  if (cleaned.bytes.length === 0) throw badInput(EMPTY_FILE);
  return { fileName, mimeType: type.mimeType, ...cleaned };
}
