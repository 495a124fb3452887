import { badInput } from "../../lib/errors.ts";
import { FILE_SIZE_TOO_LARGE, INVALID_FILE, type IncomingImage } from "./chat-image.ts";
import { cleanedOrRefused } from "./checked-upload.ts";
import { cleanFileName, extensionOf } from "./file-name.ts";
import { sniffFileType } from "./sniff.ts";

/**
 * Spec §5 and §9: an avatar, like a logo, is a jpg or png of at most 10,000,000 bytes; the console's
 * host lets a GraphQL multipart request carry that much (docs/decisions/010-profile-and-password.md).
 */
export const AVATAR_MAX_BYTES = 10_000_000;

const AVATAR_TYPES: Readonly<Record<string, { kind: "jpeg" | "png"; mimeType: string }>> = {
  jpg: { kind: "jpeg", mimeType: "image/jpeg" },
  jpeg: { kind: "jpeg", mimeType: "image/jpeg" },
  png: { kind: "png", mimeType: "image/png" },
};

export interface AvatarImage {
  bytes: Uint8Array;
  mimeType: string;
  /** A neutral name: the uploader's own file name is not kept. */
  fileName: string;
}

/**
 * Checks an avatar and returns what may be stored: the content must be the type its extension
 * names (the browser's Content-Type is ignored), and EXIF (GPS, device) and text chunks are
 * stripped before anything reaches the blob store.
 */
export async function prepareAvatarImage(file: IncomingImage, options: { maxBytes?: number; baseName?: string } = {}): Promise<AvatarImage> {
  // An organisation's logo is checked the same way, with its own limit and name (organisations/administration.ts).
  const { maxBytes = AVATAR_MAX_BYTES, baseName = "avatar" } = options;
  if (file.size > maxBytes) throw badInput(FILE_SIZE_TOO_LARGE);
  const extension = extensionOf(cleanFileName(file.name));
  const type = Object.hasOwn(AVATAR_TYPES, extension) ? AVATAR_TYPES[extension]! : null;
  if (!type || file.size === 0) throw badInput(INVALID_FILE);
  const original = await file.bytes();
  if (original.length > maxBytes) throw badInput(FILE_SIZE_TOO_LARGE);
  if (sniffFileType(original, extension)?.kind !== type.kind) throw badInput(INVALID_FILE);
  // Staff upload avatars and logos, signed in: the pool's trusted lane.
  const { bytes } = await cleanedOrRefused({ kind: type.kind, bytes: original }, "trusted", INVALID_FILE);
  if (bytes.length === 0) throw badInput(INVALID_FILE);
  return { bytes, mimeType: type.mimeType, fileName: `${baseName}.${type.kind === "jpeg" ? "jpg" : "png"}` };
}
