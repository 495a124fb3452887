import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Authenticated encryption of one value (AES-256-GCM, a fresh 96-bit nonce each time), the one
 * primitive behind encryption at rest (docs/decisions/049-encryption-at-rest.md). A value is
 * bound to what it is (its "context": organisation and purpose) through the additional data, so a
 * sealed answer copied into a note, or into another organisation's row, does not open.
 */

export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A value that did not open: another key, another context, or bytes changed since sealing. */
export class UnsealError extends Error {}

/** nonce ‖ ciphertext ‖ tag. */
export function sealBytes(key: Uint8Array, plaintext: Uint8Array, context: string): Uint8Array {
  if (key.length !== KEY_BYTES) throw new Error("A sealing key is 32 bytes");
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = cipher.update(plaintext);
  const tail = cipher.final();
  const tag = cipher.getAuthTag();
  const sealed = new Uint8Array(NONCE_BYTES + body.length + tail.length + TAG_BYTES);
  sealed.set(nonce, 0);
  sealed.set(body, NONCE_BYTES);
  sealed.set(tail, NONCE_BYTES + body.length);
  sealed.set(tag, sealed.length - TAG_BYTES);
  return sealed;
}

export function openBytes(key: Uint8Array, sealed: Uint8Array, context: string): Uint8Array {
  if (key.length !== KEY_BYTES) throw new Error("A sealing key is 32 bytes");
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new UnsealError("The sealed value is too short");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    const body = decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES));
    const tail = decipher.final();
    return tail.length === 0 ? new Uint8Array(body) : new Uint8Array(Buffer.concat([body, tail]));
  } catch {
    throw new UnsealError("The sealed value does not open with this key");
  }
}

/** Bytes the sealing adds to a value. */
export const SEAL_OVERHEAD = NONCE_BYTES + TAG_BYTES;
