import { eq, max } from "drizzle-orm";
import { reportFormBuilds, reportForms, reportFormWidgets } from "../../db/schema/index.ts";
import type { FormWidget } from "../../api/shared/form-definition.ts";
import type { TestServer } from "./server.ts";

/** The question every build made here adds to the first page. */
export const ADDED_QUESTION = "A question added later";

/**
 * A new build of a form written straight into the database, as a save in the console would write
 * it: every title reworded with `prefix`, and a new required question on the first page, which a
 * report filled in on an older build never answered. `publish` also deploys it.
 */
export async function insertBuild(server: TestServer, formId: string, widgets: FormWidget[], prefix: string, publish: boolean): Promise<{ id: string; widgets: FormWidget[] }> {
  const [latest] = await server.db.select({ revision: max(reportFormBuilds.revision) }).from(reportFormBuilds).where(eq(reportFormBuilds.formId, formId));
  const revision = (latest?.revision ?? 0) + 1;
  const [build] = await server.db.insert(reportFormBuilds).values({ formId, revision }).returning({ id: reportFormBuilds.id });
  const added: FormWidget = { id: `added_r${revision}`, type: "ShortText", title: ADDED_QUESTION, required: true, tooltip: "", caption: "", answers: [], pageName: null, condition: null };
  const reworded = widgets.map((widget) => ({ ...widget, title: `${prefix}${widget.title}` }));
  const next = [reworded[0]!, added, ...reworded.slice(1)];
  await server.db.insert(reportFormWidgets).values(next.map((widget, position) => ({ ...widget, buildId: build!.id, position })));
  await server.db
    .update(reportForms)
    .set(publish ? { currentBuildId: build!.id, deployedBuildId: build!.id } : { currentBuildId: build!.id })
    .where(eq(reportForms.id, formId));
  return { id: build!.id, widgets: next };
}
