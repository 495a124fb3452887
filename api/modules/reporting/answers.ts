import { eq } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { reportSubmissionAnswers } from "../../../db/schema/index.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";

export const AnswerInput = v.object({
  widgetID: v.pipe(v.string(), v.minLength(1), v.maxLength(TEXT_LIMITS.short.max)),
  answer: v.pipe(v.array(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.answer.max, TEXT_LIMITS.answer.tooLong))), v.maxLength(100)),
});
export const AnswersInput = v.pipe(v.array(AnswerInput), v.maxLength(500));
export type AnswerInputs = v.InferOutput<typeof AnswersInput>;

export async function storedAnswers(db: Database, submissionId: string): Promise<Record<string, string[]>> {
  const rows = await db
    .select({ widgetId: reportSubmissionAnswers.widgetId, answer: reportSubmissionAnswers.answer })
    .from(reportSubmissionAnswers)
    .where(eq(reportSubmissionAnswers.submissionId, submissionId));
  return Object.fromEntries(rows.map((row) => [row.widgetId, row.answer]));
}
