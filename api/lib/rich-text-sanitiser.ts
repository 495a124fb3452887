import sanitizeHtml from "sanitize-html";
import {
  RICH_TEXT_ELEMENTS,
  RICH_TEXT_LINK,
  RICH_TEXT_MAX_INDENT,
  RICH_TEXT_NO_TRANSLATE,
  RICH_TEXT_SHARED_ATTRIBUTES,
  RICH_TEXT_STYLES,
} from "../shared/rich-text.ts";

/**
 * Form messages arrive as HTML from the builder's editor, but anyone can post anything: what is
 * stored is rebuilt from the shared allowlist (api/shared/rich-text.ts) and nothing else, so the
 * reporters' renderer only ever meets markup it knows (decision 021).
 */

const ELEMENTS = Object.keys(RICH_TEXT_ELEMENTS);
const INDENT = new RegExp(`^[1-${RICH_TEXT_MAX_INDENT}]$`);

/** Shared attributes whose value is outside the allowlist go; links keep only web and mail targets and always open apart. */
function keepAllowedValues(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const kept: sanitizeHtml.Attributes = { ...attribs };
  if (kept.translate !== undefined && kept.translate !== RICH_TEXT_NO_TRANSLATE) delete kept.translate;
  if (kept["data-indent"] !== undefined && !INDENT.test(kept["data-indent"])) delete kept["data-indent"];
  if (tagName !== "a") return { tagName, attribs: kept };
  // Rebuilt in one order, so the same link is always stored the same way.
  const { href: rawHref, rel: _rel, target: _target, ...rest } = kept;
  const href = rawHref?.trim() ?? "";
  return { tagName, attribs: RICH_TEXT_LINK.test(href) ? { ...rest, href, rel: "noopener noreferrer", target: "_blank" } : rest };
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ELEMENTS,
  allowedAttributes: Object.fromEntries(
    ELEMENTS.map((element) => [element, [...RICH_TEXT_ELEMENTS[element]!, ...RICH_TEXT_SHARED_ATTRIBUTES, ...(element === "a" ? ["rel", "target"] : [])]]),
  ),
  allowedStyles: { "*": Object.fromEntries(Object.entries(RICH_TEXT_STYLES).map(([property, value]) => [property, [value]])) },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: Object.fromEntries(ELEMENTS.map((element) => [element, keepAllowedValues])),
};

/** Markup that shows nothing: no text at all once tags, entities for spaces and whitespace are gone. */
function showsNothing(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;|&#160;|&#xa0;/gi, "")
      .trim() === ""
  );
}

/** The stored form of a message: allowlisted markup only, trimmed, and '' for an empty document. */
export function sanitiseRichText(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return showsNothing(clean) ? "" : clean;
}
