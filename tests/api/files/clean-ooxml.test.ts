import { describe, expect, test } from "bun:test";
import { UnreadableFileError } from "../../../api/modules/files/bytes.ts";
import { OverBudgetError } from "../../../api/modules/files/cleaning-budget.ts";
import { stripMetadata } from "../../../api/modules/files/strip-metadata.ts";
import { tokenizeXml } from "../../../api/modules/files/xml-tokens.ts";
import { ZipWriter } from "../../../api/modules/exports/zip.ts";
import { containsText, minimalDocx } from "../../fixtures/files.ts";
import { readZip, unzipTool } from "../../helpers/zip-reader.ts";
import { CANARY, docxWithCanary, pptxWithCanary, xlsxWithCanary } from "./clean-fixtures.ts";

const clean = (file: Uint8Array) => stripMetadata("ooxml", file);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The cleaned package read back by an independent reader: every part inflates and matches its CRC. */
function cleanedParts(original: Uint8Array) {
  const { bytes, metadataRemoved } = clean(original);
  expect(metadataRemoved).toBe(true);
  const parts = readZip(bytes);
  // The same parts, in the same order.
  expect([...parts.keys()]).toEqual([...readZip(original).keys()]);
  const tool = unzipTool(bytes);
  if (tool) expect(tool).toEqual({ ok: true, names: [...parts.keys()] });
  for (const [name, content] of parts) {
    if (name.endsWith(".xml")) expect(tokenizeXml(decode(content))).not.toBeNull();
    expect(containsText(content, "Canary")).toBe(false);
  }
  return { bytes, xml: (name: string) => decode(parts.get(name)!), parts };
}

