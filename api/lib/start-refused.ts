import { DataDirLockedError } from "../../db/data-dir-lock.ts";
import type { Config } from "../config.ts";
import { listBackups } from "./backup/scheduled.ts";

/** A start that cannot go on for a reason the operator must act on: printed as its one line, no stack. */
export class StartRefusedError extends Error {
  constructor(
    message: string,
    /** sysexits: 75 (temporary: the directory is another process's, as the commands answer), 74 (input/output: the database is damaged). */
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Drizzle and PGlite wrap the reason; the innermost message says it. */
function reason(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message.split("\n")[0]! : String(current);
}

/**
 * Why the embedded database did not open, in one line that says what to do: another process holds
 * the directory (decision 067), or the files cannot be opened, with the newest automatic backup
 * named (decision 070). Any other error, or Postgres, is returned as it was.
 */
export function explainUnopenedDatabase(config: Config, error: unknown): unknown {
  if (error instanceof DataDirLockedError) return new StartRefusedError(error.message, 75);
  if (config.database.kind !== "pglite") return error;
  const directory = config.database.dataDir;
  const newest = config.backups ? listBackups(config.backups.directory)[0] : undefined;
  const next = newest
    ? `The newest automatic backup is ${newest.path} (made ${newest.madeAt.toISOString()}): \`bun run cli restore --latest\` moves the damaged directory aside and restores it.`
    : `No automatic backup was found${config.backups ? ` in ${config.backups.directory}` : ""}: restore your latest archive with \`bun run cli restore --from FILE\` into an empty DATA_DIR.`;
  return new StartRefusedError(`The embedded database in ${directory} could not be opened (${reason(error)}). ${next}`, 74);
}
