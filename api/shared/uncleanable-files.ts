/**
 * Attachment types whose metadata (author, company, revision history) cannot be removed before
 * storing: legacy binary Office files. They are stored as uploaded, so the reporter's page warns
 * before sending that such a file may carry their name (docs/decisions/048-clean-files.md).
 * PDFs and .docx/.xlsx/.pptx are cleaned; an encrypted PDF is not, which only its bytes can tell.
 */
export const UNCLEANABLE_EXTENSIONS: readonly string[] = ["doc", "xls", "ppt"];

/** Whether a file name's extension is one whose metadata cannot be removed. */
export function cannotBeCleaned(fileName: string): boolean {
  const dot = fileName.lastIndexOf(".");
  return dot >= 0 && UNCLEANABLE_EXTENSIONS.includes(fileName.slice(dot + 1).toLowerCase());
}
