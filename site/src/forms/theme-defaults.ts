import type { ThemeKey } from '../../../api/shared/theme';

/**
 * The application palette (site/src/styles/base.css :root), which a form's theme falls back to.
 * tests/site/theme-defaults.test.ts reads the stylesheets so these cannot drift from them.
 */
export const PALETTE = {
  primary: '#2157c4',
  text: '#14213d',
  textMuted: '#4a5670',
  accent: '#f0705a',
  focus: '#d2462b',
  border: '#cfd6e3',
  background: '#f5f7fb',
  surface: '#ffffff',
  error: '#b42318',
  infoBackground: '#eef3fc',
  white: '#ffffff',
} as const;

const p = PALETTE;

/**
 * What each theme key shows while unset: exactly the fallback of its `var(--lt-…, fallback)` in the
 * reporters' stylesheets. The theme editor shows these as the defaults and resets to them.
 */
export const THEME_DEFAULTS: Readonly<Record<ThemeKey, string>> = {
  sectionTitleBackground: p.primary,
  sectionTitleForeground: p.white,
  sectionBodyBackground: p.surface,
  sectionBodyForeground: p.text,
  tooltipBackground: p.text,
  tooltipForeground: p.white,
  progressBarBackground: p.border,
  progressBarCompleted: p.primary,
  progressBarStepBackground: p.border,
  progressBarStepPercentage: p.text,
  progressBarStepChecked: p.primary,
  progressBarStepActive: p.primary,
  progressBarStepInactive: p.textMuted,
  nextButtonBackground: p.primary,
  nextButtonForeground: p.white,
  backButtonBackground: p.surface,
  backButtonForeground: p.primary,
  importantMessageLogo: p.accent,
  importantMessageCloseIcon: p.text,
  importantMessageBackground: p.infoBackground,
  importantMessageHeading: p.text,
  importantMessageText: p.text,
  errorText: p.error,
  singleLineInputBackground: p.surface,
  singleLineInputForeground: p.text,
  singleLineInputBorder: p.textMuted,
  multiLineInputBackground: p.surface,
  multiLineInputForeground: p.text,
  multiLineInputBorder: p.textMuted,
  radioButtonBorder: p.focus,
  radioButtonChecked: p.primary,
  checkboxButtonBorder: p.focus,
  checkboxButtonChecked: p.primary,
  selectBoxBorder: p.textMuted,
  selectBoxBackground: p.surface,
  selectBoxForeground: p.text,
  selectMenuBackground: p.surface,
  selectMenuForeground: p.text,
  // The date picker's header and buttons are the browser's own today; these match the buttons elsewhere.
  dateInputHeaderBackground: p.primary,
  dateInputHeaderForeground: p.white,
  dateInputBackground: p.surface,
  dateInputForeground: p.text,
  dateInputBorder: p.textMuted,
  dateInputButtonBackground: p.primary,
  dateInputButtonForeground: p.white,
  uploadFormBackground: p.background,
  uploadFormBorder: p.textMuted,
  uploadFormLink: p.primary,
  uploadFormText: p.text,
  uploadFormEmphasis: p.text,
  uploadFormAttachedListBackground: p.infoBackground,
  uploadFormAttachedListText: p.text,
  uploadFormAttachedListIcon: p.text,
  uploadFormDeleteButtonBackground: p.error,
  uploadFormDeleteButtonText: p.white,
  uploadFormDeleteButtonIcon: p.white,
  uploadFormAttachFilesButtonBackground: p.primary,
  uploadFormAttachFilesButtonForeground: p.white,
};
