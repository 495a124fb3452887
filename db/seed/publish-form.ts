import { eq } from "drizzle-orm";
import type { Database } from "../client.ts";
import { reportFormBuilds, reportForms, reportFormWidgets, type StoredCondition } from "../schema/index.ts";
import type { ConditionMatchType } from "../../api/shared/enums.ts";
import { derivePages, publishProblems, type FormWidget } from "../../api/shared/form-definition.ts";

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

/** The page a widget is on, as the reporter's form shows it. */
export function pageOf(widgets: readonly WidgetSpec[], widgetId: string): number {
  const page = derivePages(asFormWidgets(widgets)).find((candidate) => candidate.widgets.some((widget) => widget.id === widgetId));
  if (!page) throw new Error(`Unknown widget ${widgetId}`);
  return page.index;
}

/** The seed's widgets as the shared form definition sees them. */
function asFormWidgets(widgets: readonly WidgetSpec[]): FormWidget[] {
  return widgets.map((widget) => ({
    id: widget.id,
    type: widget.type,
    title: widget.title ?? "",
    required: widget.required ?? false,
    tooltip: widget.tooltip ?? "",
    caption: widget.caption ?? "",
    answers: widget.answers ?? [],
    pageName: widget.pageName ?? null,
    condition: widget.condition ?? null,
  }));
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
  // The builder's own publishing rules, so a careless edit to the seed fails the seed instead of
  // producing a form the editor cannot open.
  const problems = publishProblems(asFormWidgets(widgets));
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
