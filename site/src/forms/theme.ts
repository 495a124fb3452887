import type { CSSProperties } from 'react';

/**
 * A form's theme colours (spec: ReportFormTheme). Each key becomes a CSS custom property
 * `--lt-<kebab-case key>`; the stylesheets fall back to the default palette (primary blue,
 * dark navy text, accent coral) for every key left unset, so only set keys travel as styles.
 */
export const THEME_KEYS = [
  'sectionTitleBackground',
  'sectionTitleForeground',
  'sectionBodyBackground',
  'sectionBodyForeground',
  'tooltipBackground',
  'tooltipForeground',
  'progressBarBackground',
  'progressBarCompleted',
  'progressBarStepBackground',
  'progressBarStepPercentage',
  'progressBarStepChecked',
  'progressBarStepActive',
  'progressBarStepInactive',
  'nextButtonBackground',
  'nextButtonForeground',
  'backButtonBackground',
  'backButtonForeground',
  'importantMessageLogo',
  'importantMessageCloseIcon',
  'importantMessageBackground',
  'importantMessageHeading',
  'importantMessageText',
  'errorText',
  'singleLineInputBackground',
  'singleLineInputForeground',
  'singleLineInputBorder',
  'multiLineInputBackground',
  'multiLineInputForeground',
  'multiLineInputBorder',
  'radioButtonBorder',
  'radioButtonChecked',
  'checkboxButtonBorder',
  'checkboxButtonChecked',
  'selectBoxBorder',
  'selectBoxBackground',
  'selectBoxForeground',
  'selectMenuBackground',
  'selectMenuForeground',
  'dateInputHeaderBackground',
  'dateInputHeaderForeground',
  'dateInputBackground',
  'dateInputForeground',
  'dateInputBorder',
  'dateInputButtonBackground',
  'dateInputButtonForeground',
  'uploadFormBackground',
  'uploadFormBorder',
  'uploadFormLink',
  'uploadFormText',
  'uploadFormEmphasis',
  'uploadFormAttachedListBackground',
  'uploadFormAttachedListText',
  'uploadFormAttachedListIcon',
  'uploadFormDeleteButtonBackground',
  'uploadFormDeleteButtonText',
  'uploadFormDeleteButtonIcon',
  'uploadFormAttachFilesButtonBackground',
  'uploadFormAttachFilesButtonForeground',
] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export type FormTheme = Partial<Record<ThemeKey, string>>;

// Hex colours only: a theme value ends up in a style attribute, and anything
// else (url(), var(), expressions) could make the page fetch or misbehave.
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

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
