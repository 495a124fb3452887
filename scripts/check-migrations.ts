import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Rolling upgrades (docs/decisions/057-rolling-upgrades.md): while an upgrade runs, instances of the
 * previous release serve on the schema the new release has migrated. So a migration newer than the
 * previous release may only add; anything an old instance could trip over (a drop, a rename, a type
 * change, a new NOT NULL without a default, a new uniqueness rule) belongs to a contract step, marked
 *
 *     -- contract: expanded in <migration folder of an earlier release>
 *
 * whose expand (the new column or table, written by both versions) shipped in an earlier release.
 */

/**
 * The release an upgrade starts from: a commit of main, and the newest migration it had. The
 * mixed-version test starts this commit; this check looks only at migrations newer than its last.
 * Move both forward together when a release ships.
 */
export const PREVIOUS_RELEASE = {
  commit: "3960bca66bb2312c1e2e2bb14a56c34b36617757",
  lastMigration: "20261124190240_form_translations",
} as const;

export const MIGRATIONS_DIR = fileURLToPath(new URL("../db/migrations", import.meta.url));

export interface MigrationProblem {
  migration: string;
  statement: string;
  problem: string;
}

const CONTRACT_MARKER = /^--\s*contract:\s*expanded in\s+(\S+)\s*$/im;
const IDENTIFIER = String.raw`(?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?`;
const CREATED_TABLE = new RegExp(String.raw`^CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${IDENTIFIER})`, "i");
const ALTERED_TABLE = new RegExp(String.raw`^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(${IDENTIFIER})`, "i");
const INDEXED_TABLE = new RegExp(String.raw`^CREATE\s+UNIQUE\s+INDEX\b.*?\bON\s+(?:ONLY\s+)?(${IDENTIFIER})(?:\s+USING\s+\w+)?\s*\(([^)]*)\)`, "i");
const ADDED_COLUMN = /\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|[\w$]+)/gi;

/** What old instances break on, and why, for statements on a table they already use. */
const DESTRUCTIVE: { pattern: RegExp; problem: string }[] = [
  { pattern: /^DROP\s+(TABLE|VIEW|MATERIALIZED\s+VIEW|TYPE|SCHEMA|FUNCTION|SEQUENCE)\b/i, problem: "drops something the previous release still uses" },
  { pattern: /^DROP\s+INDEX\b/i, problem: "drops an index the previous release may rely on (a unique one backs its upserts)" },
  { pattern: /^TRUNCATE\b/i, problem: "empties a table the previous release still reads" },
  { pattern: /\bDROP\s+COLUMN\b/i, problem: "drops a column the previous release still reads and writes" },
  { pattern: /\bDROP\s+CONSTRAINT\b/i, problem: "drops a constraint the previous release may rely on" },
  { pattern: /\bRENAME\b/i, problem: "renames something the previous release still addresses by its old name" },
  { pattern: /\bALTER\s+COLUMN\s+\S+\s+(?:SET\s+DATA\s+)?TYPE\b/i, problem: "changes a column's type under the previous release" },
  { pattern: /\bSET\s+NOT\s+NULL\b/i, problem: "makes a column NOT NULL that the previous release may leave empty" },
  { pattern: /\bDROP\s+DEFAULT\b/i, problem: "drops a default the previous release's inserts rely on" },
];
const TIGHTENING: { pattern: RegExp; problem: string }[] = [
  { pattern: /\bADD\s+(?:CONSTRAINT\s+\S+\s+)?(?:UNIQUE|CHECK|PRIMARY\s+KEY|EXCLUDE)\b/i, problem: "adds a rule the previous release's writes do not know to keep" },
  { pattern: /^CREATE\s+UNIQUE\s+INDEX\b/i, problem: "adds a uniqueness rule the previous release's writes do not know to keep" },
];

const tableName = (identifier: string) => identifier.replaceAll('"', "").replace(/^public\./i, "").toLowerCase();

/** What this migration brings into being: nothing of the previous release reads or writes it yet. */
interface NewHere {
  tables: Set<string>;
  /** "table.column" */
  columns: Set<string>;
}

