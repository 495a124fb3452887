import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { THEME_KEYS, type ThemeKey } from "../../api/shared/theme.ts";
import { PALETTE, THEME_DEFAULTS } from "../../site/src/forms/theme-defaults.ts";
import { themeVariable } from "../../site/src/forms/theme.ts";

// The theme editor shows THEME_DEFAULTS as what an unset key looks like; the reporters' pages show the
// stylesheets' fallbacks. Reading the stylesheets keeps the two the same.

const SITE = join(import.meta.dir, "..", "..", "site", "src");

function stylesheets(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return stylesheets(full);
    return name.endsWith(".css") ? [full] : [];
  });
}

const rootColours = new Map(
  [...readFileSync(join(SITE, "styles", "base.css"), "utf8").matchAll(/(--color-[a-z-]+):\s*(#[0-9a-f]{3,8})\s*;/gi)].map((match) => [match[1]!, match[2]!.toLowerCase()]),
);

interface Fallback {
  key: string;
  property: string;
  fallback: string;
  file: string;
}

/** Every `property: … var(--lt-key, fallback) …` in the site's stylesheets. */
const fallbacks: Fallback[] = stylesheets(SITE).flatMap((file) =>
  readFileSync(file, "utf8")
    .split(/[;{}]/)
    .flatMap((declaration) => {
      const property = declaration.split(":")[0]!.trim();
      return [...declaration.matchAll(/var\(--lt-([a-z-]+),\s*(var\(--[a-z-]+\)|#[0-9a-f]{3,8}|currentColor)\s*\)/gi)].map((match) => ({
        key: match[1]!,
        property,
        fallback: match[2]!,
        file: file.slice(SITE.length + 1),
      }));
    }),
);

function resolve(fallback: string): string {
  const variable = /^var\((--[a-z-]+)\)$/.exec(fallback);
  if (!variable) return fallback.toLowerCase();
  const colour = rootColours.get(variable[1]!);
  if (!colour) throw new Error(`${fallback} is not a palette colour in base.css`);
  return colour;
}

/** Where a stylesheet deliberately shows something other than the key's default while it is unset. */
const DELIBERATE: Record<string, string> = {
  // The back button is outlined: white inside, primary border.
  "back-button-background border-color": "#2157c4",
  // The active step's marker is primary; its link text stays body text.
  "progress-bar-step-active color": "#14213d",
  // The attached-file icon follows its row's text colour.
  "upload-form-attached-list-icon stroke": "currentcolor",
};

/** Keys no stylesheet uses yet: the browser draws the date picker, and the delete button shows no icon. */
const UNUSED: ThemeKey[] = ["dateInputHeaderBackground", "dateInputHeaderForeground", "dateInputButtonBackground", "dateInputButtonForeground", "uploadFormDeleteButtonIcon"];

describe("theme defaults", () => {
  test("the palette is base.css's :root", () => {
    const kebab = (name: string) => `--color-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    for (const [name, colour] of Object.entries(PALETTE)) {
      if (name === "white") continue;
      expect({ name, colour: rootColours.get(kebab(name)) }).toEqual({ name, colour });
    }
  });

  test("every key has a default, and each stylesheet fallback equals it", () => {
    expect(Object.keys(THEME_DEFAULTS).sort()).toEqual([...THEME_KEYS].sort());
    expect(fallbacks.length).toBeGreaterThan(50);
    for (const key of THEME_KEYS) {
      const variable = themeVariable(key).slice("--lt-".length);
      for (const use of fallbacks.filter((found) => found.key === variable)) {
        const expected = DELIBERATE[`${variable} ${use.property}`] ?? THEME_DEFAULTS[key];
        expect({ key, property: use.property, file: use.file, colour: resolve(use.fallback) }).toEqual({ key, property: use.property, file: use.file, colour: expected });
      }
    }
  });

  test("only the listed keys are unused, and every --lt- variable in the stylesheets is a theme key", () => {
    const used = new Set(fallbacks.map((found) => found.key));
    const variables = new Set(THEME_KEYS.map((key) => themeVariable(key).slice("--lt-".length)));
    expect(THEME_KEYS.filter((key) => !used.has(themeVariable(key).slice("--lt-".length)))).toEqual(UNUSED);
    expect([...used].filter((key) => !variables.has(key))).toEqual([]);
  });
});
