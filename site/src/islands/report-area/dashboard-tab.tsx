import { AnswerPages } from '../../forms/answer-pages';
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
      <AnswerPages pages={submission.pages} heading="h3" classes={{ section: 'review-page', title: 'review-page__title', list: 'review-page__answers', item: 'review-page__answer' }} />
    </section>
  );
}
