/**
 * The name an attachment is shown under, to staff and to the reporter. It is display text only:
 * storage keys are random (newBlobKey) and downloads name the file through an encoded header, so
 * the name never reaches a path, a key or a command.
 */

export const MAX_FILE_NAME_LENGTH = 200;

/**
 * Control characters (C0, DEL, C1) and the bidirectional overrides and isolates that can make
 * "invoice‮fdp.exe" read as "invoiceexe.pdf" on a staff member's screen.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The base name of what the browser sent, cleaned and at most 200 characters, keeping its extension.
 * NUL and the other control characters are dropped rather than refused: a name is display text, and
 * the file itself is what the reporter meant to send. A multipart part whose filename the parser
 * could not read (one of only NUL bytes, say) comes without a name at all, and gets "".
 */
export function cleanFileName(raw: string | null | undefined): string {
  if (typeof raw !== "string") return "";
  // Browsers send a base name, but old ones sent a full local path ("C:\Users\jane\report.pdf"): keep only the last part.
  const base = raw.split(/[\\/]/u).pop() ?? "";
  // Leading dots go too, so a name saved by staff is never a hidden file.
  const cleaned = base.normalize("NFC").replace(UNSAFE, "").trim().replace(/^\.+/u, "");
  const chars = Array.from(cleaned);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 ? Array.from(cleaned.slice(dot)) : [];
  // Extensions are short; a pathological one is cut like the rest of the name.
  const keep = extension.length <= 16 ? extension : [];
  return [...chars.slice(0, MAX_FILE_NAME_LENGTH - keep.length), ...keep].join("").trim();
}

/** The extension in lower case without its dot, or "" when the name has none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : "";
}

/** `attachment; filename*=UTF-8''…` (RFC 6266/8187): always a download, never rendered on our origin. */
export function attachmentDisposition(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/gu, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}
