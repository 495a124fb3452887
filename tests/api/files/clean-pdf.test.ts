import { describe, expect, test } from "bun:test";
import { deflateSync, inflateSync } from "node:zlib";
import { OverBudgetError } from "../../../api/modules/files/cleaning-budget.ts";
import { stripMetadata } from "../../../api/modules/files/strip-metadata.ts";
import { containsText } from "../../fixtures/files.ts";
import { CANARY, PdfBuilder, pdfWithCanary, pdfWithInfoInObjectStream, pdfWithPieceInfo, pdfWithPieceInfoInObjectStream, xrefEntriesHold } from "./clean-fixtures.ts";

const clean = (pdf: Uint8Array) => stripMetadata("pdf", pdf);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** The data of every stream whose dictionary matches `marker`, inflated when it is compressed. */
function streams(pdf: Uint8Array, marker: RegExp): string[] {
  return [...text(pdf).matchAll(/<<([^\n]*)\/Length (\d+) >>\nstream\n/g)]
    .filter((match) => marker.test(match[1]!))
    .map((match) => {
      const data = pdf.subarray(match.index + match[0].length, match.index + match[0].length + Number(match[2]));
      return match[1]!.includes("/FlateDecode") ? text(inflateSync(data)) : text(data);
    });
}

describe("a PDF with an author loses it", () => {
  test("every Info dictionary of every revision is blanked in place; the xref still points at every object", () => {
    const original = pdfWithCanary();
    expect(containsText(original, CANARY)).toBe(true);
    const { bytes, metadataRemoved } = clean(original);
    expect(metadataRemoved).toBe(true);
    expect(containsText(bytes, CANARY)).toBe(false);
    expect(containsText(bytes, "Canary")).toBe(false);
    // Nothing moved, so the cross-reference tables of both revisions still hold.
    expect(bytes.length).toBe(original.length);
    expect(xrefEntriesHold(bytes)).toBe(true);
    // The strings are blanked, not removed; the page's own text is content, and stays.
    expect(text(bytes)).toContain("<< /Author (              ) /Creator (");
    expect(text(bytes)).toContain(`/Title <${"20".repeat(CANARY.length)}>`);
    expect(text(bytes)).toContain("(The evidence) Tj");
    // Only the metadata objects changed (the XMP streams 4 and 8, the Info objects 5, 6 and 9): the page, its content and the xref are as they were.
    const at = (marker: string, from = 0) => text(original).indexOf(marker, from);
    const metadata = [[at("4 0 obj"), at("7 0 obj")], [at("8 0 obj"), at("xref")], [at("9 0 obj"), at("xref", at("9 0 obj"))]] as const;
    const changed = [...bytes.keys()].filter((i) => bytes[i] !== original[i]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((i) => !metadata.some(([from, to]) => i > from && i < to))).toEqual([]);
  });

  test("XMP streams become empty packets of the same length, compressed ones too", () => {
    const { bytes } = clean(pdfWithCanary());
    const packets = streams(bytes, /\/Type \/Metadata/);
    expect(packets).toHaveLength(2);
    for (const packet of packets) {
      expect(packet).toStartWith('<?xpacket begin="');
      expect(packet).toContain('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>');
      expect(packet.trimEnd()).toEndWith('<?xpacket end="w"?>');
      expect(packet).not.toContain(CANARY);
    }
  });

  test("an Info dictionary in a compressed object stream is blanked there; the stream's other objects stay", () => {
    const original = pdfWithInfoInObjectStream();
    const { bytes, metadataRemoved } = clean(original);
    expect(metadataRemoved).toBe(true);
    expect(bytes.length).toBe(original.length);
    const [objects] = streams(bytes, /\/ObjStm/);
    expect(objects).not.toContain(CANARY);
    expect(objects).toContain("/Author (              ) /Producer (      )");
    expect(objects).toContain("<< /Type /Pages /Kids [] /Count 0 >>");
    expect(xrefEntriesHold(bytes)).toBe(true);
  });

  test("a PDF without metadata is stored as it is, and counts as cleaned", () => {
    const plain = new PdfBuilder().object(1, "<< /Type /Catalog >>").revision("/Root 1 0 R").bytes();
    expect(clean(plain)).toEqual({ bytes: plain, metadataRemoved: true });
  });
});

describe("page pieces (/PieceInfo) lose what applications kept there", () => {
  test("inline and referenced piece dictionaries are blanked, their private-data streams emptied; the page stays", () => {
    const original = pdfWithPieceInfo();
    const { bytes, metadataRemoved } = clean(original);
    expect(metadataRemoved).toBe(true);
    expect(containsText(bytes, "Canary")).toBe(false);
    expect(streams(bytes, /FlateDecode/).some((data) => data.includes("Canary"))).toBe(false);
    expect(streams(bytes, /FlateDecode/)).toEqual([""]);
    expect(bytes.length).toBe(original.length);
    expect(xrefEntriesHold(bytes)).toBe(true);
    expect(text(bytes)).toContain("(The evidence) Tj");
    expect(text(bytes)).toContain("/PieceInfo 5 0 R");
  });

  test("in a compressed object stream: an inline piece is blanked there; one that references elsewhere is stored as sent, marked", () => {
    const inline = clean(pdfWithPieceInfoInObjectStream(false));
    expect(inline.metadataRemoved).toBe(true);
    expect(streams(inline.bytes, /ObjStm/)[0]).toContain("/Owner (              )");
    const original = pdfWithPieceInfoInObjectStream(true);
    expect(clean(original)).toEqual({ bytes: original, metadataRemoved: false });
  });
});

