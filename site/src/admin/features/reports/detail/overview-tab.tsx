import { useMutation, useQuery } from 'urql';
import { AnswerPages } from '../../../../forms/answer-pages';
import { formatDateTime } from '../../../../lib/format';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { reportFormPath } from '../../../paths';
import { Link } from '../../../ui/link';
import { can, type Viewer } from '../../../viewer';
import { ANSWERS_QUERY, type AnswerPage, type ReportDetail } from './detail-api';
import { useReporterTranslation } from './reporter-translation-api';
import { IdentifiersCard } from './identifiers-card';
import { LegalClocksPanel } from './legal-clocks-panel';
import { LegalHoldPanel } from './legal-hold-panel';
import { mayRedact, REDACT_ANSWER_MUTATION, REDACTED_NOTICE } from './redaction-api';
import { RedactButton } from './redact-slot';
import type { ReportRules } from './report-rules';
import { AnswersTranslationSlot } from './translation-slot';

type OverviewTabProps = { viewer: Viewer; report: ReportDetail; rules: ReportRules; organisationID?: string | undefined };

export function OverviewTab({ viewer, report, rules, organisationID }: OverviewTabProps) {
  return (
    <div className="report-overview">
      <LegalClocksPanel viewer={viewer} report={report} />
      <LegalHoldPanel viewer={viewer} report={report} />
      {rules.showIdentifiers && <IdentifiersCard viewer={viewer} report={report} organisationID={organisationID} />}
      <DetailsCard report={report} formLink={formOverviewLink(viewer, report, organisationID)} redacts={mayRedact(viewer, report)} />
    </div>
  );
}

/** The form's overview, for those who may read forms; the Enquiry form has none (spec §2 Reports). */
function formOverviewLink(viewer: Viewer, report: ReportDetail, organisationID: string | undefined): string | undefined {
  if (!can(viewer, 'ReportFormRead') || report.submissionForm.type === 'Enquiry') return undefined;
  return reportFormPath('overview', report.submissionForm.id, organisationID);
}

function DetailsCard({ report, formLink, redacts }: { report: ReportDetail; formLink: string | undefined; redacts: boolean }) {
  const [result, refetch] = useQuery<{ reportSubmissionGet: { answers: AnswerPage[] } }>({ query: ANSWERS_QUERY, variables: { id: report.id } });
  const [, redactAnswer] = useMutation(REDACT_ANSWER_MUTATION);
  const redactAction = (answer: { widgetID: string; title: string; answer: readonly string[] }) =>
    answer.answer.some((text) => text !== '') && (
      <RedactButton
        label={answer.title}
        title={`Redact: ${answer.title}`}
        texts={answer.answer}
        onRedact={async (index, start, end) => {
          const outcome = await redactAnswer({ id: report.id, widgetID: answer.widgetID, index, start, end });
          if (outcome.error) return errorMessage(outcome.error);
          notify(REDACTED_NOTICE);
          refetch({ requestPolicy: 'network-only' });
          return undefined;
        }}
      />
    );
  const pages = result.data?.reportSubmissionGet.answers;
  // The organisation's form language when staff may translate the reporter's words here; else nothing is offered.
  const translateFrom = useReporterTranslation(report.id);
  return (
    <section className="card stack" aria-labelledby="report-details-title">
      <h2 id="report-details-title" className="card__title">
        Report Details
      </h2>
      <dl className="facts">
        <div>
          <dt>ID</dt>
          <dd>{report.reportID}</dd>
        </div>
        <div>
          <dt>Form</dt>
          <dd>{formLink ? <Link to={formLink}>{report.submissionForm.name}</Link> : report.submissionForm.name}</dd>
        </div>
        <div>
          <dt>Completed At</dt>
          <dd>{report.completedAt ? (formatDateTime(report.completedAt) ?? 'N/A') : 'N/A'}</dd>
        </div>
      </dl>
      <h3 className="answers__title">Submitted Answers</h3>
      <ErrorBanner message={errorMessage(result.error)} />
      {pages === undefined && !result.error && <p className="muted">Loading…</p>}
      {pages?.length === 0 && <p className="muted">No answers submitted</p>}
      {pages && (
        <AnswerPages
          pages={pages}
          heading="h4"
          classes={{ section: 'answers', title: 'answers__page', list: 'answers__list', item: 'answers__item' }}
          {...(redacts ? { action: redactAction } : {})}
        />
      )}
      {pages && pages.length > 0 && translateFrom && <AnswersTranslationSlot reportID={report.id} formLanguage={translateFrom} />}
    </section>
  );
}
