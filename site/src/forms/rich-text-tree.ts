import {
  RICH_TEXT_ELEMENTS,
  RICH_TEXT_LINK,
  RICH_TEXT_MAX_INDENT,
  RICH_TEXT_NO_TRANSLATE,
  RICH_TEXT_STYLES,
} from '../../../api/shared/rich-text';

/**
 * A form message as reporters (and the builder's preview) see it. The server stores sanitised HTML
 * (api/shared/rich-text.ts); this parses it in an inert document and keeps only the allowlisted
 * elements, attributes and styles, as a plain tree that React (rich-text-view.tsx) or the DOM
 * (rich-text-dom.ts) turns into elements, so no markup string ever reaches the page and anything
 * the sanitiser should have removed is dropped again here (its text kept).
 * A message without tags is plain text: its line breaks are kept.
 * Messages only exist in the browser (the server injects them after the build), so without a
 * DOMParser (the static build) nothing renders.
 */
export type RichTextNode = string | RichTextElement;
export type RichTextElement = {
  tag: string;
  className?: string;
  /** Allowlisted CSS properties (kebab-case) and their values. */
  style?: Record<string, string>;
  /** href, rel, target and translate: the only attributes a message keeps. */
  attributes?: Record<string, string>;
  children: RichTextNode[];
};

/** Elements whose content is code or embedded media, never message text: dropped whole. */
const DROPPED_WITH_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'head', 'title', 'textarea', 'select']);

/**
 * The page around a message already has its h1 (the step's title), so the editor's two heading
 * levels sit one below it; their classes keep the editor's sizes.
 */
const RENDERED_TAG: Readonly<Record<string, string>> = { h1: 'h2', h2: 'h3' };

/** Lists hold list items only; the whitespace between them is markup layout, not text. */
const NO_TEXT_CHILDREN = new Set(['ul', 'ol']);

/**
 * Chromium checks the page's CSP as soon as a parser meets an event-handler attribute (onerror=…),
 * even in DOMParser's inert document where nothing runs, and reports a violation for each. So
 * before parsing, every name that could be one (`on…` after a space, slash or quote) gets a
 * private-use mark in front, which no handler name starts with; text and kept attribute values
 * lose the mark again when read.
 */
const SHIELD = '\uE000';
const shield = (html: string) => html.replace(/([\s"'/])(on[a-z])/gi, `$1${SHIELD}$2`);
const unshield = (text: string) => text.replaceAll(SHIELD, '');

/** The message's allowlisted content, or null when there is nothing to show. */
export function richTextTree(html: string): RichTextNode[] | null {
  if (html.trim() === '' || typeof DOMParser === 'undefined') return null;
  // DOMParser's document has no browsing context: nothing in it loads or runs.
  const body = new DOMParser().parseFromString(shield(html), 'text/html').body;
  if (!/<[a-z!/]/i.test(html)) return plainText(unshield(body.textContent ?? ''));
  const nodes = treeOfChildren(body, false);
  return nodes.length > 0 ? nodes : null;
}

/** Paragraphs at blank lines, line breaks within them. */
function plainText(text: string): RichTextNode[] | null {
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim() !== '');
  if (paragraphs.length === 0) return null;
  return paragraphs.map((paragraph) => ({
    tag: 'p',
    children: paragraph.split('\n').flatMap((line, index): RichTextNode[] => (index > 0 ? [{ tag: 'br', children: [] }, line] : [line])),
  }));
}

/** Children in order; an element that is not allowed leaves its children in its place. */
function treeOfChildren(parent: Node, skipText: boolean): RichTextNode[] {
  const out: RichTextNode[] = [];
  parent.childNodes.forEach((node) => out.push(...treeOfNode(node, skipText)));
  return out;
}

function treeOfNode(node: Node, skipText: boolean): RichTextNode[] {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = unshield(node.textContent ?? '');
    return skipText && text.trim() === '' ? [] : [text];
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const element = node as Element;
  const tag = element.localName;
  if (DROPPED_WITH_CONTENT.has(tag)) return [];
  const children = treeOfChildren(element, NO_TEXT_CHILDREN.has(tag));
  if (!Object.hasOwn(RICH_TEXT_ELEMENTS, tag)) return children;

  const out: RichTextElement = { tag: RENDERED_TAG[tag] ?? tag, children: tag === 'br' ? [] : children };
  const style = allowedStyle(unshield(element.getAttribute('style') ?? ''));
  if (style) out.style = style;
  const attributes: Record<string, string> = {};
  if (element.getAttribute('translate') === RICH_TEXT_NO_TRANSLATE) attributes.translate = 'no';
  const classes = [RENDERED_TAG[tag] ? `rt-${tag}` : '', indentClass(element.getAttribute('data-indent'))].filter(Boolean);
  if (classes.length > 0) out.className = classes.join(' ');

  if (tag === 'a') {
    const href = unshield(element.getAttribute('href') ?? '').trim();
    // A link that may not leave for the web or mail is only its text.
    if (!RICH_TEXT_LINK.test(href)) return children;
    Object.assign(attributes, { href, rel: 'noopener noreferrer', target: '_blank' });
    // Leaving the report in a new tab keeps the reporter's place; a screen reader is told so.
    if (!href.toLowerCase().startsWith('mailto:')) children.push({ tag: 'span', className: 'visually-hidden', children: [' (opens in a new tab)'] });
  }
  if (Object.keys(attributes).length > 0) out.attributes = attributes;
  return [out];
}

/** The style attribute's allowlisted properties and values. */
function allowedStyle(attribute: string): Record<string, string> | undefined {
  if (!attribute) return undefined;
  const style: Record<string, string> = {};
  for (const declaration of attribute.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    const allowed = Object.hasOwn(RICH_TEXT_STYLES, property) ? RICH_TEXT_STYLES[property] : undefined;
    if (allowed?.test(value)) style[property] = value;
  }
  return Object.keys(style).length > 0 ? style : undefined;
}

function indentClass(value: string | null): string {
  if (!value || !/^[1-9]$/.test(value)) return '';
  return Number(value) <= RICH_TEXT_MAX_INDENT ? `rt-indent-${value}` : '';
}