describe("what cannot be cleaned is stored as uploaded and marked so", () => {
  test("an encrypted PDF", () => {
    const encrypted = new PdfBuilder()
      .object(1, "<< /Type /Catalog >>")
      .object(2, `<< /Author (${CANARY}) >>`)
      .object(3, "<< /Filter /Standard /V 2 /R 3 /O <00> /U <00> /P -4 >>")
      .revision("/Root 1 0 R /Info 2 0 R /Encrypt 3 0 R")
      .bytes();
    expect(clean(encrypted)).toEqual({ bytes: encrypted, metadataRemoved: false });
  });

  test("a compressed XMP stream too small for an empty packet, or with a filter we cannot write", () => {
    const tiny = deflateSync(Buffer.from(CANARY));
    const tooSmall = new PdfBuilder().object(1, "<< /Type /Catalog >>").stream(2, "/Type /Metadata /Filter /FlateDecode", tiny).revision("/Root 1 0 R").bytes();
    expect(clean(tooSmall)).toEqual({ bytes: tooSmall, metadataRemoved: false });
    const ascii = new PdfBuilder().object(1, "<< /Type /Catalog >>").stream(2, "/Type /Metadata /Filter /ASCIIHexDecode", Buffer.from(CANARY).toString("hex")).revision("/Root 1 0 R").bytes();
    expect(clean(ascii)).toEqual({ bytes: ascii, metadataRemoved: false });
  });

  test("an Info reference to an object that is nowhere, and a file without any cross-reference", () => {
    const missing = new PdfBuilder().object(1, "<< /Type /Catalog >>").revision("/Root 1 0 R /Info 7 0 R").bytes();
    expect(clean(missing).metadataRemoved).toBe(false);
    const noXref = Buffer.from(`%PDF-1.4\n1 0 obj << /Author (${CANARY}) >> endobj\n`);
    expect(clean(noXref)).toEqual({ bytes: noXref, metadataRemoved: false });
  });
});

describe("hostile input never crashes the cleaner", () => {
  test("an absurd /Length is repaired from endstream, as readers do; a stream without an end is not cleaned", () => {
    const absurd = Buffer.from(
      text(new PdfBuilder().object(1, "<< /Type /Catalog >>").stream(2, "/Type /Metadata", `<x>${CANARY}</x>`).object(3, `<< /Author (${CANARY}) >>`).revision("/Root 1 0 R /Info 3 0 R").bytes()).replace(
        /\/Length \d+/,
        "/Length 99999999999",
      ),
      "latin1",
    );
    const result = clean(absurd);
    expect(result.metadataRemoved).toBe(true);
    expect(containsText(result.bytes, CANARY)).toBe(false);
    const endless = Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Metadata /Length 5000 >>\nstream\n${CANARY}\nstartxref\n0\n`);
    expect(clean(endless)).toEqual({ bytes: endless, metadataRemoved: false });
  });

  test("random bytes after a PDF header, deep nesting and unbalanced strings", () => {
    let seed = 7;
    const random = Uint8Array.from({ length: 200_000 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    random.set(Buffer.from("%PDF-1.7\n"));
    expect(clean(random)).toEqual({ bytes: random, metadataRemoved: false });
    const deep = Buffer.from(`%PDF-1.7\n1 0 obj\n<< /A ${"[".repeat(100_000)} >>\nendobj\n2 0 obj << /Author (${CANARY} >> endobj\ntrailer << /Info 1 0 R /I 2 0 R >>\nstartxref\n9\n%%EOF\n`);
    expect(clean(deep).metadataRemoved).toBe(false);
    // The same bytes re-read from many starting points: the work is bounded, the file is not cleaned.
    for (const repeated of ["1 0 obj <<(", "1 0 obj %"]) {
      const hostile = Buffer.from(`%PDF-1.7\n${repeated.repeat(200_000)}\ntrailer << /Info 1 0 R >>\nstartxref\n0\n`);
      expect(clean(hostile)).toEqual({ bytes: hostile, metadataRemoved: false });
    }
    const objectStreamBomb = new PdfBuilder()
      .object(1, "<< /Type /Catalog >>")
      .stream(2, "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", deflateSync(Buffer.alloc(80_000_000)))
      .revision("/Root 1 0 R /Info 9 0 R")
      .bytes();
    // Past the upload's budget of inflated bytes the file is refused, not stored (decision 060).
    expect(() => clean(objectStreamBomb)).toThrow(OverBudgetError);
  });
});
