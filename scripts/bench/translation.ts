/**
 * translateData for a large form: the demo owner publishes a 200-widget form and turns translations
 * on, then a reporter's page asks for every text of it in one language, first with the provider (a
 * LibreTranslate-protocol server on loopback, so the figure is Lantern's own cost plus a fast
 * engine), then again and again from the translation cache.
 */
import { startTranslationServer, type TestTranslationServer } from "../../tests/helpers/translation-server.ts";
import { demoTarget, hostGraphql } from "./demo.ts";
import { largeFormWidgets, FORM_WIDGETS } from "./form-save.ts";
import { GRAPHQL_PATH } from "./lantern.ts";
import { percentile } from "./rate.ts";
import { formatCount, formatMs, type Row } from "./table.ts";

export interface TranslationBenchSettings {
  base: string;
  /** The demo owner's `lantern_session=…` pair: builds and publishes the form. */
  cookie: string;
  /** The super admin's: turns translations on for the organisation, as only a super admin may. */
  superAdminCookie: string;
  provider: TestTranslationServer;
  cachedRequests: number;
  progress(message: string): void;
}

/** The provider the bench's Lantern is started with, and the variables that point it there. */
export async function startBenchProvider(): Promise<{ provider: TestTranslationServer; env: Record<string, string> }> {
  const provider = await startTranslationServer();
  return { provider, env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } };
}

async function staffGraphql<T>(settings: { base: string; cookie: string }, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${settings.base}${GRAPHQL_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: settings.cookie },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  const payload = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (!response.ok || payload.errors?.length || !payload.data) throw new Error(`staff GraphQL answered ${response.status}: ${payload.errors?.[0]?.message ?? "no data"}`);
  return payload.data;
}

const CREATE = `mutation ($input: ReportFormInput!) { reportFormCreate(input: $input) { id organisationID currentBuild { id } } }`;
const PUBLISH = `mutation ($id: ID!, $buildID: ID!) { reportFormPublish(id: $id, buildID: $buildID) { id } }`;
const TURN_ON = `mutation ($id: ID!) { organisationUpdate(id: $id, input: { enableFormTranslations: true }) { id } }`;
const TRANSLATE = `query ($input: TranslateDataInput!) { translateData(input: $input, lang: "de") { total list { name translatedText } } }`;

export async function measureTranslation(settings: TranslationBenchSettings): Promise<Row[]> {
  settings.progress(`publishing a ${FORM_WIDGETS}-widget form and asking for it in German`);
  const input = { name: "Bench: translated form", widgets: largeFormWidgets(), welcomeMessageContent: '<p>Welcome to <span translate="no">Demo</span>, <strong>reporter</strong></p>' };
  const { reportFormCreate: form } = await staffGraphql<{ reportFormCreate: { id: string; organisationID: string; currentBuild: { id: string } } }>(settings, CREATE, { input });
  await staffGraphql(settings, PUBLISH, { id: form.id, buildID: form.currentBuild.id });
  await staffGraphql({ base: settings.base, cookie: settings.superAdminCookie }, TURN_ON, { id: form.organisationID });

  const target = demoTarget(settings.base);
  const ask = async () => {
    const startedAt = performance.now();
    const data = await hostGraphql<{ translateData: { total: number; list: { translatedText: string | null }[] } }>(target, TRANSLATE, { input: { organisationID: form.organisationID, reportFormID: form.id } });
    if (data.translateData.list.some((item) => item.translatedText === null)) throw new Error("translateData left texts untranslated");
    return { ms: performance.now() - startedAt, total: data.translateData.total };
  };
  settings.provider.reset();
  const first = await ask();
  const providerRequests = settings.provider.received.length;
  const times: number[] = [];
  for (let request = 0; request < settings.cachedRequests; request += 1) times.push((await ask()).ms);
  if (settings.provider.received.length !== providerRequests) throw new Error("cached translateData requests still reached the provider");
  times.sort((a, b) => a - b);
  return [
    { name: `translateData, ${FORM_WIDGETS}-widget form, first (Postgres)`, value: formatMs(first.ms), unit: "ms", note: `${formatCount(first.total)} texts, ${providerRequests} provider requests on loopback` },
    { name: "  cached, p50", value: formatMs(percentile(times, 50)), unit: "ms", note: `${formatCount(settings.cachedRequests)} requests one after another, no provider call` },
    { name: "  cached, p99", value: formatMs(percentile(times, 99)), unit: "ms", note: `max ${formatMs(times.at(-1)!)} ms` },
  ];
}
