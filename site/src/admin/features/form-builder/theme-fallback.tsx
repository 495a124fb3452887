import { THEME_GROUPS, type FormTheme } from '../../../../../api/shared/theme';
import type { ThemeEditorProps } from './editor-slots';

/** The theme's colours as hex texts by group, for as long as the theme editor is not part of the build. */
export function ThemeFallback({ value, onChange, disabled }: ThemeEditorProps) {
  return (
    <div className="stack">
      {THEME_GROUPS.map((group) => (
        <details key={group.label}>
          <summary>{group.label}</summary>
          <div className="builder-theme-grid">
            {group.keys.map((key) => (
              <div className="field" key={key}>
                <label className="field__label" htmlFor={`theme-${key}`}>
                  {key}
                </label>
                <input
                  id={`theme-${key}`}
                  className="field__input"
                  value={value[key] ?? ''}
                  placeholder="Default"
                  disabled={disabled}
                  onChange={(event) => onChange({ ...value, [key]: event.target.value } satisfies FormTheme)}
                />
              </div>
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
