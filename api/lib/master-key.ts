import { createHmac, randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { decodeMasterKeyText, type MasterKeyConfig } from "../config.ts";
import { logInfo } from "./log.ts";

/**
 * The master key wraps the organisations' data keys (docs/decisions/049-encryption-at-rest.md). It
 * is never stored in the database; its id (a keyed digest that reveals nothing of it) is, beside
 * each data key it wrapped, so a server started with the wrong one can say so instead of reading
 * garbage.
 */

export interface MasterKey {
  id: string;
  key: Uint8Array;
}

export interface MasterKeys {
  current: MasterKey;
  /** The key being rotated away from: data keys it wrapped still open until `rotate-keys` rewraps them. */
  previous: MasterKey | null;
  /** Set when this start created the key file (the embedded default's first start). */
  generatedAt: string | null;
}

/** A master key that cannot be used: the message is the one line an operator sees. */
export class MasterKeyError extends Error {}

export function masterKeyId(key: Uint8Array): string {
  return createHmac("sha256", key).update("lantern master key id").digest("hex").slice(0, 16);
}

function masterKey(bytes: Uint8Array): MasterKey {
  return { id: masterKeyId(bytes), key: bytes };
}

async function readKeyFile(path: string, what: string): Promise<Uint8Array> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MasterKeyError(code === "ENOENT" ? `${what} ${path} does not exist` : `${what} ${path} cannot be read (${code ?? "unknown error"})`);
  }
  const bytes = decodeMasterKeyText(text);
  if (!bytes) throw new MasterKeyError(`${what} ${path} does not hold 32 bytes in base64`);
  return bytes;
}

/** Creates the key file only if there is none (two starts at once cannot both write one). */
async function generateKeyFile(path: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  let handle;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new MasterKeyError(`The master key file ${path} cannot be created (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
  try {
    await handle.writeFile(`${randomBytes(32).toString("base64")}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  // The process umask could have narrowed the mode further, never widened it; set it exactly anyway.
  await chmod(path, 0o600);
  return true;
}

export async function loadMasterKeys(config: MasterKeyConfig): Promise<MasterKeys> {
  const previous = config.previous ? masterKey(decodeMasterKeyText(config.previous)!) : null;
  const source = config.source;
  if (source.kind === "value") return { current: masterKey(decodeMasterKeyText(source.value)!), previous, generatedAt: null };
  if (source.kind === "file") return { current: masterKey(await readKeyFile(source.path, "MASTER_KEY_FILE")), previous, generatedAt: null };
  const created = await generateKeyFile(source.path);
  if (created) logInfo("Created the master key: back it up apart from the data directory, or the data cannot be read", { path: source.path });
  else {
    const mode = (await stat(source.path)).mode & 0o077;
    if (mode !== 0) logInfo("The master key file can be read by other users of this machine: chmod 600 it", { path: source.path });
  }
  return { current: masterKey(await readKeyFile(source.path, "The master key file")), previous, generatedAt: created ? source.path : null };
}

/** Removes a key file this start created, when it turned out not to belong to the database. */
export async function discardGeneratedKey(keys: MasterKeys): Promise<void> {
  if (keys.generatedAt) await rm(keys.generatedAt, { force: true });
}
