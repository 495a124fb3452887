import { createHash } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { MANIFEST_CHECKSUM_ENTRY, MANIFEST_ENTRY, MAX_ENTRY_BYTES, parseManifest, type BackupManifest } from "./manifest.ts";
import { ArchiveError, readTar, type TarEntry } from "./tar.ts";

/** An archive file is gzip-compressed when its name says so (.gz, .tgz); reading finds out by itself. */
export function wantsGzip(path: string): boolean {
  return /\.(gz|tgz)$/i.test(path);
}

/** Writes a tar stream to `path`, through gzip if the name asks for it; a failed write leaves no file. */
export async function saveArchive(tar: ReadableStream<Uint8Array>, path: string): Promise<number> {
  const partial = `${path}.partial`;
  const source = wantsGzip(path) ? tar.pipeThrough(new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>) : tar;
  // A partial file left by an interrupted backup is this command's to replace.
  const file = await open(partial, "w", 0o600);
  let bytes = 0;
  try {
    for await (const chunk of source) {
      await file.write(chunk);
      bytes += chunk.length;
    }
    await file.sync();
    await file.close();
    await rename(partial, path);
    return bytes;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

async function archiveStream(path: string): Promise<ReadableStream<Uint8Array>> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new ArchiveError(`The archive ${path} does not exist`);
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const raw = file.stream() as ReadableStream<Uint8Array>;
  return head[0] === 0x1f && head[1] === 0x8b ? raw.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>) : raw;
}

/** The archive's entries in order; a damaged compression layer is reported as a damaged archive. */
export async function* archiveEntries(path: string): AsyncGenerator<TarEntry> {
  try {
    yield* readTar(await archiveStream(path), MAX_ENTRY_BYTES);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`The archive is damaged or truncated (${error instanceof Error ? error.message : String(error)})`);
  }
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Reads the whole archive once and checks it against its manifest: every entry present, in order,
 * with the size and sha256 the manifest names, and the manifest against its own checksum. Nothing
 * is written before this has passed.
 */
export async function verifyArchive(path: string): Promise<BackupManifest> {
  const seen: { name: string; bytes: number; sha256: string }[] = [];
  let manifestBytes: Uint8Array | null = null;
  let manifestChecksum: string | null = null;
  for await (const entry of archiveEntries(path)) {
    if (manifestChecksum !== null) throw new ArchiveError("The archive is damaged: it has entries after its manifest");
    if (entry.name === MANIFEST_ENTRY) manifestBytes = entry.data.slice();
    else if (entry.name === MANIFEST_CHECKSUM_ENTRY) manifestChecksum = new TextDecoder().decode(entry.data).trim();
    else if (manifestBytes !== null) throw new ArchiveError("The archive is damaged: it has entries after its manifest");
    else seen.push({ name: entry.name, bytes: entry.data.length, sha256: sha256(entry.data) });
  }
  if (manifestBytes === null || manifestChecksum === null) throw new ArchiveError("The archive is truncated or not a Lantern backup: it has no manifest");
  if (sha256(manifestBytes) !== manifestChecksum) throw new ArchiveError("The archive is damaged: its manifest does not match its checksum");
  const manifest = parseManifest(new TextDecoder().decode(manifestBytes));
  if (!manifest) throw new ArchiveError("The archive's manifest is not one this version of Lantern can read");
  if (manifest.entries.length !== seen.length) throw new ArchiveError(`The archive is damaged: its manifest names ${manifest.entries.length} entries, the archive holds ${seen.length}`);
  manifest.entries.forEach((expected, index) => {
    const actual = seen[index]!;
    if (actual.name !== expected.name || actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) {
      throw new ArchiveError(`The archive is damaged: entry ${expected.name} does not match its checksum`);
    }
  });
  const bySha = new Map(manifest.entries.map((entry) => [entry.name, entry.sha256]));
  for (const blob of manifest.blobs) {
    if (bySha.get(blob.entry) !== blob.sha256) throw new ArchiveError(`The archive is damaged: file ${blob.entry} does not match its checksum`);
  }
  return manifest;
}
