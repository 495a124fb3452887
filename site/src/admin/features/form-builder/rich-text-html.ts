import { DOMParser as ProseParser, DOMSerializer, type Node as ProseNode, type Schema } from '@milkdown/kit/prose/model';
import { hexFromStyle } from './rich-text-schema';

/**
 * Messages travel as HTML (api/shared/rich-text.ts), never markdown: these read stored HTML into the
 * editor's document and write the document back out.
 */

/** An inert document: nothing parsed into it runs scripts or loads images, whatever the stored HTML says. */
export function inertBody(html: string): HTMLElement {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html').body;
}

export function htmlToDoc(schema: Schema, html: string): ProseNode {
  return ProseParser.fromSchema(schema).parse(inertBody(html));
}

/** The document with no text in it is the empty message, stored as ''. */
export function docToHtml(schema: Schema, doc: ProseNode): string {
  let hasContent = false;
  doc.descendants((node) => {
    if (node.isText || node.type.name === 'hardbreak') hasContent = true;
    return !hasContent;
  });
  if (!hasContent) return '';
  const container = inertBody('');
  container.appendChild(DOMSerializer.fromSchema(schema).serializeFragment(doc.content, { document: container.ownerDocument }));
  for (const element of container.querySelectorAll<HTMLElement>('[style]')) element.setAttribute('style', storedStyle(element.style));
  return container.innerHTML.trim();
}

/**
 * ProseMirror writes styles through the CSSOM (so a strict style-src would allow them), which turns
 * colours into rgb(); the allowlist keeps hex only, so each style is written back in the stored form.
 */
function storedStyle(style: CSSStyleDeclaration): string {
  const declarations: string[] = [];
  if (style.textAlign) declarations.push(`text-align: ${style.textAlign}`);
  const colour = hexFromStyle(style.color);
  if (colour) declarations.push(`color: ${colour}`);
  const background = hexFromStyle(style.backgroundColor);
  if (background) declarations.push(`background-color: ${background}`);
  return declarations.join('; ');
}
