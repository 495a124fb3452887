import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { parseConfig } from "../../../api/config.ts";
import { createBlobStore, newBlobKey, type BlobStore } from "../../../api/lib/blob-store.ts";
import { createLocalBlobStore } from "../../../api/lib/blob-store-local.ts";
import { S3RVER_ACCESS_KEY, startS3Server, type TestS3Server } from "../../helpers/s3-server.ts";

let dataDir: string;
let s3: TestS3Server;
const stores: Partial<Record<"local" | "s3", BlobStore>> = {};

const s3Env = () => ({
  DATA_DIR: dataDir,
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_ACCESS_KEY_ID: S3RVER_ACCESS_KEY,
  S3_SECRET_ACCESS_KEY: S3RVER_ACCESS_KEY,
});

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "lantern-blobs-"));
  s3 = await startS3Server();
  stores.local = createBlobStore(parseConfig({ DATA_DIR: dataDir }).blobs);
  stores.s3 = createBlobStore(parseConfig(s3Env()).blobs);
});

afterAll(async () => {
  await s3?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Every file under a directory, relative to it. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
}

describe.each(["local", "s3"] as const)("%s blob store", (kind) => {
  const store = () => {
    const found = stores[kind];
    if (!found) throw new Error(`${kind} store was not created`);
    return found;
  };

  test("the configuration picks this kind", () => {
    expect(store().kind).toBe(kind);
  });

  test("binary data survives a put/get round trip byte for byte", async () => {
    const key = newBlobKey("attachments");
    const every = new Uint8Array(256).map((_, i) => i);
    await store().put(key, every, "application/octet-stream");
    expect(await store().get(key)).toEqual(every);
  });

  test("a 5 MB blob round-trips through get and through stream", async () => {
    const key = newBlobKey("attachments");
    const big = new Uint8Array(randomBytes(5 * 1024 * 1024));
    await store().put(key, big, "application/pdf");
    const got = await store().get(key);
    expect(got?.byteLength).toBe(big.byteLength);
    expect(sha256(got ?? new Uint8Array())).toBe(sha256(big));
    const stream = await store().stream(key);
    expect(stream).not.toBeNull();
    const streamed = await readAll(stream as ReadableStream<Uint8Array>);
    expect(streamed.byteLength).toBe(big.byteLength);
    expect(sha256(streamed)).toBe(sha256(big));
  });

  test("exists tells a stored key from a missing one", async () => {
    const key = newBlobKey("attachments");
    expect(await store().exists(key)).toBe(false);
    await store().put(key, new Uint8Array([1, 2, 3]), "application/octet-stream");
    expect(await store().exists(key)).toBe(true);
  });

  test("a missing key reads as null, by get and by stream", async () => {
    const key = newBlobKey("attachments");
    expect(await store().get(key)).toBeNull();
    expect(await store().stream(key)).toBeNull();
  });

  test("after delete the blob is gone, and deleting it again is fine", async () => {
    const key = newBlobKey("attachments");
    await store().put(key, new Uint8Array([9, 9, 9]), "application/octet-stream");
    await store().delete(key);
    expect(await store().exists(key)).toBe(false);
    expect(await store().get(key)).toBeNull();
    await expect(store().delete(key)).resolves.toBeUndefined();
  });

  test("a put over an existing key replaces the whole content", async () => {
    const key = newBlobKey("exports");
    await store().put(key, new TextEncoder().encode("the first, longer version"), "text/plain");
    await store().put(key, new TextEncoder().encode("second"), "text/plain");
    expect(new TextDecoder().decode((await store().get(key)) ?? new Uint8Array())).toBe("second");
  });

  test.each(["../escape", "/etc/passwd", "a/../../escape", "a//b", "a/", "Upper/case", "name.pdf", ""])(
    "rejects the key %p on every operation",
    async (key) => {
      const data = new Uint8Array([1]);
      await expect(store().put(key, data, "text/plain")).rejects.toThrow("Invalid blob key");
      await expect(store().get(key)).rejects.toThrow("Invalid blob key");
      await expect(store().stream(key)).rejects.toThrow("Invalid blob key");
      await expect(store().exists(key)).rejects.toThrow("Invalid blob key");
      await expect(store().delete(key)).rejects.toThrow("Invalid blob key");
    },
  );
});

describe("newBlobKey", () => {
  test("is random and carries only the purpose and the month", () => {
    const now = new Date();
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const a = newBlobKey("attachments");
    const b = newBlobKey("attachments");
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^attachments/${month}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$`));
  });

  test("refuses a purpose that is not a safe key", () => {
    expect(() => newBlobKey("../up")).toThrow("Invalid blob key");
  });
});

describe("local blob store on disk", () => {
  const blobsDir = () => join(dataDir, "blobs");

  test("keys that try to leave the directory write nothing anywhere", async () => {
    const before = await filesUnder(dataDir);
    const escapes = ["../escape", "../../escape", join(dataDir, "escape"), "blobs/../../escape"];
    // Through the factory, and straight into the local store in case the key check is ever bypassed.
    const stores = [createBlobStore(parseConfig({ DATA_DIR: dataDir }).blobs), createLocalBlobStore({ directory: blobsDir() })];
    for (const store of stores) {
      for (const key of escapes) {
        await expect(store.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow("Invalid blob key");
        await expect(store.get(key)).rejects.toThrow("Invalid blob key");
        await expect(store.delete(key)).rejects.toThrow("Invalid blob key");
      }
    }
    expect(await filesUnder(dataDir)).toEqual(before);
    expect(await Bun.file(join(dataDir, "escape")).exists()).toBe(false);
  });

  test("blobs are stored under their key, readable by the server's user only, with no temporary files left", async () => {
    const store = stores.local as BlobStore;
    const key = newBlobKey("submissions");
    const before = await filesUnder(blobsDir());
    // Concurrent writers of one key must each rename their own temporary file away.
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.put(key, new Uint8Array(1000).fill(i), "text/plain")));
    const after = await filesUnder(blobsDir());
    expect(after.filter((file) => !before.includes(file))).toEqual([key]);
    expect(after.filter((file) => file.includes("."))).toEqual([]);
    expect((await stat(join(blobsDir(), key))).mode & 0o777).toBe(0o600);
    const written = (await store.get(key)) ?? new Uint8Array();
    expect(written.byteLength).toBe(1000);
    expect(new Set(written).size).toBe(1);
  });

  test("a put that fails after writing leaves the old state and no temporary file", async () => {
    const store = stores.local as BlobStore;
    const parent = newBlobKey("submissions");
    await store.put(`${parent}/child`, new Uint8Array([1]), "text/plain");
    const before = await filesUnder(blobsDir());
    // The parent key is a directory here, so the final rename fails after the bytes were written.
    await expect(store.put(parent, new Uint8Array(4096), "text/plain")).rejects.toThrow();
    expect(await filesUnder(blobsDir())).toEqual(before);
    expect(await store.get(`${parent}/child`)).toEqual(new Uint8Array([1]));
  });
});

describe("S3 blob store objects", () => {
  test("carry the content type and no user metadata", async () => {
    const store = stores.s3 as BlobStore;
    const key = newBlobKey("attachments");
    await store.put(key, new TextEncoder().encode("evidence"), "image/png");
    const client = new S3Client({
      region: "us-east-1",
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_ACCESS_KEY, secretAccessKey: S3RVER_ACCESS_KEY },
    });
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    client.destroy();
    expect(head.ContentType).toBe("image/png");
    expect(head.ContentLength).toBe(8);
    expect(head.Metadata ?? {}).toEqual({});
    expect(head.ContentDisposition).toBeUndefined();
  });

  test("a missing bucket is an error, not a missing blob", async () => {
    const store = createBlobStore(parseConfig({ ...s3Env(), S3_BUCKET: "no-such-bucket" }).blobs);
    await expect(store.get(newBlobKey("attachments"))).rejects.toThrow();
    await expect(store.put(newBlobKey("attachments"), new Uint8Array([1]), "text/plain")).rejects.toThrow();
  });
});

describe("a missing bucket at start", () => {
  test("is created by prepare (as a fresh `docker compose up` needs), and files go in; preparing again changes nothing", async () => {
    const lenient = await startS3Server("another-bucket", { lenientSignatures: true });
    try {
      const store = createBlobStore(parseConfig({ ...s3Env(), S3_ENDPOINT: lenient.endpoint, S3_BUCKET: "fresh-bucket" }).blobs);
      await expect(store.put(newBlobKey("attachments"), new Uint8Array([1]), "text/plain")).rejects.toThrow();
      await store.prepare();
      const key = newBlobKey("attachments");
      await store.put(key, new Uint8Array([7]), "text/plain");
      await store.prepare();
      expect(await store.get(key)).toEqual(new Uint8Array([7]));
    } finally {
      await lenient.stop();
    }
  });

  test("credentials that may not create it leave a clear log line and no exception", async () => {
    const store = createBlobStore(parseConfig({ ...s3Env(), S3_BUCKET: "refused-bucket", S3_SECRET_ACCESS_KEY: "wrong-secret" }).blobs);
    await store.prepare();
    await expect(store.put(newBlobKey("attachments"), new Uint8Array([1]), "text/plain")).rejects.toThrow();
  });
});
