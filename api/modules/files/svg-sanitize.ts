import { tokenizeXml, type XmlAttribute, type XmlToken } from "./xml-tokens.ts";

/**
 * An uploaded SVG, accepted only when nothing in it can run or reach out, and written back without
 * what describes its author. Refused (null) when it is not well-formed XML with an `<svg>` root, or
 * has a DOCTYPE, a script or event-handler attribute, `javascript:` anywhere, an `href` or CSS
 * `url()` that is not a reference inside the file (`#id`), a CSS `@import`, or a `foreignObject`
 * (which embeds HTML). Dropped: comments, `<metadata>` (RDF with creator, rights, source file) and
 * every element and attribute outside the SVG, XLink and XML namespaces: editors keep their own
 * data there (Inkscape's `sodipodi:docname` and `inkscape:export-filename` carry file names and
 * home-directory paths, which name people). None of it is drawn, so the picture is unchanged.
 * The download route's CSP sandbox stays the second line of defence.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const KEPT_NAMESPACES = new Set([SVG_NS, XLINK_NS]);
const REFUSED_ELEMENTS = new Set(["script", "foreignobject", "handler", "listener", "iframe", "embed", "object"]);
const ANIMATIONS = new Set(["set", "animate"]);
const ACCEPTED_ENCODINGS = new Set(["utf-8", "utf8", "us-ascii", "ascii"]);
const MAX_DEPTH = 256;

type Namespaces = ReadonlyMap<string, string | null>;

interface Open {
  name: string;
  namespaces: Namespaces;
  kept: boolean;
  isStyle: boolean;
}

const split = (name: string) => {
  const colon = name.indexOf(":");
  return colon < 0 ? { prefix: "", local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
};

/** Every `url(...)` names something in this file (`#id`); anything else would fetch when the picture is shown. */
function urlsAreLocal(text: string): boolean {
  for (const match of text.matchAll(/url\s*\(\s*(['"]?)([^'")]*)/giu)) if (!match[2]!.trim().startsWith("#")) return false;
  return true;
}

/** CSS (a `<style>` element or a `style` attribute): local urls, no `@import`, and no `\` so escapes cannot hide either. */
const cssIsLocal = (css: string) => !/@import|\\/iu.test(css) && urlsAreLocal(css);

class Refused extends Error {}

/** A value with whitespace and controls removed, as browsers do before reading a URL's scheme. */
const squeezed = (value: string) => value.replace(/[\s\u0000-\u001f]+/gu, "").toLowerCase();

function namespacesOf(token: Extract<XmlToken, { kind: "start" }>, parent: Namespaces): Map<string, string | null> {
  const scope = new Map(parent);
  for (const attribute of token.attributes) {
    if (attribute.name === "xmlns") scope.set("", attribute.value || null);
    else if (attribute.name.startsWith("xmlns:")) scope.set(attribute.name.slice(6), attribute.value || null);
  }
  return scope;
}

/** Whether the attribute is written back; throws Refused when it may not be in the file at all. */
function keepsAttribute(attribute: XmlAttribute, element: string, namespaces: Namespaces): boolean {
  const { prefix, local } = split(attribute.name);
  const name = local.toLowerCase();
  const value = attribute.value.trim();
  const declaration = attribute.name === "xmlns" || prefix === "xmlns";
  if (!declaration && name.startsWith("on")) throw new Refused();
  if (squeezed(attribute.value).includes("javascript:")) throw new Refused();
  if (name === "href" && value !== "" && !value.startsWith("#")) throw new Refused();
  if (!(name === "style" ? cssIsLocal(attribute.value) : urlsAreLocal(attribute.value))) throw new Refused();
  // <set attributeName="href" to="…"> would put back the link the href rule keeps out.
  if (name === "attributename" && ANIMATIONS.has(element) && /href$/iu.test(value)) throw new Refused();
  if (declaration) return attribute.value === "" || KEPT_NAMESPACES.has(attribute.value);
  if (prefix === "" || prefix === "xml") return true;
  if (!namespaces.has(prefix)) throw new Refused();
  return KEPT_NAMESPACES.has(namespaces.get(prefix) ?? "");
}

const attributeText = (attribute: XmlAttribute) => ` ${attribute.name}="${attribute.raw.replace(/"/gu, "&quot;")}"`;

function declaredEncodingIsUtf8(declaration: string): boolean {
  const match = /encoding\s*=\s*["']([^"']*)["']/iu.exec(declaration);
  return !match || ACCEPTED_ENCODINGS.has(match[1]!.toLowerCase());
}

function sanitize(tokens: XmlToken[]): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const stack: Open[] = [];
  let rootSeen = false;
  for (const [index, token] of tokens.entries()) {
    const parent = stack.at(-1);
    const emitting = parent ? parent.kept : true;
    if (token.kind === "comment") continue;
    if (token.kind === "pi") {
      // Only the XML declaration, first; others (xml-stylesheet) can load from elsewhere.
      if (index !== 0 || token.target !== "xml" || !declaredEncodingIsUtf8(token.raw)) throw new Refused();
      continue;
    }
    if (token.kind === "text" || token.kind === "cdata") {
      if (!parent) {
        if (token.kind === "cdata" || token.value.trim() !== "") throw new Refused();
        continue;
      }
      if (parent.isStyle && !cssIsLocal(token.value)) throw new Refused();
      if (emitting) out.push(token.raw);
      continue;
    }
    if (token.kind === "end") {
      const open = stack.pop();
      if (!open || open.name !== token.name) throw new Refused();
      if (open.kept) out.push(`</${token.name}>`);
      continue;
    }
    if (!parent && rootSeen) throw new Refused();
    const namespaces = namespacesOf(token, parent?.namespaces ?? new Map([["xml", XML_NS]]));
    const { prefix, local } = split(token.name);
    if (!namespaces.has(prefix) && prefix !== "") throw new Refused();
    const namespace = namespaces.get(prefix) ?? null;
    const element = local.toLowerCase();
    if (REFUSED_ELEMENTS.has(element)) throw new Refused();
    if (!parent && (local !== "svg" || (namespace !== null && namespace !== SVG_NS))) throw new Refused();
    rootSeen = true;
    const kept = emitting && (namespace === null || namespace === SVG_NS) && local !== "metadata";
    const attributes = token.attributes.filter((attribute) => keepsAttribute(attribute, element, namespaces));
    if (kept) out.push(`<${token.name}${attributes.map(attributeText).join("")}${token.selfClosing ? "/>" : ">"}`);
    if (!token.selfClosing) {
      if (stack.length >= MAX_DEPTH) throw new Refused();
      stack.push({ name: token.name, namespaces, kept, isStyle: element === "style" });
    }
  }
  if (!rootSeen || stack.length > 0) throw new Refused();
  out.push("\n");
  return out.join("");
}

/** The cleaned SVG as UTF-8, or null when it is refused. */
export function sanitizeSvg(bytes: Uint8Array): Uint8Array | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  // The rule as stated, over the whole text (comments and CDATA too), before any parsing.
  if (/<\s*script/iu.test(text)) return null;
  const tokens = tokenizeXml(text);
  if (!tokens) return null;
  try {
    return new TextEncoder().encode(sanitize(tokens));
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
}
