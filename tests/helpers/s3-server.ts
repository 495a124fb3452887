import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo, Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real S3-protocol server (s3rver, objects written to a temp directory) in the test process, so
 * the S3 blob store is exercised over HTTP with signed requests rather than against a mock.
 */

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The directory s3rver writes objects and their sidecar metadata files into. */
  directory: string;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server & { closeAllConnections?: () => void };
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver is CommonJS without type declarations; require keeps the one untyped edge in this file.
const S3rver = createRequire(import.meta.url)("@20minutes/s3rver") as S3rverConstructor;

/** s3rver's default credentials; it checks signatures against them. */
export const S3RVER_ACCESS_KEY = "S3RVER";

/**
 * `lenientSignatures`: s3rver checks a CreateBucket's signature against the path without the
 * trailing slash the SDK signs (S3 and MinIO accept it), so a test of bucket creation lets it pass.
 */
export async function startS3Server(bucket = "lantern-test", options: { lenientSignatures?: boolean } = {}): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), "lantern-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
    ...(options.lenientSignatures ? { allowMismatchedSignatures: true } : {}),
  });
  const address = await server.run();
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    directory,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Ends keep-alive connections the SDK still holds, even one mid-request, so stop() never waits on a client.
      server.httpServer?.closeAllConnections?.();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
