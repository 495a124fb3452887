import { createElement, useMemo, type CSSProperties, type ReactNode } from 'react';
import { richTextTree, type RichTextNode } from './rich-text-tree';
import type { TranslatedText } from './translated-text';

/** `lang` and `dir` mark a translated text (forms/translated-text.ts). */
export type RichTextProps = { html: string; className?: string | undefined } & Partial<TranslatedText>;

/** The message as React elements (styles go through the DOM's style object, as CSP wants). */
export function RichTextView({ html, className, lang, dir }: RichTextProps) {
  const content = useMemo(() => richTextTree(html), [html]);
  if (!content) return null;
  return (
    <div className={className ? `rich-text ${className}` : 'rich-text'} lang={lang} dir={dir}>
      {content.map(toReact)}
    </div>
  );
}

function toReact(node: RichTextNode, key: number): ReactNode {
  if (typeof node === 'string') return node;
  const props: Record<string, unknown> = { key, ...node.attributes };
  if (node.className) props.className = node.className;
  if (node.style) props.style = reactStyle(node.style);
  return node.children.length > 0 ? createElement(node.tag, props, ...node.children.map(toReact)) : createElement(node.tag, props);
}

function reactStyle(style: Record<string, string>): CSSProperties {
  return Object.fromEntries(Object.entries(style).map(([property, value]) => [property.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()), value]));
}
