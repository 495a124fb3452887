import { deflateSync } from "node:zlib";
import { ZipWriter } from "../../../api/modules/exports/zip.ts";
import { jpegWithMetadata } from "../../fixtures/files.ts";

/**
 * PDFs and Office files built in code, each carrying the canary author in every place the cleaner
 * must reach, so a test can show exactly which bytes went in.
 */

export const CANARY = "Canary Whistle";

const latin1 = (text: string) => Buffer.from(text, "latin1");
const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();

/** Writes a PDF revision by revision, each with a classic cross-reference table pointing at its objects. */
export class PdfBuilder {
  private text: string;
  private section = new Map<number, number>();
  private lastXref = -1;

  constructor(version = "1.7") {
    this.text = `%PDF-${version}\n%\u00e2\u00e3\u00cf\u00d3\n`;
  }

  object(number: number, body: string): this {
    this.section.set(number, this.text.length);
    this.text += `${number} 0 obj\n${body}\nendobj\n`;
    return this;
  }

  stream(number: number, dictionary: string, data: string | Uint8Array): this {
    const content = typeof data === "string" ? data : Buffer.from(data).toString("latin1");
    return this.object(number, `<< ${dictionary} /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }

  /** Ends the revision: its xref section, then a trailer pointing back at the previous one. */
  revision(trailer: string): this {
    const xref = this.text.length;
    const numbers = [...this.section.keys()].sort((a, b) => a - b);
    this.text += "xref\n0 1\n0000000000 65535 f\r\n";
    for (const number of numbers) this.text += `${number} 1\n${String(this.section.get(number)).padStart(10, "0")} 00000 n\r\n`;
    const size = Math.max(0, ...numbers) + 1;
    this.text += `trailer\n<< /Size ${size} ${trailer}${this.lastXref >= 0 ? ` /Prev ${this.lastXref}` : ""} >>\nstartxref\n${xref}\n%%EOF\n`;
    this.lastXref = xref;
    this.section = new Map();
    return this;
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(latin1(this.text));
  }
}

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${CANARY}</rdf:li></rdf:Seq></dc:creator></rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;

/**
 * One page; the canary in the Info dictionary (literal with escapes and nested parentheses, hex, and
 * by reference), in an XMP stream and a compressed one, and again in the Info of an incremental update.
 */
export function pdfWithCanary(): Uint8Array<ArrayBuffer> {
  return new PdfBuilder()
    .object(1, "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>")
    .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    .object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 7 0 R >>")
    .stream(4, "/Type /Metadata /Subtype /XML", XMP)
    .object(5, `<< /Author (${CANARY}) /Creator (Writer \\(by ${CANARY}\\) (nested) \\\\) /Title <${hex(CANARY)}> /Company 6 0 R /CreationDate (D:20260314093000+01'00') /Custom << /Who (${CANARY}) >> >>`)
    .object(6, `(${CANARY} Ltd)`)
    .stream(7, "", "BT /F1 12 Tf 20 100 Td (The evidence) Tj ET")
    .stream(8, "/Type /Metadata /Subtype /XML /Filter /FlateDecode", deflateSync(latin1(XMP + " ".repeat(400))))
    .revision("/Root 1 0 R /Info 5 0 R")
    .object(9, `<< /Author (${CANARY}, revised) /Producer (${CANARY} PDF) /ModDate (D:20260315) >>`)
    .revision("/Root 1 0 R /Info 9 0 R")
    .bytes();
}

/** The Info dictionary held in a compressed object stream, as PDF 1.5 writers do. */
export function pdfWithInfoInObjectStream(): Uint8Array<ArrayBuffer> {
  const info = `<< /Author (${CANARY}) /Producer (Writer) >>`;
  const pages = "<< /Type /Pages /Kids [] /Count 0 >>";
  const header = `10 0 2 ${info.length + 1} `;
  const content = header + info + " " + pages;
  return new PdfBuilder("1.5")
    .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
    .stream(3, `/Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode`, deflateSync(latin1(content)))
    .revision("/Root 1 0 R /Info 10 0 R")
    .bytes();
}

/** Where each xref entry of every revision points, and whether an `N 0 obj` starts there. */
export function xrefEntriesHold(pdf: Uint8Array): boolean {
  const text = Buffer.from(pdf).toString("latin1");
  const sections = [...text.matchAll(/xref\n((?:\d+ \d+\n(?:\d{10} \d{5} [nf]\r\n)+)+)/g)];
  if (sections.length === 0) return false;
  return sections.every((section) =>
    [...section[1]!.matchAll(/(\d+) (\d+)\n((?:\d{10} \d{5} [nf]\r\n)+)/g)].every((subsection) =>
      subsection[3]!
        .trim()
        .split("\r\n")
        .every((entry, i) => entry.endsWith("f") || text.startsWith(`${Number(subsection[1]) + i} 0 obj`, Number(entry.slice(0, 10)))),
    ),
  );
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="jpeg" ContentType="image/jpeg"/></Types>`;
const CORE = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>${CANARY}</dc:creator><cp:lastModifiedBy>${CANARY}</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">2026-03-14T09:30:00Z</dcterms:created></cp:coreProperties>`;
const APP = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Template>C:\\Users\\${CANARY}\\Templates\\Normal.dotm</Template><TotalTime>42</TotalTime><Pages>1</Pages><Company>${CANARY} Ltd</Company><Manager>${CANARY}'s boss</Manager><AppVersion>16.0000</AppVersion></Properties>`;
const CUSTOM = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Owner"><vt:lpwstr>${CANARY}</vt:lpwstr></property></Properties>`;
/** What SharePoint writes into every document of a library: the owner and the author, as custom XML. */
export const SHAREPOINT_PROPERTIES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:properties xmlns:p="http://schemas.microsoft.com/office/2006/metadata/properties" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:pc="http://schemas.microsoft.com/office/infopath/2007/PartnerControls"><documentManagement><Owner xmlns="d1"><UserInfo><DisplayName>${CANARY}</DisplayName><AccountId>12</AccountId></UserInfo></Owner><Author0 xmlns="d1">${CANARY}</Author0></documentManagement></p:properties>`;
const ITEM_PROPERTIES = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<ds:datastoreItem ds:itemID="{6A2B1C3D-0000-4000-8000-000000000001}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="http://schemas.microsoft.com/office/2006/metadata/properties"/></ds:schemaRefs></ds:datastoreItem>`;
const LABEL_INFO = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<clbl:labelList xmlns:clbl="http://schemas.microsoft.com/office/2020/mipLabelMetadata"><clbl:label id="{0A1B}" enabled="1" method="Standard" siteId="{${CANARY}}" removed="0"/></clbl:labelList>`;
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function officeFile(parts: Record<string, string | Uint8Array>): Uint8Array<ArrayBuffer> {
  const zip = new ZipWriter();
  const common = {
    "[Content_Types].xml": CONTENT_TYPES,
    "docProps/core.xml": CORE,
    "docProps/app.xml": APP,
    "docProps/custom.xml": CUSTOM,
    "customXml/item1.xml": SHAREPOINT_PROPERTIES,
    "customXml/itemProps1.xml": ITEM_PROPERTIES,
    "docMetadata/LabelInfo.xml": LABEL_INFO,
  };
  for (const [name, content] of Object.entries({ ...common, ...parts })) zip.add(name, content);
  return zip.finish();
}

/** The document text itself mentions nobody; its tracked change, comment, people list, settings and picture do. */
export function docxWithCanary(): Uint8Array<ArrayBuffer> {
  return officeFile({
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${W}><w:body><w:p w:rsidR="00A1B2C3" w:rsidRDefault="00D4E5F6"><w:r><w:t xml:space="preserve">The evidence &amp; more</w:t></w:r><w:ins w:id="1" w:author="${CANARY}" w:date="2026-03-14T09:30:00Z"><w:r w:rsidR="00A1B2C3"><w:t>added</w:t></w:r></w:ins><!-- ${CANARY} --></w:p><w:sectPr w:rsidR="00A1B2C3"/></w:body></w:document>`,
    "word/comments.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:comments ${W}><w:comment w:id="0" w:author="${CANARY}" w:initials="CW" w:date="2026-03-14T09:30:00Z"><w:p><w:r><w:t>Check this</w:t></w:r></w:p></w:comment></w:comments>`,
    "word/people.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w15:people xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"><w15:person w15:author="${CANARY}"><w15:presenceInfo w15:providerId="AD" w15:userId="S::canary.whistle@example.com::1234"/></w15:person></w15:people>`,
    "word/settings.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:settings ${W}><w:zoom w:percent="100"/><w:rsids><w:rsidRoot w:val="00A1B2C3"/><w:rsid w:val="00A1B2C3"/><w:rsid w:val="00D4E5F6"/></w:rsids><w:docVars><w:docVar w:name="UserName" w:val="${CANARY}"/></w:docVars></w:settings>`,
    "word/media/image1.jpeg": jpegWithMetadata(),
  });
}

