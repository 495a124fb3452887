import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { TEST_MASTER_KEY } from "../../tests/helpers/master-key.ts";
import { freePort } from "../../tests/helpers/processes.ts";
import { databaseUrl, usingPostgres } from "../../tests/setup/template.ts";
import { launch, stop, waitUntilReady } from "./processes.ts";

/**
 * SIGKILL during a first start, when the migrations really run: on an empty Postgres database every
 * migration from nothing; on an empty data directory the prepared cluster's copy, the migrations after
 * it and the demo's seed. The loop's own database is migrated before its first cycle, so there a kill
 * during start-up can only meet the migrator finding nothing to do.
 */

/** The first kill falls within this much of the spawn; the next ones within the time a start was seen to take. */
const FIRST_KILL_WINDOW_MS = 4_000;

export interface FirstStartFigures {
  kills: number;
  killedBeforeReady: number;
}

async function emptyDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  if (!usingPostgres()) return { url: null, drop: async () => {} };
  const name = `lantern_crash_${randomBytes(6).toString("hex")}`;
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return {
    url: databaseUrl(name),
    async drop() {
      const cleanup = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** Kills a first start `kills` times at random moments; the start after them must be ready, every migration applied. */
export async function killFirstStarts(kills: number, random: () => number, log: (line: string) => void): Promise<FirstStartFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-first-start-"));
  const database = await emptyDatabase();
  const env: Record<string, string> = { DATA_DIR: dataDir, APP_DOMAIN: "localhost", MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: "error", ...(database.url ? { DATABASE_URL: database.url } : {}) };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let killedBeforeReady = 0;
  let windowMs = FIRST_KILL_WINDOW_MS;
  try {
    for (let kill = 1; kill <= kills; kill += 1) {
      const moment = Math.floor(random() * windowMs);
      const spawnedAt = performance.now();
      const server = launch({ env }, port, false);
      const ready = waitUntilReady(server, origin).then(
        () => {
          windowMs = Math.min(windowMs, performance.now() - spawnedAt);
          return true;
        },
        () => false,
      );
      const readyFirst = await Promise.race([ready, Bun.sleep(moment).then(() => false)]);
      await stop(server, { cycle: 0, kind: "sigkill-starting", moment: 0 });
      if (!readyFirst && !(await ready)) killedBeforeReady += 1;
      log(`first start ${kill}/${kills}: SIGKILL at ${moment} ms, ${readyFirst ? "after" : "before"} ready`);
    }
    // Ready means every migration this build ships is applied (/readyz).
    const server = launch({ env }, port, false);
    await waitUntilReady(server, origin);
    const outcome = await stop(server, { cycle: 0, kind: "sigterm", moment: 0 });
    if (outcome.ended !== 0) throw new Error(`the start after the first starts' kills did not stop cleanly: ${outcome.ended}`);
    return { kills, killedBeforeReady };
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
