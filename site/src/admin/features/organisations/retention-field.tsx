import { RETENTION_MONTHS_MAX, RETENTION_MONTHS_MIN, RETENTION_SETTING_LABEL } from '../../../../../api/shared/retention';
import { SelectField } from '../../ui/select-field';

// Retention (docs/decisions/052-retention.md): closed reports deleted this many months after
// closing, or Off. A choice of common periods rather than free text; a value set another way (the
// API takes any whole number in bounds) stays offered so saving other settings keeps it.

const CHOICES = [1, 3, 6, 12, 18, 24, 36, 48, 60, 72, 84, 96, 108, 120].filter((months) => months >= RETENTION_MONTHS_MIN && months <= RETENTION_MONTHS_MAX);
const OFF = '';

const monthsLabel = (months: number) => (months === 1 ? '1 month' : `${months} months`);

export function RetentionField({ value, onChange }: { value: number | null; onChange: (months: number | null) => void }) {
  const months = value !== null && !CHOICES.includes(value) ? [...CHOICES, value].sort((a, b) => a - b) : CHOICES;
  return (
    <SelectField
      id="organisation-retention"
      label={RETENTION_SETTING_LABEL}
      className="organisation-retention"
      value={value === null ? OFF : String(value)}
      options={[{ value: OFF, label: 'Off' }, ...months.map((n) => ({ value: String(n), label: monthsLabel(n) }))]}
      onChange={(chosen) => onChange(chosen === OFF ? null : Number(chosen))}
    />
  );
}
