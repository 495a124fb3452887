import type { Ctx } from '@milkdown/kit/ctx';
import type { MarkSchema, NodeSchema } from '@milkdown/kit/transformer';
import type { DOMOutputSpec, Node as ProseNode, TagParseRule } from '@milkdown/kit/prose/model';
import { $markSchema } from '@milkdown/kit/utils';
import {
  blockquoteAttr,
  blockquoteSchema,
  bulletListAttr,
  bulletListSchema,
  docSchema,
  emphasisAttr,
  emphasisSchema,
  hardbreakAttr,
  hardbreakSchema,
  headingAttr,
  headingIdGenerator,
  headingSchema,
  linkAttr,
  linkSchema,
  listItemAttr,
  listItemSchema,
  orderedListAttr,
  orderedListSchema,
  paragraphAttr,
  paragraphSchema,
  strongAttr,
  strongSchema,
  textSchema,
} from '@milkdown/kit/preset/commonmark';
import { strikethroughAttr, strikethroughSchema } from '@milkdown/kit/preset/gfm';
import { RICH_TEXT_LINK, RICH_TEXT_MAX_INDENT, RICH_TEXT_NO_TRANSLATE, RICH_TEXT_STYLES } from '../../../../../api/shared/rich-text';

/**
 * The editor's document model, shaped after api/shared/rich-text.ts: commonmark's nodes and marks
 * where they fit (their commands and markdown handling come along), narrowed and extended so that
 * parsing reads exactly the allowlisted HTML and toDOM writes nothing the server would strip.
 */

export const ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

const HEX = RICH_TEXT_STYLES.color!;
const ALIGN = RICH_TEXT_STYLES['text-align']!;

/** A hex colour from a style value; browsers and pasted documents also say rgb(), which is converted. */
export function hexFromStyle(value: string): string | null {
  const trimmed = value.trim().toLowerCase();
  if (HEX.test(trimmed)) return trimmed;
  const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(trimmed);
  if (!rgb) return null;
  const parts = rgb.slice(1).map(Number);
  if (parts.some((part) => part > 255)) return null;
  return `#${parts.map((part) => part.toString(16).padStart(2, '0')).join('')}`;
}

export function isSafeLink(href: string): boolean {
  return RICH_TEXT_LINK.test(href.trim());
}

function readIndent(dom: HTMLElement): number {
  const value = Number(dom.getAttribute('data-indent'));
  return Number.isInteger(value) && value >= 1 && value <= RICH_TEXT_MAX_INDENT ? value : 0;
}

function readAlign(dom: HTMLElement): Alignment | null {
  const value = dom.style.textAlign;
  return ALIGN.test(value) && value !== 'left' ? (value as Alignment) : null;
}

/** Left is the default: it is written as no style at all, so a plain paragraph stays `<p>`. */
function blockAttrs(node: ProseNode): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (node.attrs.align) attrs.style = `text-align: ${node.attrs.align}`;
  if (node.attrs.indent) attrs['data-indent'] = String(node.attrs.indent);
  return attrs;
}

const blockAttrSpec = {
  align: { default: null, validate: 'string|null' },
  indent: { default: 0, validate: 'number' },
} as const;

const readBlockAttrs = (dom: HTMLElement) => ({ align: readAlign(dom), indent: readIndent(dom) });

type Extend<T> = (prev: (ctx: Ctx) => T) => (ctx: Ctx) => T;

/** Wraps commonmark's schema with our DOM reading and writing; its markdown handlers stay. */
function htmlShape<T extends NodeSchema | MarkSchema>(shape: Partial<T>): Extend<T> {
  return (prev) => (ctx) => ({ ...prev(ctx), ...shape });
}

const paragraph = paragraphSchema.extendSchema(
  htmlShape<NodeSchema>({
    attrs: blockAttrSpec,
    parseDOM: [{ tag: 'p', getAttrs: (dom) => readBlockAttrs(dom as HTMLElement) }],
    toDOM: (node) => ['p', blockAttrs(node), 0],
  }),
);

/** Only headers 1 and 2 exist; the level is clamped so no command can make an h3 the server would drop. */
const heading = headingSchema.extendSchema(
  htmlShape<NodeSchema>({
    attrs: { ...blockAttrSpec, id: { default: '', validate: 'string' }, level: { default: 1, validate: 'number' } },
    parseDOM: [1, 2].map((level) => ({ tag: `h${level}`, getAttrs: (dom: HTMLElement) => ({ ...readBlockAttrs(dom), level }) })),
    toDOM: (node) => [`h${Math.min(Math.max(node.attrs.level, 1), 2)}`, blockAttrs(node), 0],
  }),
);

