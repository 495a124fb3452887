import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";

/**
 * Reads a ZIP the way an unzip tool does (central directory first, then each local header) and
 * checks every file against its CRC with Bun's own CRC-32, not the writer's. No ZIP64, no
 * encryption: what api/modules/exports/zip.ts writes.
 */
export function readZip(archive: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = archive.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("no end of central directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder("utf-8", { fatal: true }).decode(archive.subarray(at + 46, at + 46 + nameLength));
    if (!(flags & 0x0800)) throw new Error("names are not flagged UTF-8");
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const stored = archive.subarray(start, start + compressed);
    const data = method === 8 ? new Uint8Array(inflateRawSync(stored)) : method === 0 ? stored : null;
    if (!data) throw new Error(`unknown method ${method}`);
    if (data.length !== size || (Bun.hash.crc32(data) >>> 0) !== crc) throw new Error(`corrupt ${name}`);
    files.set(name, data);
    at += 46 + nameLength + skip;
  }
  return files;
}

/** `unzip -t` and `unzip -Z1` on the archive, when the command exists (nothing is installed for it). */
export function unzipTool(archive: Uint8Array): { ok: boolean; names: string[] } | null {
  if (spawnSync("which", ["unzip"]).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), "lantern-zip-"));
  try {
    const file = join(dir, "archive.zip");
    writeFileSync(file, archive);
    const tested = spawnSync("unzip", ["-tq", file], { encoding: "utf8" });
    const listed = spawnSync("unzip", ["-Z1", file], { encoding: "utf8" });
    return { ok: tested.status === 0, names: listed.stdout.split("\n").filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 4180 parsing, to read back what the CSV export wrote. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += char;
  }
  if (cell !== "" || row.length > 0) throw new Error("the last line is not ended by CRLF");
  return rows;
}
