import { answerText } from '../../forms/answer-text';
import { formatDateTime } from '../../lib/format';
import type { ReporterSubmission } from './area-api';

export function DashboardTab({ submission }: { submission: ReporterSubmission }) {
  const completedAt = submission.completedAt ? formatDateTime(submission.completedAt) : undefined;
  return (
    <section className="stack" aria-labelledby="dashboard-title">
      <h2 id="dashboard-title">{submission.formName || 'Report'}</h2>
      <dl className="report-summary">
        <div>
          <dt>ID</dt>
          <dd>{submission.reportID}</dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>{completedAt ?? 'N/A'}</dd>
        </div>
      </dl>
      {submission.pages.map((page, index) => (
        <section key={`${index}-${page.name}`} className="review-page" aria-labelledby={`answers-page-${index}`}>
          <h3 id={`answers-page-${index}`} className="review-page__title">
            {page.name}
          </h3>
          <dl className="review-page__answers">
            {page.answers.map((answer) => (
              <div key={answer.widgetID} className="review-page__answer">
                <dt>{answer.title}</dt>
                <dd>{answerText(answer.type, answer.answer)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </section>
  );
}
