/**
 * The demo organisation as a reporter's browser reaches it: on loopback, but addressed by the Host
 * header as `demo.localhost:PORT`, since everything a reporter does is only there on the
 * organisation's own subdomain. The form and its widgets are found the way the pages find them
 * (organisation page data, then `reportSubmissionForm`), never by reading the database.
 */
import type { ConditionMatchType, WidgetType } from "../../api/shared/enums.ts";
import type { FormWidget } from "../../api/shared/form-definition.ts";
import { GRAPHQL_PATH } from "./lantern.ts";

export const DEMO_SLUG = "demo";
export const DEMO_FORM_NAME = "Workplace Misconduct Report";
const REQUEST_TIMEOUT_MS = 30_000;

/** A server reached at `base` (loopback) but addressed as `host`. */
export interface HostTarget {
  base: string;
  host: string;
}

export function demoTarget(base: string): HostTarget {
  return { base, host: `${DEMO_SLUG}.localhost:${new URL(base).port}` };
}

export function hostFetch(target: HostTarget, path: string, init: { body?: unknown; cookie?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { Host: target.host };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${target.base}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

/** A GraphQL answer's data; throws on HTTP or GraphQL errors, naming the first one. */
export async function graphqlData<T>(response: Response): Promise<T> {
  const text = await response.text();
  let payload: { data?: T | null; errors?: { message: string }[] };
  try {
    payload = JSON.parse(text) as typeof payload;
  } catch {
    throw new Error(`GraphQL answered ${response.status}: ${text.slice(0, 120)}`);
  }
  if (payload.errors?.length || !payload.data) throw new Error(`GraphQL answered ${response.status}: ${payload.errors?.[0]?.message ?? "no data"}`);
  return payload.data;
}

/** A GraphQL call on the target's host; throws on HTTP or GraphQL errors, naming the first one. */
export async function hostGraphql<T>(target: HostTarget, query: string, variables: Record<string, unknown> = {}, cookie?: string): Promise<T> {
  return graphqlData<T>(await hostFetch(target, GRAPHQL_PATH, { body: { query, variables }, ...(cookie ? { cookie } : {}) }));
}

interface WireWidget {
  id: string;
  type: WidgetType;
  title: string;
  required: boolean;
  answers: string[];
  pageName: string | null;
  condition: { matchType: ConditionMatchType; rules: { conditionWidgetID: string; conditionAnswer: string }[] } | null;
}

const FORM_QUERY = `query ($id: ID!) { reportSubmissionForm(reportFormID: $id) { widgets { id type title required answers pageName condition { matchType rules { conditionWidgetID conditionAnswer } } } } }`;

/** The published demo form's id, from the organisation page's injected data. */
export async function findDemoFormId(target: HostTarget): Promise<string> {
  const response = await hostFetch(target, "/");
  const html = await response.text();
  if (!response.ok) throw new Error(`the demo organisation page answered ${response.status}`);
  const json = /<script[^>]*\sid="lantern-organisation"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("the organisation page has no lantern-organisation data");
  const data = JSON.parse(json) as { forms?: { id: string; name: string }[] } | null;
  const form = data?.forms?.find((candidate) => candidate.name === DEMO_FORM_NAME);
  if (!form) throw new Error(`no published form "${DEMO_FORM_NAME}" on the demo organisation page (found: ${(data?.forms ?? []).map((f) => f.name).join(", ") || "none"})`);
  return form.id;
}

/** The demo form's id and widgets, shaped as the shared form definition wants them. */
export async function findDemoForm(target: HostTarget): Promise<{ formId: string; widgets: FormWidget[] }> {
  const formId = await findDemoFormId(target);
  const data = await hostGraphql<{ reportSubmissionForm: { widgets: WireWidget[] } }>(target, FORM_QUERY, { id: formId });
  const widgets = data.reportSubmissionForm.widgets.map(
    (widget): FormWidget => ({
      ...widget,
      tooltip: "",
      caption: "",
      // Ids of conditions and rules are not needed to evaluate them.
      condition: widget.condition && { id: "", matchType: widget.condition.matchType, rules: widget.condition.rules.map((rule) => ({ id: "", ...rule })) },
    }),
  );
  if (widgets.length === 0) throw new Error(`the form "${DEMO_FORM_NAME}" has no widgets (is it secured?)`);
  return { formId, widgets };
}
