import { useState } from 'react';
import { useMutation } from 'urql';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { TRANSLATION_SAVED, TRANSLATION_UPDATE, type ReviewItem } from './translations-api';

type Props = { formID: string; lang: string; item: ReviewItem; onSaved: (item: ReviewItem) => void };

/**
 * One text under review: the original, the machine's translation and staff's own, saved on its own.
 * Rich text is shown and edited as its HTML (docs/decisions/045-translation-review.md): the server
 * cleans it like the original and keeps its 'do not translate' spans.
 */
export function TranslationRow({ formID, lang, item, onSaved }: Props) {
  const [draft, setDraft] = useState(item.overrideText ?? '');
  const [reviewed, setReviewed] = useState(item.reviewed);
  const [error, setError] = useState<string>();
  const [{ fetching }, save] = useMutation<{ reportFormTranslationUpdate: ReviewItem }>(TRANSLATION_UPDATE);
  const id = `translation-${item.name.replace(/[^\w-]/g, '-')}`;
  const changed = draft !== (item.overrideText ?? '') || reviewed !== item.reviewed;
  const html = item.format === 'HTML';

  const submit = async () => {
    setError(undefined);
    const result = await save({ input: { reportFormID: formID, lang, name: item.name, translatedText: draft.trim() === '' ? null : draft, reviewed } });
    const saved = result.data?.reportFormTranslationUpdate;
    if (result.error || !saved) return setError(errorMessage(result.error) ?? 'The translation could not be saved. Please try again.');
    setDraft(saved.overrideText ?? '');
    setReviewed(saved.reviewed);
    onSaved(saved);
    notify(TRANSLATION_SAVED);
  };

  return (
    <article className="card stack translation-row" aria-labelledby={`${id}-label`}>
      <div className="translation-row__head">
        <h3 id={`${id}-label`} className="translation-row__label">
          {item.label}
        </h3>
        {item.reviewed && <span className="badge badge--positive">Reviewed</span>}
        {item.changedSince && <span className="badge badge--warning">Changed since review</span>}
      </div>
      <dl className="translation-row__texts">
        <div>
          <dt>Original</dt>
          <dd className={html ? 'translation-row__html' : undefined}>{item.originalText}</dd>
        </div>
        <div>
          <dt>Machine translation</dt>
          <dd className={html ? 'translation-row__html' : undefined}>{item.machineText ?? <span className="muted">Not available: the original is shown to reporters.</span>}</dd>
        </div>
        {item.changedSince && (
          <div className="translation-row__changed">
            <dt>Original when reviewed</dt>
            <dd>{item.changedSince.previousOriginalText}</dd>
            {item.changedSince.previousTranslatedText && (
              <>
                <dt>Translation then</dt>
                <dd>{item.changedSince.previousTranslatedText}</dd>
              </>
            )}
          </div>
        )}
      </dl>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          Your translation{html ? ' (HTML)' : ''}
        </label>
        <textarea
          id={`${id}-text`}
          className="field__input"
          rows={html ? 5 : 2}
          value={draft}
          placeholder="Leave empty to use the machine translation"
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
      </div>
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="translation-row__actions">
        <label className="builder-check">
          <input type="checkbox" checked={reviewed} onChange={(event) => setReviewed(event.target.checked)} />
          <span>Mark reviewed</span>
        </label>
        <button type="button" className="button button--small" disabled={fetching || !changed} onClick={() => void submit()}>
          {fetching ? 'Saving…' : 'Save translation'}
        </button>
      </div>
    </article>
  );
}
