/**
 * What a form's rich-text message may contain (spec §5: headers 1 and 2, bold, italic, underline,
 * strike, blockquote, lists, indent, align, colour, background, link, 'do not translate').
 * The server's sanitiser keeps exactly this; the reporters' renderer rebuilds exactly this as React
 * elements, so a stored message never needs inline styles in markup or a weaker CSP.
 */

/** Elements kept, each with the attributes it may carry (besides the shared ones below). */
export const RICH_TEXT_ELEMENTS: Readonly<Record<string, readonly string[]>> = {
  p: [],
  h1: [],
  h2: [],
  strong: [],
  em: [],
  u: [],
  s: [],
  blockquote: [],
  ul: [],
  ol: [],
  li: [],
  br: [],
  span: [],
  a: ["href"],
};

/** Attributes any kept element may carry. */
export const RICH_TEXT_SHARED_ATTRIBUTES = ["style", "translate", "data-indent"] as const;

/** Style properties kept, each with the values it may take. */
export const RICH_TEXT_STYLES: Readonly<Record<string, RegExp>> = {
  color: /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i,
  "background-color": /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i,
  "text-align": /^(?:left|center|right|justify)$/,
};

/** Indent levels (data-indent="1".."8") on paragraphs, headings and list items. */
export const RICH_TEXT_MAX_INDENT = 8;

/** Links may only leave for the web or mail; never javascript:, data: or relative paths. */
export const RICH_TEXT_LINK = /^(?:https?:\/\/|mailto:)/i;

/** 'do not translate' is the HTML standard's translate="no", which translation tools honour. */
export const RICH_TEXT_NO_TRANSLATE = "no";

/** Stored HTML is bounded after sanitising. */
export const RICH_TEXT_MAX_LENGTH = 100_000;
