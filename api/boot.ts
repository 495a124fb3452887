import { fileURLToPath } from "node:url";
import type { Server } from "bun";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { migrateDatabase } from "../db/migrate.ts";
import type { PreparedClusterFiles } from "../db/prepared-cluster.ts";
import { type AppOptions, createApp, type LanternApp } from "./app.ts";
import type { Config } from "./config.ts";
import type { Services } from "./context.ts";
import type { SocketData } from "./graphql/websocket.ts";
import { createInvalidator } from "./lib/invalidation.ts";
import { SessionCache } from "./lib/session-cache.ts";
import { OrganisationCache } from "./modules/organisations/organisation-cache.ts";
import { ReporterSessionCache } from "./modules/reporting/reporter-session-cache.ts";
import { ViewerCache } from "./modules/users/viewer-cache.ts";
import { DraftSnapshots } from "./modules/reporting/draft-snapshots.ts";
import { createPubSub } from "./lib/pubsub.ts";
import { createBlobStore } from "./lib/blob-store.ts";
import { createMailer } from "./lib/mailer.ts";
import { logInfo, setLogLevel } from "./lib/log.ts";
import { startNotifier } from "./modules/notifications/notifier.ts";
import { startStaleReminders } from "./modules/notifications/stale-reminders.ts";
import { startLegalClockReminders } from "./modules/legal-clocks/reminders.ts";
import { startRetention } from "./modules/retention/sweep.ts";
import { startHousekeeping } from "./modules/abuse/housekeeping.ts";
import { createTranslator } from "./modules/translation/service.ts";
import { discardGeneratedKey, loadMasterKeys } from "./lib/master-key.ts";
import { KeyRing } from "./lib/key-ring.ts";
import { startLegacySealing, type ResealCounts } from "./lib/reseal.ts";
import { startScheduledBackups } from "./lib/backup/scheduled.ts";
import { explainUnopenedDatabase } from "./lib/start-refused.ts";
import { serveBackupSocket } from "./lib/backup/socket.ts";
import { GracefulStop } from "./lib/graceful-stop.ts";
import { stopCleaningWorkers } from "./modules/files/cleaning-pool.ts";

export const DEFAULT_SITE_ROOT = fileURLToPath(new URL("../site/dist", import.meta.url));

/** Uploads are the largest bodies: 25 MB per attachment plus multipart overhead. */
export const MAX_REQUEST_BODY_BYTES = 30 * 1024 * 1024;

export interface BootOptions {
  siteRoot?: string;
  migrationsFolder?: string;
  pglite?: PGlite;
  /** The prepared cluster a fresh PGlite directory is filled from (decision 026); defaults to the build's. */
  preparedCluster?: PreparedClusterFiles | null;
  /** Runs after migrations, before serving (the embedded demo seed). */
  afterMigrate?: (database: DatabaseHandle) => Promise<void>;
  /** Listen on this port instead of config.port (0 picks a free one). */
  port?: number;
  hostname?: string;
  /** Tighter bounds on sockets without a session, for tests (they can only be lowered). */
  anonymousSockets?: AppOptions["anonymousSockets"];
}

export interface RunningLantern {
  services: Services;
  app: LanternApp;
  server: Server<SocketData>;
  url: string;
  /** The start's sealing of values stored before encryption (null if it failed; logged). */
  legacySealing: Promise<ResealCounts | null>;
  /**
   * Stops the server and what it runs. On a signal (`quietMs` given) gracefully: requests under way
   * finish within SHUTDOWN_GRACE_SECONDS, new ones are refused with 503 until none has come for
   * `quietMs` (decision 056).
   */
  stop(options?: { quietMs?: number }): Promise<void>;
}

/** Beyond the old process's grace for requests: closing PGlite writes a checkpoint, which can take seconds. */
const LOCK_WAIT_BEYOND_GRACE_MS = 20_000;

