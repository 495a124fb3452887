import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { serveFile, StaticSite, writePrecompressed } from "../../../api/http/static-site.ts";

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function siteWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "lantern-site-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function fetchDecoded(site: StaticSite, path: string, encoding: "br" | "gzip"): Promise<string> {
  const response = serveFile(site.lookup(path)!, new Request(`http://localhost${path}`, { headers: { "Accept-Encoding": encoding } }));
  expect(response.headers.get("Content-Encoding")).toBe(encoding);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return new TextDecoder().decode(encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes));
}

describe("a site build's compressed copies", () => {
  const script = `console.log(${JSON.stringify("lantern ".repeat(200))});`;

  test("are served for their file, with the file's own content", async () => {
    const root = siteWith({ "_astro/app.js": script, "index.html": `<html><body>${"<p>hello</p>".repeat(50)}</body></html>` });
    writePrecompressed(root);
    const site = new StaticSite(root);
    expect(await fetchDecoded(site, "/_astro/app.js", "br")).toBe(script);
    expect(await fetchDecoded(site, "/_astro/app.js", "gzip")).toBe(script);
    expect(site.lookup("/")).toBeDefined();
  });

  test("are ignored once their file has changed, so a stale body is never sent", async () => {
    const root = siteWith({ "_astro/app.js": script });
    writePrecompressed(root);
    const changed = script.replace("lantern", "changed");
    writeFileSync(join(root, "_astro/app.js"), changed);
    const site = new StaticSite(root);
    expect(await fetchDecoded(site, "/_astro/app.js", "br")).toBe(changed);
    expect(await fetchDecoded(site, "/_astro/app.js", "gzip")).toBe(changed);
  });

  test("are not pages of the site themselves", () => {
    const root = siteWith({ "_astro/app.js": script });
    writePrecompressed(root);
    const site = new StaticSite(root);
    expect(site.size).toBe(1);
    expect(site.lookup("/.precompressed/manifest.json")).toBeUndefined();
    expect(site.lookup("/.precompressed/_astro/app.js.br")).toBeUndefined();
  });
});
