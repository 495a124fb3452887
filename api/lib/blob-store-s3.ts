import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import type { BlobStoreConfig } from "../config.ts";
import type { BlobStore } from "./blob-store.ts";
import { logError, logInfo } from "./log.ts";

/**
 * Blobs as objects in one S3 (or S3-compatible) bucket, so any number of instances share them.
 * Objects carry the bytes and a content type only: no user metadata, no original file name, no
 * ACL (the bucket's own policy decides; a per-object ACL could only make a file more public).
 */

type S3Config = Extract<BlobStoreConfig, { kind: "s3" }>;

/** S3 answers a missing key with NoSuchKey on GET and a bodiless 404 ("NotFound") on HEAD. */
function isMissing(error: unknown): boolean {
  const name = error instanceof Error ? error.name : undefined;
  return name === "NoSuchKey" || name === "NotFound";
}

export function createS3BlobStore(config: S3Config): BlobStore {
  const clientConfig: S3ClientConfig = { region: config.region, forcePathStyle: config.forcePathStyle };
  if (config.endpoint) clientConfig.endpoint = config.endpoint;
  // Without explicit keys the SDK's default chain applies (instance role, web identity, env).
  if (config.accessKeyId && config.secretAccessKey) {
    clientConfig.credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey };
  }
  const client = new S3Client(clientConfig);
  const Bucket = config.bucket;

  const getObject = async (key: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    kind: "s3",

    async put(key, data, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.byteLength }));
    },

    async get(key) {
      const object = await getObject(key);
      if (!object?.Body) return null;
      return object.Body.transformToByteArray();
    },

    async stream(key) {
      const object = await getObject(key);
      if (!object?.Body) return null;
      return object.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      // S3 answers 204 for a key that is already gone, so no special case is needed.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async prepare() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return;
      } catch {
        // A missing bucket's HEAD is a bodiless 404 on S3 and a 403 on some S3-protocol servers: creating it tells.
      }
      try {
        // Outside us-east-1, S3 wants the region named again; S3-protocol stores ignore it.
        const location = config.region && config.region !== "us-east-1" ? { CreateBucketConfiguration: { LocationConstraint: config.region as never } } : {};
        await client.send(new CreateBucketCommand({ Bucket, ...location }));
        logInfo("Created the S3 bucket, which did not exist", { bucket: Bucket });
      } catch (error) {
        // Another instance starting at the same moment may have created it first.
        const name = error instanceof Error ? error.name : undefined;
        if (name === "BucketAlreadyOwnedByYou") return;
        logError("The S3 bucket does not exist and could not be created: create it, or give these credentials the right to", error, { bucket: Bucket });
      }
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}