describe("Office files with an author lose it", () => {
  test("DOCX: properties emptied, comment and tracked-change authors neutral, revision identities and accounts gone, picture stripped", () => {
    const original = docxWithCanary();
    expect(containsText(readZip(original).get("docProps/core.xml")!, CANARY)).toBe(true);
    const { xml, parts } = cleanedParts(original);
    expect(xml("docProps/core.xml")).toEndWith('xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>');
    expect(xml("docProps/core.xml")).toContain("<cp:coreProperties xmlns:cp=");
    expect(xml("docProps/app.xml")).toContain("<Pages>1</Pages><AppVersion>16.0000</AppVersion></Properties>");
    for (const gone of ["Company", "Manager", "Template", "TotalTime"]) expect(xml("docProps/app.xml")).not.toContain(gone);
    expect(xml("docProps/custom.xml")).not.toContain("<property");
    // The tracked change and the text stay; who made it does not.
    expect(xml("word/document.xml")).toContain('<w:ins w:id="1" w:author="Author" w:date="2026-03-14T09:30:00Z"><w:r><w:t>added</w:t></w:r></w:ins>');
    expect(xml("word/document.xml")).toContain('<w:t xml:space="preserve">The evidence &amp; more</w:t>');
    expect(xml("word/document.xml")).not.toContain("rsid");
    expect(xml("word/comments.xml")).toContain('w:author="Author" w:initials="A"');
    expect(xml("word/people.xml")).not.toContain("presenceInfo");
    expect(xml("word/settings.xml")).toEndWith('<w:zoom w:percent="100"/></w:settings>');
    // SharePoint's custom XML and the sensitivity label keep their root; the data store's own description stays.
    expect(xml("customXml/item1.xml")).toEndWith('<p:properties xmlns:p="http://schemas.microsoft.com/office/2006/metadata/properties" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:pc="http://schemas.microsoft.com/office/infopath/2007/PartnerControls"/>');
    expect(xml("customXml/itemProps1.xml")).toContain('<ds:schemaRef ds:uri="http://schemas.microsoft.com/office/2006/metadata/properties"/>');
    expect(xml("docMetadata/LabelInfo.xml")).toEndWith('<clbl:labelList xmlns:clbl="http://schemas.microsoft.com/office/2020/mipLabelMetadata"/>');
    const picture = parts.get("word/media/image1.jpeg")!;
    for (const identifying of ["Exif", "Jane Reporter", "GPSLatitude"]) expect(containsText(picture, identifying)).toBe(false);
    expect([picture[0], picture[1], picture.at(-2), picture.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
  });

  test("XLSX and PPTX: comment authors, people, the saved folder and SharePoint's custom XML go", () => {
    const sheet = cleanedParts(xlsxWithCanary());
    expect(sheet.xml("xl/comments1.xml")).toContain("<authors><author>Author</author></authors>");
    expect(sheet.xml("xl/persons/person.xml")).toContain('<person displayName="Author" id="{0A1B}" userId="Author" providerId="None"/>');
    expect(sheet.xml("xl/workbook.xml")).not.toContain("absPath");
    expect(sheet.xml("xl/workbook.xml")).toContain('<sheets><sheet name="Sheet1" sheetId="1"/></sheets>');
    expect(sheet.xml("xl/worksheets/sheet1.xml")).toContain("<t>42</t>");
    const slides = cleanedParts(pptxWithCanary());
    expect(slides.xml("ppt/commentAuthors.xml")).toContain('<p:cmAuthor id="0" name="Author" initials="A" lastIdx="1" clrIdx="0"/>');
    expect(slides.xml("ppt/authors.xml")).toContain('name="Author" initials="A" userId="Author" providerId="None"');
  });

  test("core properties where System.IO.Packaging writes them are emptied too", () => {
    const zip = new ZipWriter();
    zip.add("[Content_Types].xml", "<Types/>");
    zip.add("word/document.xml", '<w:document xmlns:w="w"/>');
    zip.add("package/services/metadata/core-properties/0a1b.psmdcp", `<coreProperties xmlns="c"><creator>${CANARY}</creator></coreProperties>`);
    const part = readZip(clean(zip.finish()).bytes).get("package/services/metadata/core-properties/0a1b.psmdcp")!;
    expect(decode(part)).toEndWith('<coreProperties xmlns="c"/>');
  });

  test("a package with nothing to remove is kept byte for byte", () => {
    const plain = minimalDocx();
    expect(clean(plain)).toEqual({ bytes: plain, metadataRemoved: true });
  });

  test("an embedded Office file is cleaned too; an embedded legacy object marks the document as not cleaned", () => {
    const zip = new ZipWriter();
    zip.add("[Content_Types].xml", "<Types/>");
    zip.add("word/document.xml", '<w:document xmlns:w="w"/>');
    zip.add("word/embeddings/Sheet.xlsx", xlsxWithCanary());
    const nested = clean(zip.finish());
    expect(nested.metadataRemoved).toBe(true);
    expect(containsText(readZip(readZip(nested.bytes).get("word/embeddings/Sheet.xlsx")!).get("docProps/core.xml")!, CANARY)).toBe(false);
    zip.add("word/embeddings/oleObject1.bin", `\u00d0\u00cf${CANARY}`);
    expect(clean(zip.finish()).metadataRemoved).toBe(false);
  });
});

/** The archive with one central-directory field of `name` overwritten. */
function patched(archive: Uint8Array, name: string, offset: number, value: number): Uint8Array {
  const copy = archive.slice();
  const view = new DataView(copy.buffer);
  // The directory comes last, so the name's last occurrence is its central record's, 46 bytes after the record starts.
  const at = Buffer.from(copy).lastIndexOf(Buffer.from(name)) - 46;
  expect(view.getUint32(at, true)).toBe(0x02014b50);
  view.setUint32(at + offset, value, true);
  return copy;
}

describe("an Office file whose container cannot be followed is refused, never half cleaned", () => {
  const refused = (file: Uint8Array) => expect(() => clean(file)).toThrow(UnreadableFileError);

  test("truncated, encrypted or with a broken part", () => {
    const docx = docxWithCanary();
    refused(docx.subarray(0, docx.length - 30));
    refused(docx.subarray(0, 2000));
    const encrypted = docx.slice();
    new DataView(encrypted.buffer).setUint16(Buffer.from(encrypted).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 8, 1, true);
    refused(encrypted);
    const zip = new ZipWriter();
    zip.add("[Content_Types].xml", "<Types/>");
    zip.add("word/document.xml", `<!DOCTYPE w [<!ENTITY a "${CANARY}">]><w:document>&a;</w:document>`);
    refused(zip.finish());
  });

  test("zip bombs: a part larger than its directory says is unreadable; one announced past the upload's budget is refused before it is inflated", () => {
    const zip = new ZipWriter();
    zip.add("[Content_Types].xml", "<Types/>");
    zip.add("docProps/core.xml", "<c>" + " ".repeat(5_000_000) + "</c>");
    zip.add("word/document.xml", '<w:document xmlns:w="w"/>');
    const bomb = zip.finish();
    expect(bomb.length).toBeLessThan(20_000);
    // Uncompressed size (offset 24 of the central record) claimed to be 100 bytes.
    refused(patched(bomb, "docProps/core.xml", 24, 100));
    expect(() => clean(patched(bomb, "word/document.xml", 24, 0xfffffff0))).toThrow(OverBudgetError);
  });
});
