import { useState, type FormEvent } from 'react';
import { CONDITION_MATCH_TYPES, type ConditionMatchType } from '../../../../../api/shared/enums';
import { CHOICE_WIDGETS, type FormWidget, type WidgetCondition } from '../../../../../api/shared/form-definition';
import { Dialog } from '../../ui/dialog';
import { REQUIRED } from './builder-api';
import { conditionTargets, localId, TYPE_LABELS } from './builder-store';

type Rule = { id: string; conditionWidgetID: string; conditionAnswer: string };
type ConditionsDialogProps = {
  widgets: readonly FormWidget[];
  widget: FormWidget;
  onSave: (condition: WidgetCondition | null) => void;
  onClose: () => void;
};

const MATCH_LABELS: Record<ConditionMatchType, string> = { All: 'All rules match', Any: 'Any rule matches' };

/**
 * When a widget shows (spec §3, Widget condition): rules on earlier questions' answers, all or any
 * of them. Positions and options are picked from the real widgets, so a rule cannot point nowhere.
 */
export function ConditionsDialog({ widgets, widget, onSave, onClose }: ConditionsDialogProps) {
  const index = widgets.findIndex((candidate) => candidate.id === widget.id);
  const targets = conditionTargets(widgets, index);
  const [matchType, setMatchType] = useState<ConditionMatchType | ''>(widget.condition?.matchType ?? '');
  const [rules, setRules] = useState<Rule[]>(widget.condition?.rules ?? [{ id: localId(), conditionWidgetID: '', conditionAnswer: '' }]);
  const [checked, setChecked] = useState(false);

  const setRule = (id: string, patch: Partial<Rule>) => setRules(rules.map((rule) => (rule.id === id ? { ...rule, ...patch } : rule)));
  const positionProblem = (rule: Rule) => (targets.some((target) => target.id === rule.conditionWidgetID) ? undefined : REQUIRED);
  const answerProblem = (rule: Rule) => (rule.conditionAnswer.trim() === '' ? REQUIRED : undefined);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (rules.length === 0) return onSave(null);
    if (matchType === '' || rules.some((rule) => positionProblem(rule) || answerProblem(rule))) return;
    onSave({ id: widget.condition?.id ?? localId(), matchType, rules: rules.map((rule) => ({ ...rule, conditionAnswer: rule.conditionAnswer.trim() })) });
  };

  const error = (id: string, message: string | undefined) =>
    checked && message ? (
      <p className="field__error" id={id}>
        {message}
      </p>
    ) : null;

  return (
    <Dialog title={`Conditions: ${widget.title || TYPE_LABELS[widget.type]}`} onClose={onClose} wide>
      <form className="stack" noValidate onSubmit={submit}>
        {targets.length === 0 && <p className="muted">Conditions can only refer to questions above this widget; there are none yet.</p>}
        <div className="field">
          <label className="field__label" htmlFor="condition-match">
            Show this widget when
          </label>
          <select id="condition-match" className="field__input" value={matchType} aria-invalid={checked && matchType === '' ? true : undefined} onChange={(event) => setMatchType(event.target.value as ConditionMatchType | '')}>
            <option value="">Choose…</option>
            {CONDITION_MATCH_TYPES.map((type) => (
              <option key={type} value={type}>
                {MATCH_LABELS[type]}
              </option>
            ))}
          </select>
          {error('condition-match-error', matchType === '' ? REQUIRED : undefined)}
        </div>
        {rules.map((rule, number) => {
          const target = targets.find((candidate) => candidate.id === rule.conditionWidgetID);
          const base = `condition-rule-${number + 1}`;
          return (
            <fieldset key={rule.id} className="builder-rule">
              <legend className="field__label">Rule {number + 1}</legend>
              <div className="field">
                <label className="field__label" htmlFor={`${base}-position`}>
                  Question
                </label>
                <select id={`${base}-position`} className="field__input" value={target ? rule.conditionWidgetID : ''} onChange={(event) => setRule(rule.id, { conditionWidgetID: event.target.value, conditionAnswer: '' })}>
                  <option value="">Choose…</option>
                  {targets.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      #{widgets.indexOf(candidate) + 1} {candidate.title || TYPE_LABELS[candidate.type]}
                    </option>
                  ))}
                </select>
                {error(`${base}-position-error`, positionProblem(rule))}
              </div>
              <div className="field">
                <label className="field__label" htmlFor={`${base}-answer`}>
                  Answer
                </label>
                {target && CHOICE_WIDGETS.has(target.type) ? (
                  <select id={`${base}-answer`} className="field__input" value={rule.conditionAnswer} onChange={(event) => setRule(rule.id, { conditionAnswer: event.target.value })}>
                    <option value="">Choose…</option>
                    {target.answers.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input id={`${base}-answer`} className="field__input" autoComplete="off" value={rule.conditionAnswer} onChange={(event) => setRule(rule.id, { conditionAnswer: event.target.value })} />
                )}
                {error(`${base}-answer-error`, answerProblem(rule))}
              </div>
              <button type="button" className="button button--secondary button--small" onClick={() => setRules(rules.filter((other) => other.id !== rule.id))}>
                Remove Rule {number + 1}
              </button>
            </fieldset>
          );
        })}
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setRules([...rules, { id: localId(), conditionWidgetID: '', conditionAnswer: '' }])}>
            Add Rule
          </button>
        </div>
        <div className="actions dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button">
            {rules.length === 0 ? 'Remove Condition' : 'Save Condition'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
