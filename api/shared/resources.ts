import { limit } from "./limits.ts";

// Help resources' rules (decision 039). Apart from limits.ts, which sits in the bundle every
// reporter page loads: only the console and the server need these.

/** A title, a few sentences, and a video's address. */
export const RESOURCE_TEXT_LIMITS = {
  title: limit(200, "Title must be at most 200 characters."),
  description: limit(5000, "Description must be at most 5,000 characters."),
  videoUrl: limit(2000, "Video URL must be at most 2,000 characters."),
} as const;

/** Spec §5 and §9: a help document's types and size, checked by the console and again by the server. */
export const RESOURCE_DOCUMENT_TYPES = ["doc", "docx", "xls", "xlsx", "ppt", "pptx", "pdf", "png", "jpg", "jpeg", "gif", "txt"] as const;
export const RESOURCE_DOCUMENT_MAX_BYTES = 25_000_000;
export const RESOURCE_DOCUMENT_TYPE_REFUSED = `Files of this type cannot be uploaded. Allowed types: ${RESOURCE_DOCUMENT_TYPES.map((type) => `.${type}`).join(", ")}.`;
export const RESOURCE_DOCUMENT_TOO_LARGE = "This file is too large: a document can be at most 25,000,000 bytes.";
