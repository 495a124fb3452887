import type { PublicOrganisationPage } from "../modules/organisations/public.ts";
import { escapeHtml } from "./inject.ts";

/**
 * The organisation page's content as plain HTML, written into the shell by the server: the name,
 * the forms with their links and the follow-up login are there before any script runs (and without
 * scripts at all). The markup mirrors the island's so nothing moves when the island takes over.
 */
export function organisationPageHtml({ organisation, forms }: PublicOrganisationPage): string {
  const logo = organisation.logoUrl ? `<img class="organisation-header__logo" src="${escapeHtml(organisation.logoUrl)}" alt="">` : "";
  const rows = forms
    .map(
      (form) =>
        `<tr class="forms-table__row"><td>${escapeHtml(form.name)}</td><td class="table__actions"><a class="button button--small" href="/report/${escapeHtml(form.id)}">Make Report<span class="visually-hidden">: ${escapeHtml(form.name)}</span></a></td></tr>`,
    )
    .join("");
  return [
    `<div class="reporter-page"><main class="container">`,
    `<header class="organisation-header">${logo}<h1>${escapeHtml(organisation.name)}</h1></header>`,
    `<section class="stack"><table class="table forms-table"><thead><tr><th scope="col">Name</th><th scope="col" class="table__actions"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></section>`,
    `<div class="actions organisation-actions"><a class="button button--secondary" href="/report/login">Login to follow up</a></div>`,
    `</main></div>`,
  ].join("");
}

/** Fills the shell's empty `<div id="lantern-organisation-static">` with the content. */
export function injectOrganisationHtml(html: string, page: PublicOrganisationPage): string {
  return html.replace(/(<div id="lantern-organisation-static">)(<\/div>)/, (_match, open: string, close: string) => `${open}${organisationPageHtml(page)}${close}`);
}
