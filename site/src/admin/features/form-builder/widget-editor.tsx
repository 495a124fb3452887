import { CHOICE_WIDGETS, type FormWidget } from '../../../../../api/shared/form-definition';
import type { BuilderAction } from './builder-store';
import { OptionsInput } from './options-input';

type WidgetEditorProps = {
  widget: FormWidget;
  dispatch: (action: BuilderAction) => void;
  problems: Readonly<Record<string, string>>;
  disabled: boolean;
  autoFocus?: boolean;
};

type TextProps = { id: string; label: string; value: string; onChange: (value: string) => void; error?: string | undefined; disabled: boolean; multiline?: boolean; autoFocus?: boolean };

function Text({ id, label, value, onChange, error, disabled, multiline, autoFocus }: TextProps) {
  const shared = {
    id,
    autoFocus,
    className: 'field__input',
    value,
    disabled,
    autoComplete: 'off',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? <textarea {...shared} rows={2} onChange={(event) => onChange(event.target.value)} /> : <input {...shared} onChange={(event) => onChange(event.target.value)} />}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** One widget's own fields: what the reporter reads and must answer. */
export function WidgetEditor({ widget, dispatch, problems, disabled, autoFocus = false }: WidgetEditorProps) {
  const base = `widget-${widget.id}`;
  const update = (patch: Partial<Omit<FormWidget, 'id' | 'type' | 'condition'>>) => dispatch({ type: 'update', id: widget.id, patch });
  const isSection = widget.type === 'Section';
  const asksAnswer = !isSection && widget.type !== 'Note';
  const pageBreak = isSection && widget.pageName !== null;
  return (
    <div className="builder-widget__editor stack">
      {pageBreak && (
        <Text id={`${base}-page`} label="Page Name" value={widget.pageName ?? ''} onChange={(pageName) => update({ pageName })} error={problems[`${base}-page`]} disabled={disabled} autoFocus={autoFocus} />
      )}
      <Text
        id={`${base}-title`}
        label={isSection ? 'Section Title' : widget.type === 'Note' ? 'Note Title' : 'Question'}
        value={widget.title}
        onChange={(title) => update({ title })}
        error={problems[`${base}-title`]}
        disabled={disabled}
        autoFocus={autoFocus && !pageBreak}
      />
      {asksAnswer && (
        <label className="builder-check">
          <input type="checkbox" checked={widget.required} disabled={disabled} onChange={(event) => update({ required: event.target.checked })} />
          <span>Required</span>
        </label>
      )}
      {CHOICE_WIDGETS.has(widget.type) && (
        <OptionsInput id={`${base}-options`} options={widget.answers} onChange={(answers) => update({ answers })} error={problems[`${base}-options`]} disabled={disabled} />
      )}
      <Text id={`${base}-tooltip`} label="Tooltip" value={widget.tooltip} onChange={(tooltip) => update({ tooltip })} disabled={disabled} />
      <Text id={`${base}-caption`} label={widget.type === 'Note' ? 'Note Text' : 'Caption'} value={widget.caption} onChange={(caption) => update({ caption })} disabled={disabled} multiline />
    </div>
  );
}
