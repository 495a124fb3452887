import { passwordStrength } from '../../../api/shared/password-rule';

const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

// The password strength bar of the spec (10px high), shared by the reporter's
// change-password form and the console's password forms.
export function StrengthBar({ password }: { password: string }) {
  const strength = passwordStrength(password);
  return (
    <div className="strength">
      <div className="strength__bar" role="meter" aria-label="Password strength" aria-valuemin={0} aria-valuemax={4} aria-valuenow={strength} aria-valuetext={LABELS[strength]}>
        <div className={`strength__fill strength__fill--${strength}`} style={{ width: `${(strength / 4) * 100}%` }} />
      </div>
      <span className="strength__label" aria-hidden="true">
        {password ? LABELS[strength] : ''}
      </span>
    </div>
  );
}
