import { RichText } from '../../forms/rich-text';
import { downloadCredentials } from './credentials-file';
import type { ReportCredentials } from './report-api';
import type { Translatable } from '../../forms/translated-text';
import type { ReporterForm } from './report-data';
import { LOADING_MESSAGE } from './step-actions';

type FinishStepProps = {
  form: ReporterForm & Translatable;
  credentials: ReportCredentials | undefined;
};

const DEFAULT_TITLE = 'Report Submitted';

export function FinishStep({ form, credentials }: FinishStepProps) {
  // Without credentials the flow is on its way back to the start.
  if (!credentials) return <p role="status">{LOADING_MESSAGE}</p>;
  return (
    <div className="report-step stack">
      <h1 id="report-step-title" tabIndex={-1} {...(form.finishMessageTitle.trim() ? form.translatedIn : undefined)}>{form.finishMessageTitle.trim() || DEFAULT_TITLE}</h1>
      <RichText html={form.finishMessageContent} {...form.translatedIn} />
      <section className="credentials" aria-labelledby="credentials-title">
        <h2 id="credentials-title" className="credentials__title">
          Your report details
        </h2>
        <p className="alert" role="note">
          Keep these details somewhere safe. They are shown only once, and you need both to follow up on your report.
        </p>
        <dl className="credentials__list">
          <div>
            <dt>Report ID</dt>
            <dd className="credentials__value">{credentials.reportID}</dd>
          </div>
          <div>
            <dt>Password</dt>
            <dd className="credentials__value">{credentials.password}</dd>
          </div>
        </dl>
        <div className="actions">
          <button type="button" className="button" onClick={() => downloadCredentials(credentials)}>
            Download details
          </button>
          <a className="button button--secondary" href="/report/login">
            Follow up Report
          </a>
        </div>
      </section>
    </div>
  );
}