export function xlsxWithCanary(): Uint8Array<ArrayBuffer> {
  return officeFile({
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"><fileSharing userName="${CANARY}"/><x15ac:absPath url="C:\\Users\\${CANARY}\\Documents\\"/><sheets><sheet name="Sheet1" sheetId="1"/></sheets></workbook>`,
    "xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>42</t></is></c></row></sheetData></worksheet>`,
    "xl/comments1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>${CANARY}</author></authors><commentList><comment ref="A1" authorId="0"><text><t>Check</t></text></comment></commentList></comments>`,
    "xl/persons/person.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"><person displayName="${CANARY}" id="{0A1B}" userId="canary.whistle@example.com" providerId="AD"/></personList>`,
  });
}

export function pptxWithCanary(): Uint8Array<ArrayBuffer> {
  return officeFile({
    "ppt/presentation.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>`,
    "ppt/commentAuthors.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:cmAuthorLst xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cmAuthor id="0" name="${CANARY}" initials="CW" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`,
    "ppt/authors.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p188:authorLst xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"><p188:author id="{0A1B}" name="${CANARY}" initials="CW" userId="canary.whistle@example.com" providerId="AD"/></p188:authorLst>`,
  });
}

/**
 * Page-piece dictionaries: inline on the catalog, and by reference from the page, reaching private
 * data dictionaries and two private-data streams (one plain, one compressed), as Illustrator writes them.
 */
export function pdfWithPieceInfo(): Uint8Array<ArrayBuffer> {
  return new PdfBuilder()
    .object(1, `<< /Type /Catalog /Pages 2 0 R /PieceInfo << /Lantern << /LastModified (D:20260314) /Private << /Owner (${CANARY}) /Hex <${hex(CANARY)}> >> >> >> >>`)
    .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    .object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /PieceInfo 5 0 R >>")
    .stream(4, "", "BT /F1 12 Tf 20 100 Td (The evidence) Tj ET")
    .object(5, "<< /Illustrator 6 0 R >>")
    .object(6, "<< /LastModified (D:20260315) /Private 7 0 R >>")
    .object(7, "<< /AIPrivateData1 8 0 R /AIPrivateData2 9 0 R /NumBlock 2 >>")
    .stream(8, "", `%AI24_ZStandard_Data %%Creator: ${CANARY}`)
    .stream(9, "/Filter /FlateDecode", deflateSync(latin1(`%%For: (${CANARY})`)))
    .revision("/Root 1 0 R")
    .bytes();
}

/** The catalog's page pieces inside a compressed object stream: inline ones can be blanked there, referenced ones cannot be followed. */
export function pdfWithPieceInfoInObjectStream(referenced: boolean): Uint8Array<ArrayBuffer> {
  const catalog = `<< /Type /Catalog /Pages 11 0 R /PieceInfo << /Lantern << /Private ${referenced ? "5 0 R" : `<< /Owner (${CANARY}) >>`} >> >> >>`;
  const pages = "<< /Type /Pages /Kids [] /Count 0 >>";
  const header = `10 0 11 ${catalog.length + 1} `;
  return new PdfBuilder("1.5")
    .stream(3, `/Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode`, deflateSync(latin1(header + catalog + " " + pages)))
    .object(5, `<< /Owner (${CANARY}) >>`)
    .revision("/Root 10 0 R")
    .bytes();
}
