import { useEffect, useLayoutEffect, useState } from 'react';
import { FALLBACK_ERROR_MESSAGE } from '../lib/http';
import { ORGANISATION_DATA_ID, readPageData } from '../lib/page-data';
import {
  fontDataValue,
  parseOrganisationPageData,
  sameOriginImageUrl,
  sortFormsByName,
  type OrganisationPageData,
} from './organisation-data';
import { EnquiryModal } from './enquiry-modal';
import { OrganisationFormsTable } from './organisation-forms-table';
import { pageTitle } from './page-focus';
import { QuickExit } from './quick-exit';
import { WelcomeModal } from './welcome-modal';

const NOT_FOUND_MESSAGE = 'Organisation was not found or is currently suspended.';
const DEFAULT_ENQUIRY_LABEL = 'Ask a Question';
const STATIC_CONTENT_ID = 'lantern-organisation-static';
const PAGE_NAME = 'Report an incident';

type PageState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; data: OrganisationPageData };

function readState(): PageState {
  const raw = readPageData(ORGANISATION_DATA_ID);
  // An untouched placeholder means the server had no organisation to inject.
  if (raw === null || raw === undefined) return { kind: 'error', message: NOT_FOUND_MESSAGE };
  const data = parseOrganisationPageData(raw);
  return data ? { kind: 'ready', data } : { kind: 'error', message: FALLBACK_ERROR_MESSAGE };
}

function hasWelcomeMessage(data: OrganisationPageData): boolean {
  const { portalWelcomeMessageEnabled, portalWelcomeMessageContent } = data.organisation;
  return portalWelcomeMessageEnabled && portalWelcomeMessageContent.trim() !== '';
}

// The build renders only Quick Exit (the data exists only in the served page, where the
// server also writes a static copy of the content below the island); after hydration the
// island reads the injected data and takes over.
export function OrganisationPage() {
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const [welcomeOpen, setWelcomeOpen] = useState(false);

  // The server-written copy of the page stays until this island shows the same, then goes
  // before the browser paints, so the content never appears twice.
  useLayoutEffect(() => {
    if (state.kind !== 'loading') document.getElementById(STATIC_CONTENT_ID)?.remove();
  }, [state.kind]);

  useEffect(() => {
    const next = readState();
    setState(next);
    if (next.kind === 'ready') {
      document.title = pageTitle(PAGE_NAME, next.data.organisation.name);
      setWelcomeOpen(hasWelcomeMessage(next.data));
    }
  }, []);

  return (
    <div className="reporter-page" data-font={state.kind === 'ready' ? fontDataValue(state.data.organisation.fontFamily) : undefined}>
      <QuickExit />
      <main className="container">
        {state.kind === 'error' && (
          <p className="alert alert--error" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === 'ready' && <OrganisationContent data={state.data} />}
      </main>
      {state.kind === 'ready' && welcomeOpen && (
        <WelcomeModal content={state.data.organisation.portalWelcomeMessageContent} onClose={() => setWelcomeOpen(false)} />
      )}
    </div>
  );
}

function OrganisationContent({ data }: { data: OrganisationPageData }) {
  const { organisation } = data;
  const logoUrl = sameOriginImageUrl(organisation.logoUrl, window.location.origin);
  const [enquiryOpen, setEnquiryOpen] = useState(false);
  const enquiryLabel = organisation.generalEnquiryLabel.trim() || DEFAULT_ENQUIRY_LABEL;

  return (
    <>
      <header className="organisation-header">
        {logoUrl && <img className="organisation-header__logo" src={logoUrl} alt="" />}
        <h1>{organisation.name}</h1>
      </header>
      <section aria-labelledby="report-forms-heading" className="stack">
        <h2 id="report-forms-heading" className="visually-hidden">
          Report forms
        </h2>
        <OrganisationFormsTable forms={sortFormsByName(data.forms)} />
      </section>
      <div className="actions organisation-actions">
        <a className="button button--secondary" href="/report/login">
          Login to follow up
        </a>
        {organisation.generalEnquiryEnabled && (
          <button type="button" className="button button--secondary" onClick={() => setEnquiryOpen(true)}>
            {enquiryLabel}
          </button>
        )}
      </div>
      {enquiryOpen && (
        <EnquiryModal
          organisationID={organisation.id}
          title={enquiryLabel}
          welcomeMessage={organisation.generalEnquiryWelcomeMessageContent}
          onClose={() => setEnquiryOpen(false)}
        />
      )}
    </>
  );
}
