import { AnswerPages } from '../../forms/answer-pages';
import { RichText } from '../../forms/rich-text';
import { formatDateTime } from '../../lib/format';
import type { ReporterSubmission } from './area-api';
import type { AreaTexts } from './area-language';

// The server sends only these three words (never the staff status, an outcome, who handles the
// report, its tags or notes); here they become what a reporter reads.
const STANDING: Record<ReporterSubmission['reporterStatus'], { label: string; text: string }> = {
  RECEIVED: { label: 'Received', text: 'The organisation has received your report and will look at it.' },
  IN_PROGRESS: { label: 'Being handled', text: 'Someone at the organisation is handling your report.' },
  CLOSED: { label: 'Closed', text: 'The organisation has finished handling your report.' },
};

/** `texts`: the form's name and message in the reporter's language (area-language.ts); the rest stays as it is. */
export function DashboardTab({ submission, texts }: { submission: ReporterSubmission; texts: AreaTexts }) {
  const completedAt = submission.completedAt ? formatDateTime(submission.completedAt) : undefined;
  const standing = STANDING[submission.reporterStatus];
  return (
    <section className="stack" aria-labelledby="dashboard-title">
      <h2 id="dashboard-title" {...texts.formName.translatedIn}>
        {texts.formName.text || 'Report'}
      </h2>
      <dl className="report-summary">
        <div>
          <dt>ID</dt>
          <dd>{submission.reportID}</dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>{completedAt ?? 'N/A'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`report-standing report-standing--${submission.reporterStatus.toLowerCase()}`}>{standing.label}</span>
            <span className="report-standing__text">{standing.text}</span>
            <RichText html={texts.standingMessage.text} className="report-standing__message" {...texts.standingMessage.translatedIn} />
          </dd>
        </div>
      </dl>
      <AnswerPages pages={submission.pages} heading="h3" classes={{ section: 'review-page', title: 'review-page__title', list: 'review-page__answers', item: 'review-page__answer' }} />
    </section>
  );
}
