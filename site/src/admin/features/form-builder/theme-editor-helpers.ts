import { HEX_COLOUR, type FormTheme, type ThemeKey } from '../../../../../api/shared/theme';
import { THEME_DEFAULTS } from '../../../forms/theme-defaults';

/** The pure parts of the theme editor: labels, validation and the changes its buttons make. */

/** 'sectionTitleBackground' → 'Section title background'. */
export function themeKeyLabel(key: ThemeKey): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A stored theme colour: trimmed, lower case, and only if it is a hex colour the server accepts. */
export function normaliseHex(value: string): string | null {
  const trimmed = value.trim().toLowerCase();
  return HEX_COLOUR.test(trimmed) ? trimmed : null;
}

/** The colour a key shows: its own value, or the palette's while it is unset. */
export function effectiveColour(theme: FormTheme, key: ThemeKey): string {
  return theme[key] ?? THEME_DEFAULTS[key];
}

/** `<input type="color">` takes #rrggbb only: short forms are widened and an alpha digit pair dropped. */
export function pickerColour(colour: string): string {
  const hex = colour.toLowerCase();
  if (hex.length === 4 || hex.length === 5) return `#${[...hex.slice(1, 4)].map((digit) => digit + digit).join('')}`;
  return hex.slice(0, 7);
}

export function setThemeColour(theme: FormTheme, key: ThemeKey, colour: string): FormTheme {
  return { ...theme, [key]: colour };
}

/** An unset key is the palette default, so resetting removes it rather than storing the default. */
export function resetThemeKey(theme: FormTheme, key: ThemeKey): FormTheme {
  const { [key]: _removed, ...rest } = theme;
  return rest;
}

export function resetAllThemeKeys(): FormTheme {
  return {};
}
