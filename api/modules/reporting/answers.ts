import { eq } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { reportSubmissionAnswers } from "../../../db/schema/index.ts";
import type { Sealer } from "../../lib/key-ring.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";

export const AnswerInput = v.object({
  widgetID: v.pipe(v.string(), v.minLength(1), v.maxLength(TEXT_LIMITS.short.max)),
  answer: v.pipe(v.array(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.answer.max, TEXT_LIMITS.answer.tooLong))), v.maxLength(100)),
});
export const AnswersInput = v.pipe(v.array(AnswerInput), v.maxLength(500));
export type AnswerInputs = v.InferOutput<typeof AnswersInput>;

/**
 * An answer as stored: each of its texts sealed on its own (docs/decisions/049), so the column
 * keeps its shape and an option chosen is as unreadable at rest as a text typed.
 */
export const sealAnswer = (sealer: Sealer, answer: readonly string[]): string[] => answer.map((text) => sealer.sealText("answer", text));

/** An answer as typed; texts from before encryption read as they are. */
export const openAnswer = (sealer: Sealer, stored: readonly string[]): string[] => stored.map((text) => sealer.openText("answer", text));

/** A submission's answers by question, opened: everything that shows, exports or compares them reads them so. */
export async function storedAnswers(db: Database, sealer: Sealer, submissionId: string): Promise<Record<string, string[]>> {
  const rows = await db
    .select({ widgetId: reportSubmissionAnswers.widgetId, answer: reportSubmissionAnswers.answer })
    .from(reportSubmissionAnswers)
    .where(eq(reportSubmissionAnswers.submissionId, submissionId));
  return Object.fromEntries(rows.map((row) => [row.widgetId, openAnswer(sealer, row.answer)]));
}
