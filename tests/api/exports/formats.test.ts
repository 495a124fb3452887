import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { CSV_BOM, csvCell, toCsv } from "../../../api/modules/exports/csv.ts";
import { escapeHtml, formatBytes, formatTimestamp, statusLabel } from "../../../api/modules/exports/html.ts";
import { reportFileName } from "../../../api/modules/exports/service.ts";
import { crc32, ZipWriter } from "../../../api/modules/exports/zip.ts";
import { parseCsv, readZip, unzipTool } from "../../helpers/zip-reader.ts";

describe("crc32", () => {
  test("matches the check value of the standard and Bun's own CRC-32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
    for (const size of [1, 7, 1000, 65_537]) {
      const data = new Uint8Array(randomBytes(size));
      expect(crc32(data)).toBe(Bun.hash.crc32(data) >>> 0);
    }
  });
});

describe("ZipWriter", () => {
  const text = "Report text, repeated so that it compresses. ".repeat(200);
  const noise = new Uint8Array(randomBytes(4096));

  test("writes an archive that a reader and `unzip` open, with compressed, stored, empty and UTF-8 named files", () => {
    const zip = new ZipWriter();
    zip.add("Report A1.html", text);
    zip.add("noise.bin", noise);
    zip.add("empty.txt", "");
    zip.add("folder/Bericht über Ärger.html", "<p>ü</p>");
    expect(zip.count).toBe(4);
    const archive = zip.finish();
    expect(archive.length).toBeLessThan(text.length);
    const files = readZip(archive);
    expect([...files.keys()]).toEqual(["Report A1.html", "noise.bin", "empty.txt", "folder/Bericht über Ärger.html"]);
    expect(new TextDecoder().decode(files.get("Report A1.html"))).toBe(text);
    expect(files.get("noise.bin")).toEqual(noise);
    expect(files.get("empty.txt")!.length).toBe(0);
    expect(new TextDecoder().decode(files.get("folder/Bericht über Ärger.html"))).toBe("<p>ü</p>");
    const tool = unzipTool(archive);
    if (tool) expect(tool.ok).toBe(true);
  });

  test("an empty archive is valid", () => {
    const archive = new ZipWriter().finish();
    expect(archive.length).toBe(22);
    expect(readZip(archive).size).toBe(0);
  });

  test("refuses names that would extract outside the target folder, and duplicates", () => {
    const zip = new ZipWriter();
    for (const name of ["../evil.html", "/etc/passwd", "a/../../b", "C:evil", "back\\slash", "", "tab\there"]) expect(() => zip.add(name, "x")).toThrow();
    zip.add("one.html", "x");
    expect(() => zip.add("one.html", "y")).toThrow("Duplicate");
    expect(zip.count).toBe(1);
  });

  test("report file names are plain file names", () => {
    expect(reportFileName("AB12C-DE34F")).toBe("Report AB12C-DE34F.html");
    expect(reportFileName("../x/y")).toBe("Report ___x_y.html");
    expect(reportFileName("")).toBe("Report unknown.html");
  });
});

describe("CSV", () => {
  test("quotes fields holding quotes, commas and line breaks, and doubles quotes (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("cr\rlf")).toBe('"cr\rlf"');
    expect(csvCell("")).toBe("");
  });

  test("neutralises formulas: =, +, -, @, tab and CR at the start get a single quote", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe("\"'\rx\"");
    expect(csvCell("  =cmd")).toBe("'  =cmd");
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe('"\'=HYPERLINK(""http://evil.example"",""Click"")"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  test("a file starts with a BOM, ends every line with CRLF and reads back cell for cell", () => {
    const rows = [
      ["Report ID", "Notes"],
      ["A1", 'quote " comma , newline \n end'],
      ["A2", "=danger"],
    ];
    const file = toCsv(rows);
    expect(file.startsWith(CSV_BOM)).toBe(true);
    expect(file.endsWith("\r\n")).toBe(true);
    expect(parseCsv(file.slice(1))).toEqual([rows[0]!, rows[1]!, ["A2", "'=danger"]]);
  });
});

describe("HTML helpers", () => {
  test("escapeHtml leaves no markup", () => {
    expect(escapeHtml(`<script>alert(1)</script> & "x" 'y'`)).toBe("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;");
  });

  test("labels, sizes and timestamps", () => {
    expect(statusLabel("NotInvestigated")).toBe("Not Investigated");
    expect(statusLabel("New")).toBe("New");
    expect(formatBytes(10)).toBe("10 bytes");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatTimestamp(new Date("2026-03-04T05:06:07Z"))).toBe("04/03/2026 05:06 UTC");
    expect(formatTimestamp(null)).toBe("");
  });
});
