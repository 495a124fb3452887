import { existsSync } from "node:fs";
import { chmod, rm } from "node:fs/promises";
import { join } from "node:path";
import type { DatabaseHandle } from "../../../db/client.ts";
import type { BlobStore } from "../blob-store.ts";
import { logInfo } from "../log.ts";
import { backupStream } from "./create.ts";

/**
 * The embedded database belongs to the running server: no second process may open its directory.
 * So the server answers backups itself, on a unix socket in DATA_DIR that only the owner of the
 * data can reach (mode 600, created under a umask that never lets anyone else in, even for an
 * instant). The CLI asks it for the archive and writes it to the file the operator named.
 */

const SOCKET_NAME = "backup.sock";
/** sockaddr_un holds about 107 bytes; a longer DATA_DIR cannot have the socket (then stop the server to back up). */
const MAX_SOCKET_PATH = 100;

export function backupSocketPath(dataDir: string): string {
  return join(dataDir, SOCKET_NAME);
}

export async function serveBackupSocket(dataDir: string, database: DatabaseHandle, blobs: BlobStore): Promise<() => Promise<void>> {
  const path = backupSocketPath(dataDir);
  if (path.length > MAX_SOCKET_PATH) {
    logInfo("DATA_DIR is too long a path for the backup socket: stop the server to back up", { path });
    return async () => {};
  }
  // A socket left by a server that did not stop cleanly; two servers on one DATA_DIR are never safe anyway.
  await rm(path, { force: true });
  const previous = process.umask(0o177);
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      unix: path,
      fetch(request) {
        if (request.method !== "GET" || new URL(request.url).pathname !== "/backup") return new Response("Not found", { status: 404 });
        return new Response(backupStream(database, blobs), { headers: { "content-type": "application/x-tar" } });
      },
    });
  } finally {
    process.umask(previous);
  }
  await chmod(path, 0o600);
  return async () => {
    await server.stop(true);
    await rm(path, { force: true });
  };
}

/** The archive from the server on DATA_DIR, or null when no server answers there. */
export async function requestBackupFromServer(dataDir: string): Promise<ReadableStream<Uint8Array> | null> {
  const path = backupSocketPath(dataDir);
  if (!existsSync(path)) return null;
  let response: Response;
  try {
    response = await fetch("http://lantern/backup", { unix: path });
  } catch {
    // A socket file no server listens on: the server is gone and the directory is free.
    return null;
  }
  if (response.status !== 200 || !response.body) throw new Error(`The running server refused the backup (status ${response.status})`);
  return response.body;
}

/** Whether a server answers on DATA_DIR's backup socket (one request that starts nothing). */
export async function serverAnswersOn(dataDir: string): Promise<boolean> {
  const path = backupSocketPath(dataDir);
  if (!existsSync(path)) return false;
  try {
    await (await fetch("http://lantern/", { unix: path })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}
