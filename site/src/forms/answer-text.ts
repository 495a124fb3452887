import { displayDate } from '../../../api/shared/form-definition';

const NO_ANSWER = '-';

/**
 * An answer as a person reads it back: dates dd/MM/yyyy, ticked options joined by commas. `label` turns a
 * chosen option (stored as the organisation's original text) into what the reporter read when choosing it.
 */
export function answerText(type: string, answer: readonly string[] | undefined, label: (value: string) => string = (value) => value): string {
  const values = (answer ?? []).filter((value) => value.trim() !== '');
  if (values.length === 0) return NO_ANSWER;
  return (type === 'Date' ? values.map(displayDate) : values.map(label)).join(', ');
}
