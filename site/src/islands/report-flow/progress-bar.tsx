import type { StepKey } from './report-routes';
import { progressPercentage, type Step } from './report-steps';

type ProgressBarProps = {
  steps: readonly Step[];
  currentIndex: number;
  completed: ReadonlySet<StepKey>;
  flagged: ReadonlySet<StepKey>;
  /** On the finish page no step can be revisited. */
  disabled: boolean;
  onSelect: (key: StepKey) => void;
};

function stepState(key: StepKey, index: number, currentIndex: number, completed: ReadonlySet<StepKey>, flagged: ReadonlySet<StepKey>): string {
  if (index === currentIndex) return 'active';
  if (flagged.has(key)) return 'flagged';
  if (completed.has(key)) return 'checked';
  return 'inactive';
}

// Completed and flagged steps are buttons; the others are plain text, so
// keyboard users only meet steps they can actually go to.
export function ProgressBar({ steps, currentIndex, completed, flagged, disabled, onSelect }: ProgressBarProps) {
  const percentage = progressPercentage(currentIndex, steps.length);
  return (
    <nav className="report-progress" aria-label="Report steps">
      <div className="report-progress__track">
        <div
          className="report-progress__bar"
          role="progressbar"
          aria-label="Report progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percentage}
        >
          <div className="report-progress__fill" style={{ width: `${percentage}%` }} />
        </div>
        <span className="report-progress__percentage" aria-hidden="true">
          {percentage}%
        </span>
      </div>
      <ol className="report-progress__steps">
        {steps.map((step, index) => {
          const state = stepState(step.key, index, currentIndex, completed, flagged);
          const clickable = !disabled && index !== currentIndex && (state === 'checked' || state === 'flagged');
          const label = (
            <>
              <span className="report-progress__marker" aria-hidden="true">
                {state === 'checked' ? '✓' : state === 'flagged' ? '!' : index + 1}
              </span>
              <span className="report-progress__label">{step.label}</span>
              {state === 'flagged' && <span className="visually-hidden"> (needs attention)</span>}
            </>
          );
          return (
            <li key={step.key} className={`report-progress__step report-progress__step--${state}`} aria-current={index === currentIndex ? 'step' : undefined}>
              {clickable ? (
                <button type="button" className="report-progress__link" onClick={() => onSelect(step.key)}>
                  {label}
                </button>
              ) : (
                <span className="report-progress__link">{label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
