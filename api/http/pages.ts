import type { Context } from "hono";
import { eq } from "drizzle-orm";
import { reportSubmissions } from "../../db/schema/index.ts";
import { loadOrganisationPage, type PublicOrganisation } from "../modules/organisations/public.ts";
import { findPublishedForm, isOtherKindOfForm, REPORT_FORM_NOT_FOUND, reporterFormView } from "../modules/reporting/forms.ts";
import { reporterTranslationSetup, TRANSLATION_SETUP_ELEMENT_ID } from "../modules/translation/page-setup.ts";
import { injectJson } from "./inject.ts";
import { injectOrganisationHtml } from "./organisation-html.ts";
import { serveFile, type StaticSite } from "./static-site.ts";
import type { AppEnv } from "./types.ts";

import { ORGANISATION_UNAVAILABLE } from "../shared/messages.ts";

/** The reporter's follow-up area: one shell, its island picks the tab. */
const FOLLOW_UP_PATHS = /^\/report\/(dashboard|edit|uploads|messages|settings)\/?$/;
/** The report-filling flow: one shell for welcome, pages, attachments, review and finish. */
const REPORT_FLOW_PATHS = /^\/report\/(?:(?:summary|attach-files|review|finish)\/)?([^/]+)\/?$/;

/** Paths of the admin-side domain that the console island handles itself. */
const CONSOLE_PATHS = /^\/(admin(\/.*)?|onboarding\/[^/]+|onboarding\/sign-up\/[^/]+|verify(\/[^/]+)?|login-ms\/callback)$/;

/**
 * Serves the Astro build by host: organisation pages with their data injected on `{slug}.`,
 * the report login on `login.`, the landing page and console on the product domain.
 */
export function pageHandler(site: StaticSite) {
  return async (c: Context<AppEnv>) => {
    const path = new URL(c.req.url).pathname;
    const request = c.req.raw;
    if (site.size === 0) return c.text("The site has not been built yet: run `bun run build:site`.", 503);

    const asset = path.startsWith("/_astro/") || /\.[a-z0-9]+$/i.test(path) ? site.lookup(path) : undefined;
    if (asset && !asset.type.startsWith("text/html")) return serveFile(asset, request);

    const { host } = c.get("state");
    if (host.kind === "organisation") {
      if (!host.organisation) return errorPage(site, request, ORGANISATION_UNAVAILABLE, 404);
      // The organisation page also answers at /organisation/{its id}, where a form of another kind sends the reporter (spec §2).
      if (path === "/" || path === "" || path === `/organisation/${host.organisation.id}`) return organisationPage(c, site, host.organisation);
      if (path === "/report/login") return withTranslationSetup(c, site, "/report-login", host.organisation);
      if (path === "/report" || path === "/report/") return c.redirect(await reportEntry(c), 302);
      if (FOLLOW_UP_PATHS.test(path)) return withTranslationSetup(c, site, "/report-area", host.organisation);
      const flow = REPORT_FLOW_PATHS.exec(path);
      if (flow) return reportFlowPage(c, site, host.organisation, flow[1]!);
      return notFoundPage(site, request);
    }
    if (host.kind === "report-login") {
      if (path === "/" || path === "/report/login") return servePage(site, request, "/report-login");
      return notFoundPage(site, request);
    }
    if (path === "/") return servePage(site, request, "/");
    if (CONSOLE_PATHS.test(path)) return servePage(site, request, "/admin");
    return notFoundPage(site, request);
  };
}

async function organisationPage(c: Context<AppEnv>, site: StaticSite, organisation: PublicOrganisation): Promise<Response> {
  const shell = site.lookup("/org");
  if (!shell) return notFoundPage(site, c.req.raw);
  const db = c.get("services").database.db;
  const [page, translation] = await Promise.all([loadOrganisationPage(db, organisation), translationSetup(c, organisation)]);
  const data = { ...page, translation };
  const html = injectOrganisationHtml(injectJson(new TextDecoder().decode(shell.body), "lantern-organisation", data), data);
  return serveFile(shell, c.req.raw, { body: new TextEncoder().encode(html) });
}

/** The language menu's data for this organisation's reporter pages (docs/decisions/043-form-translation.md). */
function translationSetup(c: Context<AppEnv>, organisation: PublicOrganisation) {
  const services = c.get("services");
  return reporterTranslationSetup(services.database.db, services.translator, organisation.id);
}

/** A reporter page with no other inline data: the language menu's data goes in its own placeholder. */
async function withTranslationSetup(c: Context<AppEnv>, site: StaticSite, page: string, organisation: PublicOrganisation): Promise<Response> {
  const shell = site.lookup(page);
  if (!shell) return notFoundPage(site, c.req.raw);
  const translation = await translationSetup(c, organisation);
  if (!translation) return serveFile(shell, c.req.raw);
  const html = injectJson(new TextDecoder().decode(shell.body), TRANSLATION_SETUP_ELEMENT_ID, translation);
  return serveFile(shell, c.req.raw, { body: new TextEncoder().encode(html) });
}

function servePage(site: StaticSite, request: Request, page: string): Response {
  const file = site.lookup(page);
  return file ? serveFile(file, request) : new Response("Not found", { status: 404 });
}

function notFoundPage(site: StaticSite, request: Request): Response {
  const file = site.lookup("/404");
  return file ? serveFile(file, request, { status: 404 }) : new Response("Not found", { status: 404 });
}

export function errorPage(site: StaticSite, request: Request, message: string, status: number): Response {
  const shell = site.lookup("/error");
  if (!shell) return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const html = injectJson(new TextDecoder().decode(shell.body), "lantern-error", { message });
  return serveFile(shell, request, { status, body: new TextEncoder().encode(html) });
}

/** `/report` goes to the form of the Draft in hand, or else to the follow-up login (spec). */
async function reportEntry(c: Context<AppEnv>): Promise<string> {
  const actor = c.get("state").actor;
  if (actor.kind === "reporter" && actor.submissionId) {
    const [row] = await c.get("services").database.db.select({ formId: reportSubmissions.formId, completed: reportSubmissions.completed }).from(reportSubmissions).where(eq(reportSubmissions.id, actor.submissionId));
    if (row) return row.completed ? "/report/dashboard" : `/report/${row.formId}`;
  }
  return "/report/login";
}

/** The form page with the form's public data in the HTML, so it renders without another round trip. */
async function reportFlowPage(c: Context<AppEnv>, site: StaticSite, organisation: PublicOrganisation, formId: string): Promise<Response> {
  const shell = site.lookup("/report");
  if (!shell) return notFoundPage(site, c.req.raw);
  const db = c.get("services").database.db;
  const form = await findPublishedForm(db, organisation.id, formId);
  if (!form && (await isOtherKindOfForm(db, organisation.id, formId))) return c.redirect(`/organisation/${organisation.id}`, 302);
  const [view, translation] = form ? await Promise.all([reporterFormView(db, form, c.get("state").actor), translationSetup(c, organisation)]) : [null, null];
  const data = view ? { organisation: reporterOrganisation(organisation), form: view, translation } : { organisation: reporterOrganisation(organisation), error: REPORT_FORM_NOT_FOUND };
  const html = injectJson(new TextDecoder().decode(shell.body), "lantern-report-form", data);
  return serveFile(shell, c.req.raw, { status: form ? 200 : 404, body: new TextEncoder().encode(html) });
}

function reporterOrganisation(organisation: PublicOrganisation) {
  const { id, name, slug, logoUrl, fontFamily, showLogoOnReportForms } = organisation;
  return { id, name, slug, logoUrl, fontFamily, showLogoOnReportForms };
}
