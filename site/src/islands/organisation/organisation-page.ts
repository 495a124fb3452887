import { h } from '../../lib/dom';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { ORGANISATION_DATA_ID, readPageData } from '../../lib/page-data';
import { parseOrganisationPageData, sortFormsByName, type OrganisationPageData, type ReportFormSummary } from '../organisation-data';
import { fontDataValue, sameOriginImageUrl } from '../organisation-display';
import { pageTitle } from '../page-title';
import { isQuickExitEscape, quickExit } from '../quick-exit-actions';

const NOT_FOUND_MESSAGE = 'Organisation was not found or is currently suspended.';
const DEFAULT_ENQUIRY_LABEL = 'Ask a Question';
const STATIC_CONTENT_ID = 'lantern-organisation-static';
const PAGE_ID = 'organisation-page';
const PAGE_NAME = 'Report an incident';

type PageState = { kind: 'error'; message: string } | { kind: 'ready'; data: OrganisationPageData };

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

/**
 * The organisation page without React: the build renders the Quick Exit bar, the server writes a
 * static copy of the content below it (readable with no script at all), and this fills the page
 * from the injected data and removes that copy in the same task, so the content never shows twice.
 * The welcome note and the enquiry dialog are fetched when they open.
 */
export function startOrganisationPage(): void {
  const page = document.getElementById(PAGE_ID);
  const main = page?.querySelector('main');
  if (!page || !main) return;
  wireQuickExit(page);
  const state = readState();
  if (state.kind === 'error') {
    main.replaceChildren(alert(state.message));
  } else {
    const { organisation } = state.data;
    page.dataset.font = fontDataValue(organisation.fontFamily);
    main.replaceChildren(...organisationContent(page, state.data));
    document.title = pageTitle(PAGE_NAME, organisation.name);
  }
  document.getElementById(STATIC_CONTENT_ID)?.remove();
  if (state.kind === 'ready' && hasWelcomeMessage(state.data)) {
    const content = state.data.organisation.portalWelcomeMessageContent;
    void import('./welcome-dialog').then(({ openWelcomeDialog }) => openWelcomeDialog(page, content));
  }
}

// Always visible, and Escape does the same from anywhere on the page, because someone may need
// to hide what they are doing in a second.
function wireQuickExit(page: HTMLElement): void {
  page.querySelector('.quick-exit-bar .quick-exit')?.addEventListener('click', () => quickExit());
  window.addEventListener('keydown', (event) => {
    if (isQuickExitEscape(event)) quickExit();
  });
}

function alert(message: string): HTMLElement {
  return h('p', { class: 'alert alert--error', role: 'alert' }, message);
}

function organisationContent(page: HTMLElement, { organisation, forms }: OrganisationPageData): HTMLElement[] {
  const logoUrl = sameOriginImageUrl(organisation.logoUrl, window.location.origin);
  const enquiryLabel = organisation.generalEnquiryLabel.trim() || DEFAULT_ENQUIRY_LABEL;
  const actions = h('div', { class: 'actions organisation-actions' }, h('a', { class: 'button button--secondary', href: '/report/login' }, 'Login to follow up'));
  if (organisation.generalEnquiryEnabled) {
    const button = h('button', { type: 'button', class: 'button button--secondary' }, enquiryLabel);
    const options = { organisationID: organisation.id, title: enquiryLabel, welcomeMessage: organisation.generalEnquiryWelcomeMessageContent };
    button.addEventListener('click', () => {
      import('./enquiry-dialog').then(
        ({ openEnquiryDialog }) => openEnquiryDialog(page, options),
        () => actions.before(alert(FALLBACK_ERROR_MESSAGE)),
      );
    });
    actions.append(button);
  }
  return [
    h('header', { class: 'organisation-header' }, logoUrl && h('img', { class: 'organisation-header__logo', src: logoUrl, alt: '' }), h('h1', {}, organisation.name)),
    h(
      'section',
      { 'aria-labelledby': 'report-forms-heading', class: 'stack' },
      h('h2', { id: 'report-forms-heading', class: 'visually-hidden' }, 'Report forms'),
      formsTable(sortFormsByName(forms)),
    ),
    actions,
  ];
}

function reportFormUrl(id: string): string {
  return `/report/${encodeURIComponent(id)}`;
}

// Rows are clickable for pointer users; the 'Make Report' link is the keyboard and screen-reader
// path to the same place.
function formsTable(forms: readonly ReportFormSummary[]): HTMLElement {
  if (forms.length === 0) return h('p', { class: 'muted' }, 'No forms found');
  const rows = forms.map((form) => {
    const row = h(
      'tr',
      { class: 'forms-table__row' },
      h('td', {}, form.name),
      h('td', { class: 'table__actions' }, h('a', { class: 'button button--small', href: reportFormUrl(form.id) }, 'Make Report', h('span', { class: 'visually-hidden' }, `: ${form.name}`))),
    );
    row.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) return;
      window.location.assign(reportFormUrl(form.id));
    });
    return row;
  });
  const heading = h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'table__actions' }, h('span', { class: 'visually-hidden' }, 'Actions')));
  return h('table', { class: 'table forms-table' }, h('thead', {}, heading), h('tbody', {}, ...rows));
}
