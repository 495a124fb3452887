import { constants, crc32, deflateRawSync } from "node:zlib";
import { PdfBuilder } from "./clean-fixtures.ts";

/**
 * The outside tester's probes (issue 29, item 1), built without ever holding what they inflate to:
 * the deflated form of N MiB of zeros is one small block repeated, so a file that inflates to
 * gigabytes costs the test a few megabytes.
 */

const MiB = 1024 * 1024;
/** 1 MiB of zeros as non-final deflate blocks (a sync flush ends them on a byte), to be repeated. */
const ZEROS_MIB = deflateRawSync(new Uint8Array(MiB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
/** The final block: fixed Huffman, no data. */
const FINAL_BLOCK = Uint8Array.from([0x03, 0x00]);

/** A raw deflate stream of `mebibytes` MiB of zeros, and the CRC-32 of that content. */
function deflatedZeros(mebibytes: number): { data: Uint8Array; crc: number; size: number } {
  const data = Buffer.concat([...Array.from({ length: mebibytes }, () => ZEROS_MIB), FINAL_BLOCK]);
  let crc = 0;
  const zeros = new Uint8Array(MiB);
  for (let i = 0; i < mebibytes; i += 1) crc = crc32(zeros, crc);
  return { data, crc, size: mebibytes * MiB };
}

/** The same stream with a zlib header and the Adler-32 of the zeros (a = 1, b = n mod 65521), as PDF's FlateDecode has it. */
function zlibZeros(mebibytes: number): Uint8Array {
  const { data, size } = deflatedZeros(mebibytes);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Uint8Array.from([0x78, 0xda]), data, adler]);
}

interface RawEntry {
  name: string;
  method: 0 | 8;
  data: Uint8Array;
  crc: number;
  size: number;
}

const stored = (name: string, content: string | Uint8Array): RawEntry => {
  const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { name, method: 0, data, crc: crc32(data), size: data.length };
};

/** A ZIP of entries given as they are to be stored (PKWARE APPNOTE 4.3): enough for an Office package. */
function zip(entries: RawEntry[]): Uint8Array<ArrayBuffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const header = (signature: number, size: number) => {
      const out = Buffer.alloc(size);
      out.writeUInt32LE(signature, 0);
      return out;
    };
    const local = header(0x04034b50, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = header(0x02014b50, 46);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data));
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
const DOCUMENT = '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>';
const docx = (parts: RawEntry[]) => zip([stored("[Content_Types].xml", CONTENT_TYPES), stored("word/document.xml", DOCUMENT), ...parts]);

/** The tester's file: a valid DOCX of about 1 MB holding ten pictures of 95 MiB of zeros each. */
export function officeBomb(): Uint8Array<ArrayBuffer> {
  const zeros = deflatedZeros(95);
  return docx(Array.from({ length: 10 }, (_, i) => ({ name: `word/media/image${i + 1}.png`, method: 8 as const, ...zeros })));
}

/**
 * Embedded documents inside embedded documents: five copies at each of two levels, each innermost
 * one a picture of 40 MiB of zeros (each part alone within any per-part bound; a gigabyte in all).
 */
export function nestedOfficeBomb(): Uint8Array<ArrayBuffer> {
  const inner = docx([{ name: "word/media/image1.png", method: 8, ...deflatedZeros(40) }]);
  const embed = (document: Uint8Array) => Array.from({ length: 5 }, (_, i) => stored(`word/embeddings/Document${i + 1}.docx`, document));
  return docx(embed(docx(embed(inner))));
}

/** A PNG that declares 50,000 × 50,000 pixels; its one IDAT is a little of a stream that would inflate to 10 GB. */
export function hugePng(): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", zlibZeros(64)), chunk("IEND", new Uint8Array(0))]));
}

/** A PDF whose page content and object stream each inflate to 2 GiB of zeros. */
export function pdfBomb(): Uint8Array<ArrayBuffer> {
  return new PdfBuilder("1.5")
    .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
    .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    .object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>")
    .stream(4, "/Filter /FlateDecode", zlibZeros(2048))
    .stream(5, "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", zlibZeros(2048))
    .revision("/Root 1 0 R /Info 9 0 R")
    .bytes();
}

/**
 * A DOCX within the upload's budgets whose one Word part is nearly 8 MB of empty paragraphs: the
 * most tokens per byte, so the longest a cleaning within the budget of bytes can take (seconds).
 */
export function slowOfficeFile(): Uint8Array<ArrayBuffer> {
  const paragraphs = "<w:p/>".repeat(1_320_000);
  const xml = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`;
  const content = new TextEncoder().encode(xml);
  return zip([stored("[Content_Types].xml", CONTENT_TYPES), { name: "word/document.xml", method: 8, data: deflateRawSync(content), crc: crc32(content), size: content.length }]);
}
