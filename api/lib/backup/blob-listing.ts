import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { BlobStoreConfig } from "../../config.ts";

/**
 * The first stored key that `allowed` does not contain, or null: restore writes only into a blob
 * store that is empty, or holds nothing but the archive's own files (left by an earlier attempt).
 * Names starting with a dot are the local store's temporary files, never blobs.
 */
export async function firstForeignBlobKey(config: BlobStoreConfig, allowed: Set<string>): Promise<string | null> {
  if (config.kind === "local") return firstForeignLocal(config.directory, config.directory, allowed);
  return firstForeignS3(config, allowed);
}

async function firstForeignLocal(root: string, directory: string, allowed: Set<string>): Promise<string | null> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      const found = await firstForeignLocal(root, path, allowed);
      if (found) return found;
    } else {
      const key = relative(root, path).split(sep).join("/");
      if (!allowed.has(key)) return key;
    }
  }
  return null;
}

async function firstForeignS3(config: Extract<BlobStoreConfig, { kind: "s3" }>, allowed: Set<string>): Promise<string | null> {
  const { ListObjectsCommand, S3Client } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
  });
  // Path-style listing is sent as `/bucket/`; some S3-compatible servers sign `/bucket` instead and
  // refuse the request. Both name the same bucket on S3 itself, so the shorter form is sent.
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path?: string };
      if (request.path && request.path.length > 1 && request.path.endsWith("/")) request.path = request.path.slice(0, -1);
      return next(args);
    },
    { step: "build", name: "lanternBucketPathWithoutSlash" },
  );
  try {
    // The first version of listing: S3-compatible servers implement it most faithfully.
    let marker: string | undefined;
    for (;;) {
      const page = await client.send(new ListObjectsCommand({ Bucket: config.bucket, ...(marker ? { Marker: marker } : {}) }));
      const contents = page.Contents ?? [];
      for (const object of contents) if (object.Key && !allowed.has(object.Key)) return object.Key;
      if (!page.IsTruncated || contents.length === 0) return null;
      marker = contents.at(-1)!.Key;
    }
  } finally {
    client.destroy();
  }
}
