import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { pageCsp } from "./security-headers.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".webmanifest": "application/manifest+json",
};

const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".xml", ".webmanifest"]);

export interface StaticFile {
  body: Uint8Array;
  gzip?: Uint8Array;
  brotli?: Uint8Array;
  type: string;
  etag: string;
  /** Content-hashed build assets never change under their name. */
  immutable: boolean;
  /** For HTML: the CSP allowing exactly this page's inline scripts. */
  csp?: string;
}

/** sha256 (base64) of every executable inline <script> in a page; JSON data blocks are not scripts. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    hashes.push(createHash("sha256").update(match[2] ?? "").digest("base64"));
  }
  return [...new Set(hashes)];
}

/**
 * Where the site build keeps a compressed copy of each file, with a manifest naming the ETag of the
 * file each copy was made from. Brotli at quality 11 costs seconds of CPU for the whole site, so it
 * is paid once per build (`writePrecompressed`), not at every start; a copy whose file has changed
 * since (say, after a bare `astro build`) is ignored and the file compressed at start as before.
 */
const PRECOMPRESSED_DIR = ".precompressed";
const MANIFEST = "manifest.json";

type Manifest = Record<string, string>;

function etagOf(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}

function isCompressible(path: string, body: Uint8Array): boolean {
  return COMPRESSIBLE.has(extname(path).toLowerCase()) && body.byteLength > 256;
}

function compress(body: Uint8Array): { gzip: Uint8Array; brotli: Uint8Array } {
  return { gzip: gzipSync(body, { level: 9 }), brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }) };
}

/** Every file of the build by its path ("admin/index.html"), without the compressed copies. */
function buildFiles(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (full !== join(root, PRECOMPRESSED_DIR)) walk(full);
      } else files.set(relative(root, full).split("\\").join("/"), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

/** Writes the compressed copies of a finished build (scripts/site-build.ts runs it after Astro). */
export function writePrecompressed(root: string): void {
  const manifest: Manifest = {};
  for (const [path, body] of buildFiles(root)) {
    if (!isCompressible(path, body)) continue;
    const { gzip, brotli } = compress(body);
    const target = join(root, PRECOMPRESSED_DIR, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(`${target}.gz`, gzip);
    writeFileSync(`${target}.br`, brotli);
    manifest[path] = etagOf(body);
  }
  writeFileSync(join(root, PRECOMPRESSED_DIR, MANIFEST), JSON.stringify(manifest));
}

function readManifest(root: string): Manifest {
  const path = join(root, PRECOMPRESSED_DIR, MANIFEST);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Manifest) : {};
}

function prepare(root: string, manifest: Manifest, path: string, body: Uint8Array): StaticFile {
  const extension = extname(path).toLowerCase();
  const type = TYPES[extension] ?? "application/octet-stream";
  const file: StaticFile = { body, type, etag: etagOf(body), immutable: path.startsWith("_astro/") };
  if (isCompressible(path, body)) {
    const copy = join(root, PRECOMPRESSED_DIR, path);
    const { gzip, brotli } = manifest[path] === file.etag ? { gzip: readFileSync(`${copy}.gz`), brotli: readFileSync(`${copy}.br`) } : compress(body);
    file.gzip = gzip;
    file.brotli = brotli;
  }
  if (extension === ".html") file.csp = pageCsp(inlineScriptHashes(new TextDecoder().decode(body)));
  return file;
}

/** The whole Astro build, read (and compressed, unless the build did) once at start: it is small. */
export class StaticSite {
  private readonly files = new Map<string, StaticFile>();

  constructor(readonly root: string) {
    if (!existsSync(root)) return;
    const manifest = readManifest(root);
    for (const [path, body] of buildFiles(root)) this.files.set(path, prepare(root, manifest, path, body));
  }

  get size(): number {
    return this.files.size;
  }

  /** A file by its path in the build, e.g. "admin/index.html". */
  file(path: string): StaticFile | undefined {
    return this.files.get(path);
  }

  /** Resolves a URL path to a build file: exact, then `.html`, then `/index.html`. */
  lookup(urlPath: string): StaticFile | undefined {
    const clean = decodeSafe(urlPath).replace(/^\/+/, "");
    // Only whole ".." segments climb; Astro itself names files like "_..hash.css".
    if (clean.split("/").some((segment) => segment === ".." || segment === ".")) return undefined;
    return this.files.get(clean) ?? this.files.get(`${clean}.html`) ?? this.files.get(clean ? `${clean}/index.html` : "index.html");
  }
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Builds the response for a file, honouring Accept-Encoding and If-None-Match. */
export function serveFile(file: StaticFile, request: Request, init: { status?: number; body?: Uint8Array; csp?: string } = {}): Response {
  const headers = new Headers({ "Content-Type": file.type, Vary: "Accept-Encoding" });
  headers.set("Cache-Control", file.immutable ? "public, max-age=31536000, immutable" : "no-store");
  const csp = init.csp ?? file.csp;
  if (csp) headers.set("Content-Security-Policy", csp);
  if (init.body) {
    // A page with per-request content (organisation data) is compressed on the fly.
    return respondCompressed(init.body, request, headers, init.status ?? 200);
  }
  headers.set("ETag", file.etag);
  if (file.immutable && request.headers.get("If-None-Match") === file.etag) return new Response(null, { status: 304, headers });
  const accepts = request.headers.get("Accept-Encoding") ?? "";
  let body = file.body;
  if (file.brotli && /\bbr\b/.test(accepts)) {
    body = file.brotli;
    headers.set("Content-Encoding", "br");
  } else if (file.gzip && /\bgzip\b/.test(accepts)) {
    body = file.gzip;
    headers.set("Content-Encoding", "gzip");
  }
  return new Response(body as Uint8Array<ArrayBuffer>, { status: init.status ?? 200, headers });
}

function respondCompressed(body: Uint8Array, request: Request, headers: Headers, status: number): Response {
  if (/\bgzip\b/.test(request.headers.get("Accept-Encoding") ?? "")) {
    headers.set("Content-Encoding", "gzip");
    return new Response(gzipSync(body, { level: 6 }), { status, headers });
  }
  return new Response(body as Uint8Array<ArrayBuffer>, { status, headers });
}
