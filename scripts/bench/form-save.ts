/**
 * Saving a large report form: the builder's save of a 200-widget form (sections, choices with
 * options, conditions on earlier choices), sent one after another by the demo owner, each from
 * the revision the previous save returned, as one editor saving repeatedly would. Every save
 * writes a new build with all 200 widgets, so this is the cost of the build-per-save rule.
 */
import { GRAPHQL_PATH } from "./lantern.ts";
import { percentile } from "./rate.ts";
import { formatCount, formatMs, type Row } from "./table.ts";

export interface FormSaveSettings {
  base: string;
  /** The demo owner's `lantern_session=…` pair. */
  cookie: string;
  saves: number;
  progress(message: string): void;
}

export const FORM_WIDGETS = 200;

const FORM = `id currentBuild { revision }`;
const CREATE = `mutation ($input: ReportFormInput!) { reportFormCreate(input: $input) { ${FORM} } }`;
const UPDATE = `mutation ($id: ID!, $input: ReportFormInput!) { reportFormUpdate(id: $id, input: $input) { ${FORM} } }`;

/** Pages of a section, a Radio, a question shown for one of its options, and plain questions. */
export function largeFormWidgets(count = FORM_WIDGETS): Record<string, unknown>[] {
  const widgets: Record<string, unknown>[] = [];
  for (let index = 0; widgets.length < count; index += 1) {
    const page = widgets.length;
    widgets.push({ id: `s${index}`, type: "Section", title: `Section ${index + 1}`, pageName: index === 0 ? "" : `Page ${index + 1}` });
    widgets.push({ id: `c${index}`, type: "Radio", title: `Did it happen ${index + 1}?`, required: true, answers: ["Yes", "No", "Not sure"] });
    widgets.push({ id: `d${index}`, type: "LongText", title: `Tell us more ${index + 1}`, condition: { matchType: "Any", rules: [{ conditionWidgetIndex: page + 1, conditionAnswer: "Yes" }] } });
    for (let filler = 0; filler < 7; filler += 1) widgets.push({ id: `q${index}_${filler}`, type: "ShortText", title: `Question ${index + 1}.${filler + 1}`, tooltip: "A tooltip", caption: "A caption" });
  }
  return widgets.slice(0, count);
}

async function send(settings: FormSaveSettings, query: string, variables: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const response = await fetch(`${settings.base}${GRAPHQL_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: settings.cookie },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  const payload = (await response.json()) as { data?: Record<string, { id: string; currentBuild: { revision: number } }>; errors?: { message: string }[] };
  const form = payload.data && Object.values(payload.data)[0];
  if (!response.ok || payload.errors?.length || !form) throw new Error(`the form save answered ${response.status}: ${payload.errors?.[0]?.message ?? "no data"}`);
  return { id: form.id, revision: form.currentBuild.revision };
}

export async function measureFormSave(settings: FormSaveSettings): Promise<Row[]> {
  const widgets = largeFormWidgets();
  const input = { name: "Bench: large form", widgets, welcomeMessageContent: "<p>Welcome <strong>reporter</strong></p>" };
  settings.progress(`saving a ${FORM_WIDGETS}-widget form ${settings.saves} times`);
  let form = await send(settings, CREATE, { input });
  const times: number[] = [];
  for (let save = 0; save < settings.saves; save += 1) {
    const startedAt = performance.now();
    form = await send(settings, UPDATE, { id: form.id, input: { ...input, baseRevision: form.revision } });
    times.push(performance.now() - startedAt);
  }
  if (form.revision !== settings.saves + 1) throw new Error(`the form is at revision ${form.revision} after ${settings.saves} saves`);
  times.sort((a, b) => a - b);
  const note = `${formatCount(settings.saves)} saves one after another, each a new build of ${FORM_WIDGETS} widgets`;
  return [
    { name: `Saving a ${FORM_WIDGETS}-widget form, p50 (Postgres)`, value: formatMs(percentile(times, 50)), unit: "ms", note },
    { name: "  p99", value: formatMs(percentile(times, 99)), unit: "ms", note: `max ${formatMs(times.at(-1)!)} ms` },
  ];
}
