import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { resultRows } from "../../../db/results.ts";
import { cloneTemplate, type TestDatabase } from "../../setup/template.ts";

/**
 * `lantern_holds_plain_text`, the predicate of report_submission_answers_in_plain_idx (decision 059):
 * true exactly when an answer still holds a value that is neither empty nor sealed ("lx1:"), so the
 * start's sealing finds every plain answer through the index and no sealed one.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await cloneTemplate();
});
afterAll(() => database.drop());

const holds = async (answer: string[] | null): Promise<boolean> => {
  const elements = answer === null ? sql`null::text[]` : sql`array(select jsonb_array_elements_text(${JSON.stringify(answer)}::text::jsonb))`;
  const result = await database.handle.db.execute(sql`select lantern_holds_plain_text(${elements}) as holds`);
  return resultRows<{ holds: boolean }>(result)[0]!.holds;
};

test("a plain value, alone or beside sealed ones, is plain; sealed and empty values are not", async () => {
  expect(await holds(["Harassment"])).toBe(true);
  expect(await holds(["lx1:AAAA", "Forklift"])).toBe(true);
  expect(await holds(["", "2026-03-14"])).toBe(true);
  expect(await holds(["lx1:AAAA"])).toBe(false);
  expect(await holds(["lx1:AAAA", "lx1:BBBB", ""])).toBe(false);
  expect(await holds([""])).toBe(false);
  expect(await holds([])).toBe(false);
  expect(await holds(null)).toBe(false);
});