const blockquote = blockquoteSchema.extendSchema(htmlShape<NodeSchema>({ toDOM: () => ['blockquote', 0] }));
const bulletList = bulletListSchema.extendSchema(htmlShape<NodeSchema>({ toDOM: () => ['ul', 0] }));
const orderedList = orderedListSchema.extendSchema(
  htmlShape<NodeSchema>({ parseDOM: [{ tag: 'ol', getAttrs: () => ({ order: 1 }) }], toDOM: () => ['ol', 0] }),
);

const listItem = listItemSchema.extendSchema((prev) => (ctx) => {
  const base = prev(ctx);
  return {
    ...base,
    attrs: { ...base.attrs, indent: { default: 0, validate: 'number' } },
    parseDOM: [{ tag: 'li', getAttrs: (dom) => ({ indent: readIndent(dom as HTMLElement) }) }],
    toDOM: (node: ProseNode): DOMOutputSpec => ['li', node.attrs.indent ? { 'data-indent': String(node.attrs.indent) } : {}, 0],
  };
});

const hardbreak = hardbreakSchema.extendSchema(
  htmlShape<NodeSchema>({ parseDOM: [{ tag: 'br' }], toDOM: () => ['br'] }),
);

const strong = strongSchema.extendSchema(htmlShape<MarkSchema>({ toDOM: () => ['strong', 0] }));
const emphasis = emphasisSchema.extendSchema(
  htmlShape<MarkSchema>({ parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }], toDOM: () => ['em', 0] }),
);
const strike = strikethroughSchema.extendSchema(
  htmlShape<MarkSchema>({
    parseDOM: [{ tag: 's' }, { tag: 'del' }, { tag: 'strike' }, { style: 'text-decoration-line=line-through' }],
    toDOM: () => ['s', 0],
  }),
);

/** A link that is not http(s) or mailto is read as plain text: the server would strip it anyway. */
const link = linkSchema.extendSchema((prev) => (ctx) => {
  const base = prev(ctx);
  const rule: TagParseRule = {
    tag: 'a[href]',
    getAttrs: (dom) => {
      const href = (dom as HTMLElement).getAttribute('href') ?? '';
      return isSafeLink(href) ? { href: href.trim(), title: null } : false;
    },
  };
  return { ...base, parseDOM: [rule], toDOM: (mark) => ['a', { href: mark.attrs.href }, 0] };
});

/**
 * Markdown has no syntax for underline, colour or 'do not translate'. This editor reads and writes HTML
 * only, so these marks never meet markdown; if anything asks for markdown they keep their text, unmarked.
 */
const noMarkdown = {
  parseMarkdown: { match: () => false, runner: () => undefined },
  toMarkdown: { match: () => false, runner: () => undefined },
};

export const underlineSchema = $markSchema('underline', () => ({
  parseDOM: [{ tag: 'u' }, { style: 'text-decoration-line=underline' }, { style: 'text-decoration=underline' }],
  toDOM: () => ['u', 0],
  ...noMarkdown,
}));

function colourMark(id: 'textColour' | 'backgroundColour', property: 'color' | 'background-color') {
  return $markSchema(id, () => ({
    attrs: { colour: { validate: 'string' } },
    parseDOM: [
      {
        style: property,
        getAttrs: (value: string) => {
          const colour = hexFromStyle(value);
          return colour ? { colour } : false;
        },
      },
    ],
    toDOM: (mark) => ['span', { style: `${property}: ${mark.attrs.colour}` }, 0],
    ...noMarkdown,
  }));
}

export const textColourSchema = colourMark('textColour', 'color');
export const backgroundColourSchema = colourMark('backgroundColour', 'background-color');

/** 'do not translate' is translate="no" (the HTML standard), which translation tools honour. */
export const noTranslateSchema = $markSchema('noTranslate', () => ({
  parseDOM: [{ tag: `span[translate="${RICH_TEXT_NO_TRANSLATE}"]` }],
  toDOM: () => ['span', { translate: RICH_TEXT_NO_TRANSLATE }, 0],
  ...noMarkdown,
}));

/** Everything the editor's schema needs, in one list for Editor.use(). */
export const richTextSchema = [
  [paragraphAttr, headingAttr, headingIdGenerator, blockquoteAttr, bulletListAttr, orderedListAttr, listItemAttr, hardbreakAttr],
  [strongAttr, emphasisAttr, linkAttr, strikethroughAttr],
  docSchema,
  textSchema,
  paragraph,
  heading,
  blockquote,
  bulletList,
  orderedList,
  listItem,
  hardbreak,
  strong,
  emphasis,
  strike,
  link,
  underlineSchema,
  textColourSchema,
  backgroundColourSchema,
  noTranslateSchema,
].flat();
