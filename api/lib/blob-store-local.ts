import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, resolve, sep } from "node:path";
import type { BlobStore } from "./blob-store.ts";

/**
 * Blobs as files under one directory (the embedded mode). Files are readable by the server's user
 * only, and every write goes through a temporary file and a rename so a crash can leave a stray
 * `.tmp` file but never a truncated blob under its real name.
 */

const READ_CHUNK_BYTES = 64 * 1024;

/** Errors that mean "nothing stored under this key" rather than a broken disk. */
const MISSING_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR"]);

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && MISSING_CODES.has(String((error as { code?: unknown }).code));
}

export function createLocalBlobStore(config: { directory: string }): BlobStore {
  const root = resolve(config.directory);

  // Keys are validated before they reach here; this second check holds even if that one is bypassed.
  const pathOf = (key: string): string => {
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error("Invalid blob key: resolves outside the blob directory");
    return path;
  };

  return {
    kind: "local",
    // Directories are made as files are written.
    async prepare() {},

    // The content type is not kept: the database row that names the blob records it.
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // A dot never appears in a valid key, so a temporary name can never collide with a blob.
      const temporary = `${dirname(path)}${sep}.${basename(path)}.${randomBytes(8).toString("hex")}.tmp`;
      let handle: FileHandle | undefined;
      try {
        handle = await open(temporary, "wx", 0o600);
        await handle.writeFile(data);
        await handle.sync();
        await handle.close();
        handle = undefined;
        await rename(temporary, path);
      } catch (error) {
        await handle?.close().catch(() => undefined);
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
    },

    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async stream(key) {
      let handle: FileHandle;
      try {
        handle = await open(pathOf(key), "r");
        if (!(await handle.stat()).isFile()) {
          await handle.close();
          return null;
        }
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // The open handle keeps reading the file it opened even if a concurrent put renames a new one over it.
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const buffer = new Uint8Array(READ_CHUNK_BYTES);
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
            if (bytesRead === 0) {
              await handle.close();
              controller.close();
              return;
            }
            controller.enqueue(buffer.subarray(0, bytesRead));
          } catch (error) {
            await handle.close().catch(() => undefined);
            controller.error(error);
          }
        },
        async cancel() {
          await handle.close();
        },
      });
    },

    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },

    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}
