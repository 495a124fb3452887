import type { Config } from "./config.ts";
import { listBackups } from "./lib/backup/scheduled.ts";
import type { DemoSeedOutcome } from "./demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../db/seed/demo-accounts.ts";

/** What a person starting Lantern needs to read first: where to go, and how to get in. */
export function startBanner(config: Config, port: number, seed: DemoSeedOutcome, createSuperAdminCommand: string): string[] {
  const origin = (host: string) => `${config.protocol}://${host}${defaultPort(config.protocol) === port ? "" : `:${port}`}`;
  const lines = [`Lantern is ready on ${config.database.kind === "pglite" ? "the embedded database" : "PostgreSQL"}.`, `  Admin console:       ${origin(config.appDomain)}/admin`];
  const demo = seed.kind === "seeded" || (seed.kind === "existing" && seed.demo);
  if (demo) {
    lines.push(`  Demo organisation:   ${origin(`demo.${config.appDomain}`)}/`);
    lines.push(`  Report login:        ${origin(`login.${config.appDomain}`)}/`);
    lines.push(`  Demo sign-in:        owner@demo.test / ${DEMO_PASSWORD} (every demo account: README, "Demo data")`);
  } else {
    lines.push(`  Report login:        ${origin(`login.${config.appDomain}`)}/`);
  }
  if (seed.kind === "seeded") {
    lines.push(`  Demo reports (each with the password ${DEMO_REPORT_PASSWORD}):`);
    for (const report of seed.reports) lines.push(`    ${report.reportId}  ${report.organisationSlug.padEnd(10)} ${report.status}`);
  }
  if (config.backups && config.database.kind === "pglite") {
    const newest = listBackups(config.backups.directory)[0];
    lines.push(`  Automatic backups:   every ${describeInterval(config.backups.everyMs)} into ${config.backups.directory}, the last ${config.backups.keep} kept (${newest ? `newest ${newest.madeAt.toISOString()}` : "none yet"})`);
  }
  if (seed.kind === "empty") {
    // The embedded database is one process's at a time (decision 067): the command waits for this server to stop.
    const when = config.database.kind === "pglite" ? ", once this server has stopped," : "";
    lines.push(`  No staff account exists yet. Create the first one${when} with:`);
    lines.push(`    ${createSuperAdminCommand} --email you@example.org --first-name Ada --last-name Lovelace --password '<a strong password>'`);
  }
  return lines;
}

function describeInterval(ms: number): string {
  const minutes = ms / 60_000;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

function defaultPort(protocol: "http" | "https"): number {
  return protocol === "https" ? 443 : 80;
}
