import { eq } from "drizzle-orm";
import type { Database } from "../client.ts";
import { reportFormBuilds, reportForms, reportFormWidgets, type StoredCondition } from "../schema/index.ts";
import type { ConditionMatchType } from "../../api/shared/enums.ts";

/** One widget as a seed spells it; the build id and position come from where it sits in the list. */
export type WidgetSpec = Omit<typeof reportFormWidgets.$inferInsert, "buildId" | "position">;

/** A form's own settings plus its widgets; ids, organisation, builds and status are filled in here. */
export type FormSpec = Omit<
  typeof reportForms.$inferInsert,
  "id" | "organisationId" | "status" | "currentBuildId" | "deployedBuildId" | "pinHash"
> & { widgets: WidgetSpec[] };

export interface PublishedForm {
  formId: string;
  buildId: string;
  widgets: WidgetSpec[];
}

const CHOICE_TYPES = new Set(["Select", "Radio", "Checkbox"]);

/**
 * A visibility condition whose rules each test one earlier choice widget. Rule ids derive from
 * the condition id so that reseeding writes identical jsonb.
 */
export function condition(id: string, matchType: ConditionMatchType, rules: [widgetId: string, answer: string][]): StoredCondition {
  return {
    id,
    matchType,
    rules: rules.map(([conditionWidgetID, conditionAnswer], index) => ({ id: `${id}_r${index + 1}`, conditionWidgetID, conditionAnswer })),
  };
}

/** The page a widget is on: a page starts at each Section, counting from 0. */
export function pageOf(widgets: readonly WidgetSpec[], widgetId: string): number {
  let page = -1;
  for (const widget of widgets) {
    if (widget.type === "Section") page += 1;
    if (widget.id === widgetId) return Math.max(page, 0);
  }
  throw new Error(`Unknown widget ${widgetId}`);
}

/**
 * The rules the form builder enforces, checked here too so a careless edit to the seed fails the
 * seed instead of producing a form the editor cannot open. Returns the problems found.
 */
export function widgetProblems(widgets: readonly WidgetSpec[]): string[] {
  const problems: string[] = [];
  if (widgets.length < 2) problems.push("fewer than two widgets");
  if (widgets[0]?.type !== "Section") problems.push("does not start with a Section");
  if (widgets.at(-1)?.type === "Section") problems.push("ends with a Section");
  if (new Set(widgets.map((widget) => widget.id)).size !== widgets.length) problems.push("duplicate widget ids");
  widgets.forEach((widget, index) => {
    if (widget.type === "Section" && widgets[index - 1]?.type === "Section") problems.push(`${widget.id}: two Sections in a row`);
    for (const rule of widget.condition?.rules ?? []) {
      const target = widgets.slice(0, index).find((earlier) => earlier.id === rule.conditionWidgetID);
      if (!target || !CHOICE_TYPES.has(target.type)) problems.push(`${widget.id}: condition needs an earlier choice widget ${rule.conditionWidgetID}`);
      else if (!target.answers?.includes(rule.conditionAnswer)) problems.push(`${widget.id}: "${rule.conditionAnswer}" is not an option of ${target.id}`);
    }
  });
  return problems;
}

/**
 * Creates a form with one build and publishes it. Form and build point at each other, so the
 * form goes in first, then its build and widgets, then the form is pointed at the build.
 */
export async function insertPublishedForm(
  tx: Database,
  input: { organisationId: string; authorUserId: string; spec: FormSpec; pinHash?: string | null; createdAt: Date },
): Promise<PublishedForm> {
  const { widgets, ...settings } = input.spec;
  const problems = widgetProblems(widgets);
  if (problems.length > 0) throw new Error(`Demo seed: form "${settings.name}" is invalid: ${problems.join("; ")}`);

  const [form] = await tx
    .insert(reportForms)
    .values({
      ...settings,
      organisationId: input.organisationId,
      status: "Active",
      pinHash: input.pinHash ?? null,
      createdAt: input.createdAt,
      updatedAt: input.createdAt,
    })
    .returning({ id: reportForms.id });
  const formId = form!.id;

  const [build] = await tx
    .insert(reportFormBuilds)
    .values({ formId, revision: 1, authorUserId: input.authorUserId, createdAt: input.createdAt })
    .returning({ id: reportFormBuilds.id });
  const buildId = build!.id;

  await tx.insert(reportFormWidgets).values(widgets.map((widget, position) => ({ ...widget, buildId, position })));
  await tx
    .update(reportForms)
    .set({ currentBuildId: buildId, deployedBuildId: buildId, updatedAt: input.createdAt })
    .where(eq(reportForms.id, formId));
  return { formId, buildId, widgets };
}