/** Opens the database, migrates it, and serves Lantern. The one way the server starts. */
export async function startLantern(config: Config, options: BootOptions = {}): Promise<RunningLantern> {
  setLogLevel(config.logLevel);
  const masterKeys = await loadMasterKeys(config.masterKey);
  const database = await openDatabase(config.database, {
    ...(options.pglite ? { pglite: options.pglite } : {}),
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
    ...(options.preparedCluster !== undefined ? { preparedCluster: options.preparedCluster } : {}),
    onSlowInit: (reason) => logInfo("A fresh embedded database is initialised from scratch, which takes seconds", { reason }),
    // A start right after a stop: the old process may still be finishing its requests and closing the
    // database. Wait for it to let go rather than open the files beside it (decision 067).
    lock: {
      waitMs: config.shutdownGraceMs + LOCK_WAIT_BEYOND_GRACE_MS,
      onWaiting: (pid) => logInfo("Waiting for the Lantern process that has DATA_DIR open to stop", { pid, dataDir: config.dataDir }),
    },
  }).catch((error: unknown) => {
    throw options.pglite ? error : explainUnopenedDatabase(config, error);
  });
  const keyRing = new KeyRing(masterKeys, database.db);
  try {
    await migrateDatabase(database, options.migrationsFolder);
    // Before anything reads or writes sealed data: a wrong master key stops the start here.
    await keyRing.verify();
    await options.afterMigrate?.(database);
  } catch (error) {
    await database.close();
    await discardGeneratedKey(masterKeys);
    throw error;
  }
  const pubsub = await createPubSub(database);
  const invalidator = createInvalidator(pubsub);
  const services: Services = {
    config,
    database,
    pubsub,
    invalidator,
    sessionCache: new SessionCache(invalidator),
    viewerCache: new ViewerCache(invalidator),
    organisationCache: new OrganisationCache(invalidator),
    reporterSessionCache: new ReporterSessionCache(invalidator),
    draftSnapshots: new DraftSnapshots(),
    blobs: createBlobStore(config.blobs),
    mailer: createMailer(config.mail),
    translator: config.translation ? createTranslator(config.translation, database.db) : null,
    keyRing,
  };
  await services.blobs.prepare();
  const stopNotifier = startNotifier(services);
  const stopReminders = startStaleReminders(services);
  const stopLegalReminders = startLegalClockReminders(services);
  const stopRetention = startRetention(services);
  const stopHousekeeping = startHousekeeping(services);
  const legacySealing = startLegacySealing(database.db, keyRing, services.blobs);
  const app = createApp(services, {
    siteRoot: options.siteRoot ?? DEFAULT_SITE_ROOT,
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
    ...(options.anonymousSockets ? { anonymousSockets: options.anonymousSockets } : {}),
  });
  // Caches serve only once this instance hears the invalidation channel: waiting for that (a round
  // trip, bounded) lets the first requests use them. Unheard, the instance still serves, uncached.
  await invalidator.heard(2_000);
  const graceful = new GracefulStop();
  const server = Bun.serve<SocketData>({
    port: options.port ?? config.port,
    hostname: options.hostname ?? "0.0.0.0",
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    idleTimeout: 30,
    fetch: graceful.fetch((request: Request, srv: Server<SocketData>) => app.fetch(request, srv)),
    websocket: { ...graceful.websocket(app.websocket), idleTimeout: 60 },
  });
  // The embedded database is this process's alone: the CLI's backups are served through it (decision 055).
  const stopBackupSocket = config.database.kind === "pglite" ? await serveBackupSocket(config.dataDir, database, services.blobs) : async () => {};
  // Its own recent backups, when it opened the embedded directory itself (decision 070): a PGlite
  // handed in (tests' in-memory copies) has no directory to lose.
  const stopScheduledBackups = config.backups && config.database.kind === "pglite" && !options.pglite ? startScheduledBackups(database, services.blobs, config.backups) : async () => {};
  const url = `http://localhost:${server.port}`;
  logInfo("Lantern is serving", { url, database: config.database.kind });
  let stopped = false;
  return {
    services,
    app,
    server,
    url,
    legacySealing: legacySealing.done,
    async stop(options = {}) {
      if (stopped) return;
      stopped = true;
      // New requests are refused from now on; requests under way finish within the grace (decision 056).
      await graceful.stop(server as Server<unknown>, config.shutdownGraceMs, options.quietMs);
      await stopBackupSocket();
      await stopScheduledBackups();
      // The requests are done, so no cleaning is waited for; idle workers would not keep the process alive, but need not linger.
      stopCleaningWorkers();
      // Before the pubsub, mailer and database it uses are closed: mail under way is finished first.
      await stopNotifier();
      await stopReminders();
      await stopLegalReminders();
      await stopRetention();
      await stopHousekeeping();
      await legacySealing.stop();
      await invalidator.close();
      await pubsub.close();
      await services.mailer.close();
      await database.close();
    },
  };
}
