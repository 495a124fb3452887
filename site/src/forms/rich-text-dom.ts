import { richTextTree, type RichTextNode } from './rich-text-tree';

/**
 * The message as DOM nodes, for pages without React (the organisation page).
 * The page imports rich-text.css itself, so the styles are there before this is fetched. Styles are set
 * through the style object, which CSP allows, never as an attribute.
 */
export function richTextElement(html: string): HTMLDivElement | null {
  const content = richTextTree(html);
  if (!content) return null;
  const container = document.createElement('div');
  container.className = 'rich-text';
  container.append(...content.map(toDom));
  return container;
}

function toDom(node: RichTextNode): Node {
  if (typeof node === 'string') return document.createTextNode(node);
  const element = document.createElement(node.tag);
  if (node.className) element.className = node.className;
  for (const [name, value] of Object.entries(node.attributes ?? {})) element.setAttribute(name, value);
  for (const [property, value] of Object.entries(node.style ?? {})) element.style.setProperty(property, value);
  element.append(...node.children.map(toDom));
  return element;
}
