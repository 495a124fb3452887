import type { Database } from "../../../db/client.ts";
import { reportForms, reportSubmissions } from "../../../db/schema/index.ts";

/** A bare report of an organisation (a form and a submission row), for lists that filter by a report's team. */
export async function createReportForTests(db: Database, organisationId: string): Promise<string> {
  const [form] = await db.insert(reportForms).values({ organisationId, name: "Team test form" }).returning({ id: reportForms.id });
  const [report] = await db.insert(reportSubmissions).values({ organisationId, formId: form!.id, completed: true, status: "New" }).returning({ id: reportSubmissions.id });
  return report!.id;
}