function newHere(statements: string[]): NewHere {
  const tables = new Set<string>();
  const columns = new Set<string>();
  for (const statement of statements) {
    const created = CREATED_TABLE.exec(statement)?.[1];
    if (created) tables.add(tableName(created));
    const altered = ALTERED_TABLE.exec(statement)?.[1];
    if (altered) for (const match of statement.matchAll(ADDED_COLUMN)) columns.add(`${tableName(altered)}.${tableName(match[1]!)}`);
  }
  return { tables, columns };
}

/** A new column the previous release's inserts leave out must have a default (or may be null). */
function addsRequiredColumn(statement: string): boolean {
  return statement
    .split(/,(?=\s*(?:ADD|ALTER|DROP)\s)/i)
    .some((clause) => /\bADD\s+(?!CONSTRAINT|UNIQUE|CHECK|PRIMARY|FOREIGN|EXCLUDE)/i.test(clause) && /\bNOT\s+NULL\b/i.test(clause) && !/\bDEFAULT\b|\bGENERATED\b/i.test(clause));
}

/** The statements of a migration, without comments, whitespace collapsed. */
export function statementsOf(sqlText: string): string[] {
  return sqlText
    .split("--> statement-breakpoint")
    .map((part) => part.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, ""))
    .flatMap((part) => part.split(";"))
    .map((statement) => statement.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

/** Why this statement would break an instance of the previous release, or null when it only adds. */
export function destructiveProblem(statement: string, fresh: NewHere = { tables: new Set(), columns: new Set() }): string | null {
  const index = INDEXED_TABLE.exec(statement);
  const table = ALTERED_TABLE.exec(statement)?.[1] ?? index?.[1];
  // Nothing of the previous release knows a table this very migration creates.
  if (table && fresh.tables.has(tableName(table))) return null;
  // A unique index over columns added here only: the previous release leaves them null, which never collide.
  if (index && index[2]!.split(",").every((column) => fresh.columns.has(`${tableName(index[1]!)}.${tableName(column.trim())}`))) return null;
  for (const rule of [...DESTRUCTIVE, ...TIGHTENING]) if (rule.pattern.test(statement)) return rule.problem;
  if (addsRequiredColumn(statement)) return "adds a NOT NULL column without a default: the previous release's inserts leave it out";
  return null;
}

/** The problems of one migration newer than the baseline; `known` are every migration folder's names. */
export function checkMigration(name: string, sqlText: string, baseline: string, known: string[]): MigrationProblem[] {
  const contract = CONTRACT_MARKER.exec(sqlText);
  if (contract) {
    const expand = contract[1]!;
    if (!known.includes(expand)) return [{ migration: name, statement: contract[0], problem: `is marked as a contract step of ${expand}, which is no migration here` }];
    if (expand > baseline)
      return [{ migration: name, statement: contract[0], problem: `is marked as a contract step of ${expand}, which has not shipped yet (the previous release ends at ${baseline}): contract a release later` }];
    return [];
  }
  const statements = statementsOf(sqlText);
  const fresh = newHere(statements);
  return statements.flatMap((statement) => {
    const problem = destructiveProblem(statement, fresh);
    return problem ? [{ migration: name, statement, problem }] : [];
  });
}

/** Every migration in `folder` newer than the baseline, checked. */
export function checkMigrations(folder = MIGRATIONS_DIR, baseline: string = PREVIOUS_RELEASE.lastMigration): MigrationProblem[] {
  const names = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  if (!names.includes(baseline)) throw new Error(`The previous release's last migration ${baseline} is not in ${folder}: correct PREVIOUS_RELEASE in scripts/check-migrations.ts`);
  return names
    .filter((name) => name > baseline && existsSync(join(folder, name, "migration.sql")))
    .flatMap((name) => checkMigration(name, readFileSync(join(folder, name, "migration.sql"), "utf8"), baseline, names));
}

if (import.meta.main) {
  const problems = checkMigrations(process.argv[2] ?? MIGRATIONS_DIR);
  for (const { migration, statement, problem } of problems) console.error(`${migration}: "${statement}" ${problem}.`);
  if (problems.length > 0) {
    console.error(
      `${problems.length} migration statement(s) would break instances of the previous release during a rolling upgrade (decision 057).\n` +
        "Expand now (add the new column or table, write both) and contract in a later release, in a migration marked\n" +
        "  -- contract: expanded in <the expand's migration folder>",
    );
    process.exit(1);
  }
  console.log("Migrations since the previous release only add.");
}
