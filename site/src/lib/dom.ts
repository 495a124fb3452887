// Building elements without a framework, for the pages that ship no React (the organisation
// page). Text always goes in as text nodes, never as markup.

type Attributes = Readonly<Record<string, string | boolean | undefined>>;
export type Child = Node | string | false | null | undefined;

/** An element with attributes (false or undefined leaves one out, true sets it empty) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  element.append(...children.filter((child): child is Node | string => child !== false && child !== null && child !== undefined));
  return element;
}
