import { h } from '../../lib/dom';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { ORGANISATION_DATA_ID, readPageData } from '../../lib/page-data';
import { parseOrganisationPageData, sortFormsByName, type OrganisationPageData, type ReportFormSummary } from '../organisation-data';
import { fontDataValue, sameOriginImageUrl } from '../organisation-display';
import { pageTitle } from '../page-title';
import { isQuickExitEscape, quickExit } from '../quick-exit-actions';
import { readTranslationSetup } from '../../lib/reporter-language';
import type { ShownText } from '../../lib/translation-apply';
import { organisationLanguageMenu, withLanguage, type ShownOrganisationTexts } from './organisation-language';

const NOT_FOUND_MESSAGE = 'Organisation was not found or is currently suspended.';
const DEFAULT_ENQUIRY_LABEL = 'Ask a Question';
const STATIC_CONTENT_ID = 'lantern-organisation-static';
const PAGE_ID = 'organisation-page';
const PAGE_NAME = 'Report an incident';

type PageState = { kind: 'error'; message: string } | { kind: 'ready'; data: OrganisationPageData; raw: unknown };

function readState(): PageState {
  const raw = readPageData(ORGANISATION_DATA_ID);
  // An untouched placeholder means the server had no organisation to inject.
  if (raw === null || raw === undefined) return { kind: 'error', message: NOT_FOUND_MESSAGE };
  const data = parseOrganisationPageData(raw);
  return data ? { kind: 'ready', data, raw } : { kind: 'error', message: FALLBACK_ERROR_MESSAGE };
}

function hasWelcomeMessage(data: OrganisationPageData): boolean {
  const { portalWelcomeMessageEnabled, portalWelcomeMessageContent } = data.organisation;
  return portalWelcomeMessageEnabled && portalWelcomeMessageContent.trim() !== '';
}

/** The organisation's own texts, shown until (and unless) the reporter reads them in another language. */
function originalTexts({ organisation }: OrganisationPageData): ShownOrganisationTexts {
  const { portalWelcomeMessageContent, generalEnquiryLabel, generalEnquiryWelcomeMessageContent } = organisation;
  return { texts: { portalWelcomeMessageContent, generalEnquiryLabel, generalEnquiryWelcomeMessageContent }, attributes: {} };
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
    document.getElementById(STATIC_CONTENT_ID)?.remove();
    return;
  }
  const { organisation } = state.data;
  let shown = originalTexts(state.data);
  const content = organisationContent(page, state.data, () => shown);
  // Where the organisation has translations on: the menu, and the texts in the reporter's language.
  const setup = readTranslationSetup(state.raw);
  const menu = setup
    ? organisationLanguageMenu(setup, organisation.id, shown.texts, state.data.forms, (texts) => {
        shown = texts;
        showEnquiryLabel(content.enquiryButton, texts);
        content.showFormNames(texts.formNames);
      })
    : undefined;
  page.dataset.font = fontDataValue(organisation.fontFamily);
  main.replaceChildren(...content.elements(menu?.element));
  document.title = pageTitle(PAGE_NAME, organisation.name);
  document.getElementById(STATIC_CONTENT_ID)?.remove();
  if (hasWelcomeMessage(state.data)) {
    // Opened once the starting language is known, so a reporter who chose one reads the note in it.
    void (menu?.ready ?? Promise.resolve())
      .then(() => import('./welcome-dialog'))
      .then(({ openWelcomeDialog }) => openWelcomeDialog(page, shown.texts.portalWelcomeMessageContent, shown.attributes.portalWelcomeMessageContent));
  }
}

