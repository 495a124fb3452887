import { useEffect, useRef, useState } from 'react';
import { displayDate, isIsoDate } from '../../../../api/shared/form-definition';

type DateInputProps = {
  id: string;
  label: string;
  /** YYYY-MM-DD, or '' for no date. */
  value: string;
  min?: string | undefined;
  max: string;
  onChange: (value: string) => void;
};

const DISPLAY_PATTERN = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
export const DATE_FORMAT_PROBLEM = 'Enter the date as dd/MM/yyyy';

/** 'dd/MM/yyyy' typed by a person, as YYYY-MM-DD; undefined when it is not a real date. */
export function parseDisplayDate(text: string): string | undefined {
  const match = DISPLAY_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : undefined;
}

/**
 * A date typed as dd/MM/yyyy (the spec's format, whatever the browser's locale), with the
 * browser's own calendar behind a button; the calendar offers no day after `max`.
 */
export function DateInput({ id, label, value, min, max, onChange }: DateInputProps) {
  const [text, setText] = useState(value ? displayDate(value) : '');
  const picker = useRef<HTMLInputElement>(null);
  const problem = text.trim() !== '' && parseDisplayDate(text) === undefined ? DATE_FORMAT_PROBLEM : undefined;

  // A value set from outside (the calendar, Clear) replaces what was typed.
  useEffect(() => {
    setText((current) => {
      const typed = current.trim() === '' ? '' : parseDisplayDate(current);
      if (typed === value) return current;
      return value ? displayDate(value) : '';
    });
  }, [value]);

  const type = (next: string) => {
    setText(next);
    if (next.trim() === '') onChange('');
    else {
      const iso = parseDisplayDate(next);
      if (iso) onChange(iso);
    }
  };

  const openCalendar = () => {
    try {
      picker.current?.showPicker();
    } catch {
      picker.current?.focus();
    }
  };

  return (
    <div className="field date-input">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="date-input__control">
        <input
          id={id}
          className="field__input date-input__text"
          type="text"
          inputMode="numeric"
          placeholder="dd/MM/yyyy"
          value={text}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => type(event.target.value)}
        />
        <button type="button" className="date-input__calendar" aria-label={`Choose ${label.toLowerCase()} date`} onClick={openCalendar}>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path d="M7 2v2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2h-2V2h-2v2H9V2Zm-2 8h14v10H5Z" fill="currentColor" />
          </svg>
        </button>
        <input
          ref={picker}
          className="date-input__picker"
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          value={value}
          min={min || undefined}
          max={max}
          onChange={(event) => {
            onChange(event.target.value);
            setText(event.target.value ? displayDate(event.target.value) : '');
          }}
        />
      </div>
      {problem && (
        <p className="field__error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </div>
  );
}
