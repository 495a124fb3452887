import type { FormEvent } from 'react';
import { DISPLAY_WIDGETS, type AnswerMap, type FormPage } from '../../../../api/shared/form-definition';
import { answerText } from '../../forms/answer-text';
import { optionLabel, type DisplayWidget } from '../../forms/translated-text';
import { formatFileSize } from '../../lib/format';
import type { AttachmentEntry } from './attachment-upload';
import { FlowError, StepActions } from './step-actions';

type ReviewStepProps = {
  pages: readonly FormPage[];
  visible: ReadonlySet<string>;
  answers: AnswerMap;
  attachments: readonly AttachmentEntry[] | undefined;
  flowError: string | undefined;
  busy: boolean;
  onBack: () => void;
  onSubmit: () => void;
};

export function ReviewStep({ pages, visible, answers, attachments, flowError, busy, onBack, onSubmit }: ReviewStepProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="report-step stack" noValidate onSubmit={submit} aria-labelledby="report-step-title">
      <h1 id="report-step-title" tabIndex={-1}>Review</h1>
      <p className="muted">Check your answers before you submit the report.</p>
      <FlowError message={flowError} />
      {pages.map((page) => (
        <section key={page.index} className="review-page" aria-labelledby={`review-page-${page.index}`}>
          <h2 id={`review-page-${page.index}`} className="review-page__title">
            {page.name}
          </h2>
          <dl className="review-page__answers">
            {page.widgets
              .filter((widget) => !DISPLAY_WIDGETS.has(widget.type) && visible.has(widget.id))
              .map((widget: DisplayWidget) => (
                <div key={widget.id} className="review-page__answer">
                  <dt {...widget.translatedIn}>{widget.title}</dt>
                  <dd>{answerText(widget.type, answers[widget.id], (value) => optionLabel(widget, value))}</dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
      {attachments && (
        <section className="review-page" aria-labelledby="review-attachments">
          <h2 id="review-attachments" className="review-page__title">
            Attached files
          </h2>
          {attachments.some((entry) => entry.status === 'done') ? (
            <ul className="review-page__files">
              {attachments
                .filter((entry) => entry.status === 'done')
                .map((entry) => (
                  <li key={entry.key}>
                    {entry.name} ({formatFileSize(entry.size)})
                  </li>
                ))}
            </ul>
          ) : (
            <p className="muted">No files found</p>
          )}
        </section>
      )}
      <StepActions busy={busy} onBack={onBack} nextLabel="Submit" />
    </form>
  );
}