function showEnquiryLabel(button: HTMLElement | undefined, { texts, attributes }: ShownOrganisationTexts): void {
  if (!button) return;
  button.textContent = texts.generalEnquiryLabel.trim() || DEFAULT_ENQUIRY_LABEL;
  withLanguage(button, texts.generalEnquiryLabel.trim() ? attributes.generalEnquiryLabel : undefined);
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

// `shown` gives the organisation's texts in the reporter's language at the moment they are needed.
function organisationContent(page: HTMLElement, { organisation, forms }: OrganisationPageData, shown: () => ShownOrganisationTexts) {
  const logoUrl = sameOriginImageUrl(organisation.logoUrl, window.location.origin);
  const actions = h('div', { class: 'actions organisation-actions' }, h('a', { class: 'button button--secondary', href: '/report/login' }, 'Login to follow up'));
  let enquiryButton: HTMLElement | undefined;
  if (organisation.generalEnquiryEnabled) {
    const button = h('button', { type: 'button', class: 'button button--secondary' });
    showEnquiryLabel(button, shown());
    button.addEventListener('click', () => {
      const { texts, attributes } = shown();
      const options = {
        organisationID: organisation.id,
        title: texts.generalEnquiryLabel.trim() || DEFAULT_ENQUIRY_LABEL,
        titleText: attributes.generalEnquiryLabel,
        welcomeMessage: texts.generalEnquiryWelcomeMessageContent,
        welcomeText: attributes.generalEnquiryWelcomeMessageContent,
      };
      import('./enquiry-dialog').then(
        ({ openEnquiryDialog }) => openEnquiryDialog(page, options),
        () => actions.before(alert(FALLBACK_ERROR_MESSAGE)),
      );
    });
    actions.append(button);
    enquiryButton = button;
  }
  const table = formsTable(sortFormsByName(forms));
  const elements = (menu: HTMLElement | undefined): HTMLElement[] => [
    h('header', { class: 'organisation-header' }, logoUrl && h('img', { class: 'organisation-header__logo', src: logoUrl, alt: '' }), h('h1', {}, organisation.name)),
    ...(menu ? [menu] : []),
    h(
      'section',
      { 'aria-labelledby': 'report-forms-heading', class: 'stack' },
      h('h2', { id: 'report-forms-heading', class: 'visually-hidden' }, 'Report forms'),
      table.element,
    ),
    actions,
  ];
  return { enquiryButton, elements, showFormNames: table.showNames };
}

function reportFormUrl(id: string): string {
  return `/report/${encodeURIComponent(id)}`;
}

// Rows are clickable for pointer users; the 'Make Report' link is the keyboard and screen-reader
// path to the same place. `showNames` shows the forms' names in the reporter's language (the originals
// when given none); the rows keep their order, by the organisation's own names.
function formsTable(forms: readonly ReportFormSummary[]): { element: HTMLElement; showNames: (names: ReadonlyMap<string, ShownText> | undefined) => void } {
  if (forms.length === 0) return { element: h('p', { class: 'muted' }, 'No forms found'), showNames: () => {} };
  const nameCells: { form: ReportFormSummary; cell: HTMLElement; linkName: HTMLElement }[] = [];
  const rows = forms.map((form) => {
    const cell = h('td', {}, form.name);
    const linkName = h('span', { class: 'visually-hidden' }, `: ${form.name}`);
    nameCells.push({ form, cell, linkName });
    const row = h('tr', { class: 'forms-table__row' }, cell, h('td', { class: 'table__actions' }, h('a', { class: 'button button--small', href: reportFormUrl(form.id) }, 'Make Report', linkName)));
    row.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) return;
      window.location.assign(reportFormUrl(form.id));
    });
    return row;
  });
  const heading = h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'table__actions' }, h('span', { class: 'visually-hidden' }, 'Actions')));
  const showNames = (names: ReadonlyMap<string, ShownText> | undefined) => {
    for (const { form, cell, linkName } of nameCells) {
      const shown = names?.get(form.id) ?? { text: form.name };
      cell.textContent = shown.text;
      withLanguage(cell, shown.translatedIn);
      linkName.textContent = `: ${shown.text}`;
      withLanguage(linkName, shown.translatedIn);
    }
  };
  return { element: h('table', { class: 'table forms-table' }, h('thead', {}, heading), h('tbody', {}, ...rows)), showNames };
}
