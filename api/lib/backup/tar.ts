/**
 * The archive's container: a plain ustar stream, written and read a whole entry at a time. Entry
 * names are made by the backup itself (never a blob key or anything stored), so they always fit the
 * 100-byte name field. Reading is strict: a short entry, a bad header checksum or a missing end
 * is an ArchiveError, so a truncated or damaged file is never taken for a complete one.
 */

const BLOCK = 512;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ArchiveError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function header(name: string, size: number): Uint8Array {
  const bytes = new Uint8Array(BLOCK);
  const nameBytes = encoder.encode(name);
  if (nameBytes.length > 100) throw new Error("A tar entry name is longer than 100 bytes");
  bytes.set(nameBytes, 0);
  bytes.set(encoder.encode(octal(0o600, 8)), 100);
  bytes.set(encoder.encode(octal(0, 8)), 108);
  bytes.set(encoder.encode(octal(0, 8)), 116);
  bytes.set(encoder.encode(octal(size, 12)), 124);
  bytes.set(encoder.encode(octal(0, 12)), 136);
  bytes.set(encoder.encode("        "), 148);
  bytes[156] = "0".charCodeAt(0);
  bytes.set(encoder.encode("ustar\0" + "00"), 257);
  let sum = 0;
  for (const byte of bytes) sum += byte;
  bytes.set(encoder.encode(octal(sum, 7) + " "), 148);
  return bytes;
}

/** Writes entries to `write`, which is awaited (backpressure reaches the producer). */
export class TarWriter {
  constructor(private readonly write: (chunk: Uint8Array) => Promise<void>) {}

  async entry(name: string, data: Uint8Array): Promise<void> {
    await this.write(header(name, data.length));
    if (data.length > 0) await this.write(data);
    const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (padding > 0) await this.write(new Uint8Array(padding));
  }

  async end(): Promise<void> {
    await this.write(new Uint8Array(BLOCK * 2));
  }
}

/** Reads exactly the bytes asked for from a stream, or null at a clean end. */
class ExactReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private done = false;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async read(length: number): Promise<Uint8Array | null> {
    while (this.buffered < length && !this.done) {
      const { value, done } = await this.reader.read();
      if (done) this.done = true;
      else if (value.length > 0) {
        this.chunks.push(value);
        this.buffered += value.length;
      }
    }
    if (this.buffered === 0 && this.done) return null;
    if (this.buffered < length) throw new ArchiveError("The archive is truncated");
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const first = this.chunks[0]!;
      const take = Math.min(first.length, length - filled);
      out.set(first.subarray(0, take), filled);
      filled += take;
      if (take === first.length) this.chunks.shift();
      else this.chunks[0] = first.subarray(take);
    }
    this.buffered -= length;
    return out;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

function field(bytes: Uint8Array, offset: number, length: number): string {
  const slice = bytes.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return decoder.decode(end === -1 ? slice : slice.subarray(0, end));
}

function checksumFits(block: Uint8Array): boolean {
  const stored = parseInt(field(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return stored === sum;
}

export interface TarEntry {
  name: string;
  data: Uint8Array;
}

/** Entries one by one; throws ArchiveError on anything but a complete, well-formed archive. */
export async function* readTar(stream: ReadableStream<Uint8Array>, maxEntryBytes: number): AsyncGenerator<TarEntry> {
  const input = new ExactReader(stream.getReader());
  try {
    for (;;) {
      const block = await input.read(BLOCK);
      if (block === null) throw new ArchiveError("The archive is truncated: it has no end");
      if (block.every((byte) => byte === 0)) {
        const second = await input.read(BLOCK);
        if (second === null || !second.every((byte) => byte === 0)) throw new ArchiveError("The archive is truncated: its end is incomplete");
        return;
      }
      if (!checksumFits(block)) throw new ArchiveError("The archive is damaged: an entry header does not match its checksum");
      const name = field(block, 0, 100);
      const size = parseInt(field(block, 124, 12).trim(), 8);
      if (!Number.isSafeInteger(size) || size < 0 || size > maxEntryBytes) throw new ArchiveError("The archive is damaged: an entry has an impossible size");
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      const body = padded === 0 ? new Uint8Array(0) : await input.read(padded);
      if (body === null) throw new ArchiveError("The archive is truncated");
      yield { name, data: body.subarray(0, size) };
    }
  } finally {
    await input.cancel();
  }
}
