/**
 * Backup at the size of a large organisation (issue 16): `bun run cli backup` of the at-scale database
 * (the demo plus the list's seeded reports), as an operator runs it next to a serving Lantern. The
 * figures are the command's whole time and the archive's size, gzip-compressed as the README shows.
 */
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { lanternEnv, type LanternOptions } from "./lantern.ts";
import { runCommand } from "./processes.ts";
import type { BenchContext } from "./scenarios.ts";
import { formatCount, type Row } from "./table.ts";

export async function measureBackup(ctx: BenchContext, options: LanternOptions, reports: number): Promise<Row[]> {
  const file = join(options.dataDir, "bench-backup.tar.gz");
  const removeFile = ctx.cleanup.defer("remove the bench backup archive", () => rm(file, { force: true }));
  try {
    ctx.progress(`Postgres at scale: backing up ${formatCount(reports)} reports`);
    const startedAt = performance.now();
    await runCommand("cli backup", [process.execPath, "scripts/cli.ts", "backup", "--to", file], lanternEnv(options));
    const seconds = (performance.now() - startedAt) / 1000;
    const bytes = (await stat(file)).size;
    return [
      { name: `Backup, ${formatCount(reports)} reports (Postgres)`, value: seconds.toFixed(1), unit: "s", note: "bun run cli backup --to FILE.tar.gz: every table and blob, checksummed" },
      { name: "  archive size", value: (bytes / (1024 * 1024)).toFixed(1), unit: "MiB", note: `${formatCount(bytes / Math.max(1, reports))} bytes a report, gzip` },
    ];
  } finally {
    await removeFile();
  }
}
