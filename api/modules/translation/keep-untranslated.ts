import { sanitiseRichText } from "../../lib/rich-text-sanitiser.ts";
import { RICH_TEXT_NO_TRANSLATE } from "../../shared/rich-text.ts";

/**
 * Parts of a message the organisation marked 'do not translate' (translate="no", decision 021) must
 * come back exactly as written, whatever the provider does with the attribute: many engines
 * translate inside it anyway. Before sending, each marked element is swapped for an empty
 * placeholder element carrying only its number; after, each placeholder is swapped back. A
 * translation that lost, doubled or invented a placeholder is not used.
 */

export interface ProtectedHtml {
  html: string;
  kept: string[];
}

const OPENING_TAG = /<([a-zA-Z][a-zA-Z0-9]*)(\s[^<>]*?)?(\/?)>/g;
const NO_TRANSLATE_ATTRIBUTE = new RegExp(`\\stranslate\\s*=\\s*(?:"${RICH_TEXT_NO_TRANSLATE}"|'${RICH_TEXT_NO_TRANSLATE}'|${RICH_TEXT_NO_TRANSLATE}(?=[\\s/>]|$))`, "i");
const VOID_ELEMENTS = new Set(["br", "hr", "img", "input", "wbr"]);
const PLACEHOLDER = /<span\s+data-lantern-keep\s*=\s*["']?(\d+)["']?\s*>\s*<\/span>/gi;

const placeholder = (index: number): string => `<span data-lantern-keep="${index}"></span>`;

/** Where the element opened at `from` (just past its opening tag) closes, counting nested ones of the same name. */
function closingEnd(html: string, tagName: string, from: number): number {
  const tags = new RegExp(`<(/?)${tagName}(?=[\\s/>])[^<>]*>`, "gi");
  tags.lastIndex = from;
  let depth = 1;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    if (match[1] === "/") depth -= 1;
    else if (!match[0].endsWith("/>")) depth += 1;
    if (depth === 0) return match.index + match[0].length;
  }
  // Unclosed: the rest of the message belongs to it, as a browser would read it.
  return html.length;
}

export function protectUntranslated(html: string): ProtectedHtml {
  const kept: string[] = [];
  let out = "";
  let position = 0;
  OPENING_TAG.lastIndex = 0;
  for (let match = OPENING_TAG.exec(html); match; match = OPENING_TAG.exec(html)) {
    if (!NO_TRANSLATE_ATTRIBUTE.test(match[2] ?? "")) continue;
    const tagName = match[1]!.toLowerCase();
    const openEnd = match.index + match[0].length;
    const end = match[3] === "/" || VOID_ELEMENTS.has(tagName) ? openEnd : closingEnd(html, tagName, openEnd);
    out += html.slice(position, match.index) + placeholder(kept.length);
    kept.push(html.slice(match.index, end));
    position = end;
    OPENING_TAG.lastIndex = end;
  }
  return { html: out + html.slice(position), kept };
}

/**
 * The translation with every kept part back in its place, rebuilt by the rich-text sanitiser so
 * whatever the provider answered is markup the reporters' renderer knows; null when a placeholder
 * went missing, came back twice or was never sent.
 */
export function restoreUntranslated(translated: string, kept: readonly string[]): string | null {
  const seen = new Set<number>();
  let intact = true;
  const restored = translated.replace(PLACEHOLDER, (_whole, digits: string) => {
    const index = Number(digits);
    if (index >= kept.length || seen.has(index)) intact = false;
    seen.add(index);
    return kept[index] ?? "";
  });
  if (!intact || seen.size !== kept.length) return null;
  const clean = sanitiseRichText(restored);
  return clean === "" ? null : clean;
}
