import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { reportFormListPath, reportFormPath, type ReportFormTab } from '../../paths';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorCode, errorMessage, REPORT_FORM_LOAD_FAILED } from '../../ui/errors';
import { Link } from '../../ui/link';
import { MissingScreen } from '../../ui/missing-screen';
import { notify } from '../../ui/notice-store';
import { can, type Viewer } from '../../viewer';
import { FormNotes } from './form-notes';
import { FormOverview } from './form-overview';
import { FORM_QUERY, PUBLISH_MUTATION, UNPUBLISH_MUTATION, type FormDetail } from './forms-api';
import './forms.css';

export const FORM_NOT_FOUND = 'Report Form is not found';

type FormPageProps = { viewer: Viewer; tab: Exclude<ReportFormTab, 'edit'>; reportFormID: string; organisationID?: string | undefined };

/** One report form: its Overview and Internal Notes tabs, and Publish / Unpublish (spec §2, §4 Form). */
export function FormPage({ viewer, tab, reportFormID, organisationID }: FormPageProps) {
  const [result] = useQuery<{ reportFormGet: FormDetail }>({ query: FORM_QUERY, variables: { id: reportFormID } });
  const form = result.data?.reportFormGet;
  const listPath = reportFormListPath(organisationID);
  // A form reached through another organisation's address is not there.
  const missing = (form !== undefined && organisationID !== undefined && form.organisationID !== organisationID) || (!form && errorCode(result.error) === 'NOT_FOUND');
  const tabLabel = tab === 'overview' ? 'Overview' : 'Internal Notes';
  useDocumentTitle(missing ? null : [tabLabel, form?.name ?? 'Report Form']);

  if (missing) {
    return (
      <main className="admin-page">
        <MissingScreen message={FORM_NOT_FOUND} returnTo={listPath} returnLabel="Return to Report Forms" />
      </main>
    );
  }
  if (!form) {
    return (
      <main className="admin-page stack">
        <ErrorBanner message={result.error && REPORT_FORM_LOAD_FAILED} />
        {!result.error && <p className="muted">Loading…</p>}
      </main>
    );
  }
  return (
    <main className="admin-page stack">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={listPath}>Report Forms</Link>
        <span aria-hidden="true"> / </span>
        <span>{form.name}</span>
      </nav>
      <FormHeader viewer={viewer} form={form} />
      <nav className="tabs" aria-label="Report form sections">
        {can(viewer, 'ReportFormRead') && (
          <Link to={reportFormPath('overview', form.id, organisationID)} className="tabs__tab" current={tab === 'overview'}>
            Overview
          </Link>
        )}
        {/* The spec gates the Edit tab on ReportFormNoteUpdate; the builder's own route checks ReportFormUpdate. */}
        {can(viewer, 'ReportFormNoteUpdate') && (
          <Link to={reportFormPath('edit', form.id, organisationID)} className="tabs__tab">
            Edit
          </Link>
        )}
        {can(viewer, 'ReportFormNoteList') && (
          <Link to={reportFormPath('internal-notes', form.id, organisationID)} className="tabs__tab" current={tab === 'internal-notes'}>
            Internal Notes
          </Link>
        )}
      </nav>
      <div className="tab-panel">
        {tab === 'overview' ? <FormOverview form={form} viewer={viewer} organisationID={organisationID} /> : <FormNotes reportFormID={form.id} />}
      </div>
    </main>
  );
}

/** The name, and Publish when the public form is not the saved one, Unpublish while there is a public form. */
function FormHeader({ viewer, form }: { viewer: Viewer; form: FormDetail }) {
  const [error, setError] = useState<string>();
  const [publishState, publish] = useMutation(PUBLISH_MUTATION);
  const [unpublishState, unpublish] = useMutation(UNPUBLISH_MUTATION);
  const busy = publishState.fetching || unpublishState.fetching;
  const build = form.currentBuild;
  const mayPublish = can(viewer, 'ReportFormPublish') && form.publishState !== 'Published' && build !== null;
  const mayUnpublish = can(viewer, 'ReportFormUnpublish') && form.publishState !== 'Unpublished';

  const run = async (action: 'publish' | 'unpublish') => {
    setError(undefined);
    const result = action === 'publish' && build ? await publish({ id: form.id, buildID: build.id }) : await unpublish({ id: form.id });
    if (result.error) return setError(errorMessage(result.error));
    notify(action === 'publish' ? 'Report Form has been published' : 'Report Form has been unpublished');
  };

  return (
    <header className="stack">
      <div className="form-page__header">
        <h1 tabIndex={-1}>{form.name}</h1>
        {(mayPublish || mayUnpublish) && (
          <div className="actions">
            {mayPublish && (
              <button type="button" className="button" disabled={busy} onClick={() => void run('publish')}>
                {publishState.fetching ? 'Publishing…' : 'Publish'}
              </button>
            )}
            {mayUnpublish && (
              <button type="button" className="button button--secondary" disabled={busy} onClick={() => void run('unpublish')}>
                {unpublishState.fetching ? 'Unpublishing…' : 'Unpublish'}
              </button>
            )}
          </div>
        )}
      </div>
      <ErrorBanner message={error} />
    </header>
  );
}
