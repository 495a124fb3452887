import { badInput } from "../../lib/errors.ts";
import { ascii, startsWithBytes, u32le } from "./bytes.ts";
import { cleanedOrRefused } from "./checked-upload.ts";
import type { CleaningLane } from "./cleaning-pool.ts";
import { cleanFileName, extensionOf } from "./file-name.ts";
import { sniffFileType } from "./sniff.ts";

/** Spec §5 and §9 (image upload): one file of .jpg .jpeg .png .svg .gif .bmp, at most 5,000,000 bytes. */
export const CHAT_IMAGE_MAX_BYTES = 5_000_000;
export const FILE_SIZE_TOO_LARGE = "File size too large";
export const INVALID_FILE = "Invalid file";

type ImageKind = "jpeg" | "png" | "gif" | "bmp" | "svg";

const IMAGE_TYPES: Readonly<Record<string, { kind: ImageKind; mimeType: string }>> = {
  jpg: { kind: "jpeg", mimeType: "image/jpeg" },
  jpeg: { kind: "jpeg", mimeType: "image/jpeg" },
  png: { kind: "png", mimeType: "image/png" },
  gif: { kind: "gif", mimeType: "image/gif" },
  bmp: { kind: "bmp", mimeType: "image/bmp" },
  svg: { kind: "svg", mimeType: "image/svg+xml" },
};

/** What the browser sent; `bytes` is read only after the size and name have passed. */
export interface IncomingImage {
  name: string;
  size: number;
  bytes(): Promise<Uint8Array>;
}

export interface ChatImage {
  bytes: Uint8Array;
  mimeType: string;
  /** A neutral name for the `blobs` row: the sender's own file name (often a date, a device or a person) is not kept. */
  fileName: string;
}

/** The DIB header sizes of the BMP versions browsers draw (core, info, v2/v3 info, OS/2 v2, v4, v5). */
const DIB_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** BMP has no metadata container (a v5 header's ICC profile holds colour data); its structure is checked so a renamed file is refused. */
function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || !startsWithBytes(bytes, ascii("BM"))) return false;
  const dibSize = u32le(bytes, 14);
  const pixelOffset = u32le(bytes, 10);
  return DIB_HEADER_SIZES.has(dibSize) && pixelOffset >= 14 + dibSize && pixelOffset < bytes.length;
}

async function cleaned(kind: ImageKind, original: Uint8Array, extension: string, lane: CleaningLane): Promise<Uint8Array | null> {
  if (kind === "bmp") return isBmp(original) ? original : null;
  // JPEG, PNG and GIF: the attachment sniffer decides, the attachment strippers remove EXIF, GPS, text chunks and comments.
  if (kind !== "svg" && sniffFileType(original, extension)?.kind !== kind) return null;
  return (await cleanedOrRefused({ kind, bytes: original }, lane, INVALID_FILE)).bytes;
}

/**
 * Checks a chat image and returns what may be stored: the content must be the type its
 * extension names (the browser's Content-Type is ignored) and is stripped of metadata first, so
 * the original bytes never reach the blob store. `lane`: the cleaning pool's, by who sends it.
 */
export async function prepareChatImage(file: IncomingImage, lane: CleaningLane): Promise<ChatImage> {
  if (file.size > CHAT_IMAGE_MAX_BYTES) throw badInput(FILE_SIZE_TOO_LARGE);
  const extension = extensionOf(cleanFileName(file.name));
  const type = Object.hasOwn(IMAGE_TYPES, extension) ? IMAGE_TYPES[extension]! : null;
  if (!type || file.size === 0) throw badInput(INVALID_FILE);
  const original = await file.bytes();
  if (original.length > CHAT_IMAGE_MAX_BYTES) throw badInput(FILE_SIZE_TOO_LARGE);
  const bytes = await cleaned(type.kind, original, extension, lane);
  if (!bytes || bytes.length === 0) throw badInput(INVALID_FILE);
  return { bytes, mimeType: type.mimeType, fileName: `chat-image.${type.kind === "jpeg" ? "jpg" : type.kind}` };
}

/** A web File (as Yoga's multipart parser hands it over) as an IncomingImage. */
export const incomingImage = (file: File): IncomingImage => ({ name: file.name, size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) });
