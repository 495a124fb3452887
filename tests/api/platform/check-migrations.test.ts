import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkMigration, checkMigrations, MIGRATIONS_DIR, PREVIOUS_RELEASE } from "../../../scripts/check-migrations.ts";

/**
 * The expand-then-contract rule (decision 057), enforced on the migrations newer than the previous
 * release: what an instance of that release would trip over fails with its reason, what only adds
 * passes, and a contract step passes once its expand has shipped.
 */

const BASELINE = "20260101000000_shipped";
const KNOWN = [BASELINE, "20260201000000_new"];
const check = (sqlText: string) => checkMigration("20260201000000_new", sqlText, BASELINE, KNOWN).map((problem) => problem.problem);

describe("what would break the previous release", () => {
  test.each([
    ["a dropped column", `ALTER TABLE "reports" DROP COLUMN "title";`],
    ["a dropped table", `DROP TABLE "saved_replies" CASCADE;`],
    ["a renamed column", `ALTER TABLE "reports" RENAME COLUMN "title" TO "subject";`],
    ["a renamed table", `ALTER TABLE "reports" RENAME TO "cases";`],
    ["a type change", `ALTER TABLE "reports" ALTER COLUMN "priority" SET DATA TYPE integer USING "priority"::integer;`],
    ["a short type change", `ALTER TABLE "reports" ALTER COLUMN "priority" TYPE integer;`],
    ["a column made NOT NULL", `ALTER TABLE "reports" ALTER COLUMN "closed_at" SET NOT NULL;`],
    ["a NOT NULL column without a default", `ALTER TABLE "reports" ADD COLUMN "region" text NOT NULL;`],
    ["a dropped default", `ALTER TABLE "reports" ALTER COLUMN "archived" DROP DEFAULT;`],
    ["a dropped index", `DROP INDEX "reports_title_index";`],
    ["a new unique rule on an old column", `CREATE UNIQUE INDEX "reports_title_index" ON "reports" ("title");`],
    ["a new check on an old table", `ALTER TABLE "reports" ADD CONSTRAINT "title_short" CHECK (length("title") < 100);`],
    ["the second of two statements on one line", `ALTER TABLE "reports" ADD COLUMN "a" text; ALTER TABLE "reports" DROP COLUMN "b";`],
  ])("%s fails", (_, sqlText) => {
    expect(check(sqlText)).toHaveLength(1);
  });

  test("the failure names the migration, the statement and why", () => {
    const [problem] = checkMigration("20260201000000_new", `-- Titles are subjects now\nALTER TABLE "reports" DROP COLUMN "title";`, BASELINE, KNOWN);
    expect(problem).toEqual({ migration: "20260201000000_new", statement: `ALTER TABLE "reports" DROP COLUMN "title"`, problem: "drops a column the previous release still reads and writes" });
  });
});

describe("what only adds", () => {
  test("a generated migration of new tables, nullable and defaulted columns, indexes and backfills passes", () => {
    const additive = `CREATE TABLE "saved_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	"organisation_id" uuid NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "saved_replies_title_index" ON "saved_replies" ("organisation_id","title");--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_title_unique" UNIQUE ("title");--> statement-breakpoint
ALTER TABLE "report_forms" ADD COLUMN "acknowledgement_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_submissions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_identity" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_sso_identity_idx" ON "users" ("sso_identity");--> statement-breakpoint
CREATE INDEX "report_submissions_closed_idx" ON "report_submissions" ("organisation_id","closed_at") WHERE "closed_at" is not null;--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE;--> statement-breakpoint
-- A comment may say DROP COLUMN or RENAME without being one.
UPDATE "report_submissions" SET "closed_at" = "updated_at" WHERE "status" = 'Closed';`;
    expect(check(additive)).toEqual([]);
  });

  test("every migration since the previous release only adds", () => {
    expect(checkMigrations()).toEqual([]);
    expect(readdirSync(MIGRATIONS_DIR)).toContain(PREVIOUS_RELEASE.lastMigration);
  });
});

describe("contract steps", () => {
  const drop = `ALTER TABLE "reports" DROP COLUMN "title";`;

  test("a marked contract whose expand shipped in an earlier release passes", () => {
    expect(check(`-- contract: expanded in ${BASELINE}\n${drop}`)).toEqual([]);
  });

  test("a contract of an expand from this same release fails: no instance may run without the new column yet", () => {
    const problems = checkMigration("20260301000000_contract", `-- contract: expanded in 20260201000000_new\n${drop}`, BASELINE, [...KNOWN, "20260301000000_contract"]);
    expect(problems.map((problem) => problem.problem)).toEqual([
      `is marked as a contract step of 20260201000000_new, which has not shipped yet (the previous release ends at ${BASELINE}): contract a release later`,
    ]);
  });

  test("a contract naming no migration fails", () => {
    expect(check(`-- contract: expanded in 20250101000000_typo\n${drop}`)).toEqual(["is marked as a contract step of 20250101000000_typo, which is no migration here"]);
  });
});

describe("the check as `bun run test` runs it", () => {
  const folder = mkdtempSync(join(tmpdir(), "lantern-migrations-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const write = (name: string, sqlText: string) => {
    mkdirSync(join(folder, name), { recursive: true });
    writeFileSync(join(folder, name, "migration.sql"), sqlText);
  };
  const run = () => Bun.spawnSync(["bun", join(import.meta.dir, "..", "..", "..", "scripts", "check-migrations.ts"), folder], { stdout: "pipe", stderr: "pipe" });

  test("passes on additive migrations after the baseline and fails, saying what to do, on a destructive one", () => {
    write(PREVIOUS_RELEASE.lastMigration, `ALTER TABLE "reports" DROP COLUMN "old";`);
    write("29990101000000_added", `ALTER TABLE "reports" ADD COLUMN "region" text;`);
    const passed = run();
    expect({ exit: passed.exitCode, out: passed.stdout.toString() }).toEqual({ exit: 0, out: "Migrations since the previous release only add.\n" });

    write("29990102000000_dropped", `ALTER TABLE "reports" DROP COLUMN "region";`);
    const failed = run();
    expect(failed.exitCode).toBe(1);
    const message = failed.stderr.toString();
    expect(message).toContain(`29990102000000_dropped: "ALTER TABLE "reports" DROP COLUMN "region"" drops a column the previous release still reads and writes.`);
    expect(message).toContain("-- contract: expanded in <the expand's migration folder>");
  });
});
