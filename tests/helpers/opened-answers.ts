import { eq } from "drizzle-orm";
import type { SealPurpose } from "../../api/lib/key-ring.ts";
import type { Database } from "../../db/client.ts";
import { reportSubmissionAnswers, reportSubmissions } from "../../db/schema/index.ts";
import type { TestServer } from "./server.ts";

/**
 * Reporters' answers are stored sealed (docs/decisions/049): a test that checks what was stored
 * against what was typed opens the stored value first, as the server does, instead of comparing
 * sealed text.
 */

type Sealing = Pick<TestServer, "lantern" | "db">;

export async function openedText(server: Sealing, organisationId: string, purpose: SealPurpose, stored: string): Promise<string> {
  const sealer = await server.lantern.services.keyRing.sealer(server.db, organisationId);
  return sealer.openText(purpose, stored);
}

/** A submission's stored answers by question, opened; `db` is another instance's handle to the same data, if given. */
export async function openedAnswers(server: Sealing, submissionId: string, db: Database = server.db): Promise<Record<string, string[]>> {
  const [submission] = await db.select({ organisationId: reportSubmissions.organisationId }).from(reportSubmissions).where(eq(reportSubmissions.id, submissionId));
  if (!submission) return {};
  const sealer = await server.lantern.services.keyRing.sealer(server.db, submission.organisationId);
  const rows = await db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, submissionId));
  return Object.fromEntries(rows.map((row) => [row.widgetId, row.answer.map((text) => sealer.openText("answer", text))]));
}
