/** Small byte helpers shared by the metadata strippers. */

/** The file claims a format but its structure cannot be followed; nothing of it is stored. */
export class UnreadableFileError extends Error {
  constructor() {
    super("The file could not be read. It may be damaged.");
    this.name = "UnreadableFileError";
  }
}

export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0));

export const asciiAt = (bytes: Uint8Array, at: number, length: number): string => String.fromCharCode(...bytes.subarray(at, at + length));

export function startsWithBytes(bytes: Uint8Array, prefix: Uint8Array | readonly number[], offset = 0): boolean {
  if (offset < 0 || bytes.length < offset + prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (bytes[offset + i] !== prefix[i]) return false;
  return true;
}

export const u16be = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
export const u32be = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
export const u16le = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
export const u32le = (b: Uint8Array, at: number): number => (u16le(b, at) | (u16le(b, at + 2) << 16)) >>> 0;

/** Collects the kept pieces of a file and joins them once at the end. */
export class ByteList {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  push(part: Uint8Array | readonly number[]): void {
    const bytes = part instanceof Uint8Array ? part : Uint8Array.from(part);
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  join(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}
