import type { BlobStoreConfig } from "../config.ts";
import { createLocalBlobStore } from "./blob-store-local.ts";

/**
 * Where uploaded files live: a local directory in the embedded mode, S3 when several instances
 * share the files. Keys are generated here (newBlobKey) and never derived from anything a reporter
 * sent, so neither a key nor anything stored beside the bytes can say who uploaded what.
 */
export interface BlobStore {
  kind: "local" | "s3";
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Null when the key does not exist. */
  get(key: string): Promise<Uint8Array | null>;
  /** For downloads, so a large file is never held whole in memory; null when missing. */
  stream(key: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Deleting a missing key is not an error: deletes are retried and must be idempotent. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * Makes the store able to take files before the first one comes: S3 creates a missing bucket when
   * its credentials may (a fresh `docker compose up` has none). Never throws: a store it cannot
   * prepare is logged in one line, and uploads then fail as they would have.
   */
  prepare(): Promise<void>;
}

const SEGMENT = "[a-z0-9_-]+";
const KEY_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
const MAX_KEY_LENGTH = 512;

/**
 * Only lower-case letters, digits, `_`, `-` and single `/` between segments: no dots (so no `..`),
 * no leading `/`, no empty segment. Such a key is a safe relative path on every file system and
 * needs no escaping in S3.
 */
export function isValidBlobKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key);
}

export function assertValidBlobKey(key: string): void {
  // The key itself is not echoed: a caller bug should not turn into a log line carrying input.
  if (!isValidBlobKey(key)) throw new Error("Invalid blob key: only [a-z0-9/_-] segments are allowed");
}

/**
 * A fresh random key such as `attachments/2025/03/0b6f…`. The month is kept for housekeeping
 * (listing and expiring by prefix); nothing about the uploader, the file name or the exact time is.
 */
export function newBlobKey(purpose: string): string {
  assertValidBlobKey(purpose);
  const now = new Date();
  const year = String(now.getUTCFullYear());
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  return `${purpose}/${year}/${month}/${crypto.randomUUID()}`;
}

/** Every operation checks its key first, whichever backend sits behind it. */
function withKeyCheck(store: BlobStore): BlobStore {
  return {
    kind: store.kind,
    async put(key, data, contentType) {
      assertValidBlobKey(key);
      await store.put(key, data, contentType);
    },
    async get(key) {
      assertValidBlobKey(key);
      return store.get(key);
    },
    async stream(key) {
      assertValidBlobKey(key);
      return store.stream(key);
    },
    async delete(key) {
      assertValidBlobKey(key);
      await store.delete(key);
    },
    async exists(key) {
      assertValidBlobKey(key);
      return store.exists(key);
    },
    prepare: () => store.prepare(),
  };
}

export function createBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.kind === "local") return withKeyCheck(createLocalBlobStore(config));
  // The S3 client is a sixth of a second of start-up CPU (decision 023): it loads on first use.
  let loading: Promise<BlobStore> | null = null;
  const s3 = () => (loading ??= import("./blob-store-s3.ts").then((module) => module.createS3BlobStore(config)));
  return withKeyCheck({
    kind: "s3",
    put: async (key, data, contentType) => (await s3()).put(key, data, contentType),
    get: async (key) => (await s3()).get(key),
    stream: async (key) => (await s3()).stream(key),
    delete: async (key) => (await s3()).delete(key),
    exists: async (key) => (await s3()).exists(key),
    prepare: async () => (await s3()).prepare(),
  });
}
