import type { Page } from "playwright-core";

export interface LowContrast {
  text: string;
  ratio: number;
  required: number;
  where: string;
}

/**
 * Every piece of text drawn on the page now whose contrast with what is behind it is below WCAG AA
 * (4.5:1, or 3:1 for large text). Unlike axe-core it also measures what axe leaves out, because a
 * sighted user still has to read it: text hidden from screen readers (a badge's count that is read
 * out in other words), disabled controls that say something ('Exporting…') and placeholders.
 * Colours are composed up the element's ancestors, opacity included; background images are not.
 */
export async function lowContrastTexts(page: Page, within = "body"): Promise<LowContrast[]> {
  return page.evaluate((selector) => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba, alpha = top[3]): Rgba => [0, 1, 2].map((i) => top[i]! * alpha + bottom[i]! * (1 - alpha)).concat(1) as Rgba;
    const luminance = (colour: Rgba) => {
      const [r, g, b] = colour.slice(0, 3).map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    /** The text colour and the colour behind it, as drawn, for `chain` (root first) with `text` on the last. */
    const drawn = (chain: Element[], text: Rgba, base: Rgba): [Rgba, Rgba] => {
      const [node, ...rest] = chain;
      const style = getComputedStyle(node!);
      const here = over(parse(style.backgroundColor), base);
      const [fg, bg] = rest.length === 0 ? [over(text, here), here] : drawn(rest, text, here);
      const opacity = Number(style.opacity);
      return opacity < 1 ? [over(fg, base, opacity), over(bg, base, opacity)] : [fg, bg];
    };
    const ancestry = (element: Element) => {
      const chain: Element[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) chain.unshift(node);
      return chain;
    };
    const white: Rgba = [255, 255, 255, 1];
    const large = (style: CSSStyleDeclaration) => {
      const size = parseFloat(style.fontSize);
      return size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true });
    };
    const describe = (element: Element) => `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""}`;
    const problems: { text: string; ratio: number; required: number; where: string }[] = [];
    const check = (element: Element, text: string, colour: string) => {
      const style = getComputedStyle(element);
      const [fg, bg] = drawn(ancestry(element), parse(colour), white);
      const required = large(style) ? 3 : 4.5;
      const measured = Math.round(ratio(fg, bg) * 100) / 100;
      if (measured < required) problems.push({ text: text.trim().slice(0, 40), ratio: measured, required, where: describe(element) });
    };
    for (const element of document.querySelectorAll(`${selector}, ${selector} *`)) {
      if (!shown(element)) continue;
      const ownText = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? "").join("");
      if (ownText.trim()) check(element, ownText, getComputedStyle(element).color);
      const placeholder = element.getAttribute("placeholder");
      if (placeholder && (element as HTMLInputElement).value === "") check(element, `placeholder: ${placeholder}`, getComputedStyle(element, "::placeholder").color);
    }
    return problems;
  }, within);
}
