import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZipWriter } from "../../../api/modules/exports/zip.ts";
import { stripMetadata } from "../../../api/modules/files/strip-metadata.ts";
import { containsText } from "../../fixtures/files.ts";
import { readZip } from "../../helpers/zip-reader.ts";
import { CANARY, SHAREPOINT_PROPERTIES } from "./clean-fixtures.ts";

/**
 * A cleaned document still opens where staff open it (issue 29, item 6): LibreOffice writes a
 * DOCX, the places the tester found the canary are filled in, the cleaner removes it, and
 * LibreOffice reads the cleaned file back to its text. LibreOffice must be installed (.ci/run
 * installs it on a fresh machine); its own profile lives in this test's folder, so runs beside others do not meet.
 */

const dir = mkdtempSync(join(tmpdir(), "lantern-office-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function soffice(convertTo: string, file: string, outdir: string): void {
  const run = Bun.spawnSync(["soffice", `-env:UserInstallation=file://${join(dir, "profile")}`, "--headless", "--convert-to", convertTo, "--outdir", outdir, file], { stdout: "pipe", stderr: "pipe" });
  expect({ exitCode: run.exitCode }).toEqual({ exitCode: 0 });
}

/** LibreOffice's DOCX with SharePoint's custom XML, a document variable and an author added where Word and SharePoint put them. */
function docxWithCanaryParts(written: Uint8Array): Uint8Array<ArrayBuffer> {
  const zip = new ZipWriter();
  for (const [name, content] of readZip(written)) {
    const text = new TextDecoder().decode(content);
    if (name === "word/settings.xml") zip.add(name, text.replace("</w:settings>", `<w:docVars><w:docVar w:name="Owner" w:val="${CANARY}"/></w:docVars></w:settings>`));
    else if (name === "docProps/core.xml") zip.add(name, text.replace("</cp:coreProperties>", `<dc:creator>${CANARY}</dc:creator></cp:coreProperties>`));
    else zip.add(name, content);
  }
  zip.add("customXml/item1.xml", SHAREPOINT_PROPERTIES);
  return zip.finish();
}

test("a DOCX written by LibreOffice, with SharePoint's fields and a document variable, is cleaned of them and LibreOffice still opens it to its text", () => {
  writeFileSync(join(dir, "evidence.txt"), "The evidence of the matter\n");
  soffice("docx", join(dir, "evidence.txt"), dir);
  const original = docxWithCanaryParts(readFileSync(join(dir, "evidence.docx")));
  for (const part of ["word/settings.xml", "docProps/core.xml", "customXml/item1.xml"]) expect({ part, canary: containsText(readZip(original).get(part)!, CANARY) }).toEqual({ part, canary: true });

  const { bytes, metadataRemoved } = stripMetadata("ooxml", original);
  expect(metadataRemoved).toBe(true);
  for (const [name, content] of readZip(bytes)) expect({ name, canary: containsText(content, CANARY) }).toEqual({ name, canary: false });

  const opened = join(dir, "opened");
  writeFileSync(join(dir, "cleaned.docx"), bytes);
  soffice("txt:Text (encoded):UTF8", join(dir, "cleaned.docx"), opened);
  expect(readFileSync(join(opened, "cleaned.txt"), "utf8")).toContain("The evidence of the matter");
}, 120_000);
