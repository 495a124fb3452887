import type { CSSProperties } from 'react';
import { HEX_COLOUR, THEME_KEYS, type ThemeKey } from '../../../api/shared/theme';

export { THEME_KEYS, type ThemeKey };

/**
 * A form's theme colours (spec: ReportFormTheme). Each key becomes a CSS custom property
 * `--lt-<kebab-case key>`; the stylesheets fall back to the default palette (primary blue,
 * dark navy text, accent coral) for every key left unset, so only set keys travel as styles.
 */
export type { FormTheme } from '../../../api/shared/theme';

export function themeVariable(key: ThemeKey): string {
  return `--lt-${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The inline style carrying a theme's set colours; unknown keys and non-hex values are ignored. */
export function themeStyle(theme: unknown): CSSProperties {
  const style: Record<string, string> = {};
  if (typeof theme !== 'object' || theme === null) return style;
  const values = theme as Record<string, unknown>;
  for (const key of THEME_KEYS) {
    const value = values[key];
    if (typeof value === 'string' && HEX_COLOUR.test(value.trim())) style[themeVariable(key)] = value.trim();
  }
  return style as CSSProperties;
}
