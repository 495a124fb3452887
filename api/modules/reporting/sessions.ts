import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reporterSessions } from "../../../db/schema/index.ts";
import type { ReporterActor } from "../../context.ts";
import { changeEverywhere, type Invalidator } from "../../lib/invalidation.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import type { ReporterSessionCache } from "./reporter-session-cache.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_IDLE_TIMEOUT_MS, REPORTER_TOUCH_INTERVAL_MS } from "./session-policy.ts";

export interface ReporterSessionRow {
  tokenHash: string;
  organisationId: string;
  submissionId: string | null;
  unlockedFormIds: string[];
}

export interface NewReporterSession {
  /** For the cookie; only its hash is kept. */
  token: string;
  tokenHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** A reporter session's token and times, for a caller that writes its row itself (draft-statements.ts). */
export function newReporterSession(now = new Date()): NewReporterSession {
  const token = newToken();
  return { token, tokenHash: hashToken(token), lastSeenAt: now, expiresAt: new Date(now.getTime() + REPORTER_ABSOLUTE_TIMEOUT_MS) };
}

/** Opens a reporter session in an organisation; returns the cookie token (only its hash is kept). */
export async function createReporterSession(tx: Database, organisationId: string, submissionId: string | null = null, now = new Date()) {
  const session = newReporterSession(now);
  const { tokenHash, expiresAt } = session;
  await tx.insert(reporterSessions).values({ tokenHash, organisationId, submissionId, createdAt: now, lastSeenAt: now, expiresAt });
  return session;
}

/**
 * The reporter behind a cookie, on the organisation the request's host names. A session of
 * another organisation is no session at all here; expired ones are deleted on sight.
 * With a cache, a session resolved before is served from it (reporter-session-cache.ts says which).
 */
export async function resolveReporterSession(db: Database, token: string, organisationId: string, cache?: ReporterSessionCache, now = new Date()): Promise<ReporterActor | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const cached = cache?.get(tokenHash);
  if (!cached) return resolveReporterSessionByHash(db, tokenHash, organisationId, now, cache);
  if (cached.organisationId !== organisationId) return null;
  if (sessionEnded(cached, now)) {
    // Read again: another instance may have seen it more recently; if not, the row is deleted there.
    cache!.forget(tokenHash);
    return resolveReporterSessionByHash(db, tokenHash, organisationId, now, cache);
  }
  if (needsTouch(cached.lastSeenAt, now)) {
    await touch(db, tokenHash, now);
    cached.lastSeenAt = now;
  }
  return actorOf(tokenHash, cached);
}

async function resolveReporterSessionByHash(db: Database, tokenHash: string, organisationId: string, now: Date, cache?: ReporterSessionCache): Promise<ReporterActor | null> {
  const markedAt = cache?.mark() ?? 0;
  const [row] = await db.select().from(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash)).limit(1);
  if (!row || row.organisationId !== organisationId) return null;
  if (sessionEnded(row, now)) {
    await db.delete(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash));
    return null;
  }
  let lastSeenAt = row.lastSeenAt;
  if (needsTouch(lastSeenAt, now)) {
    await touch(db, tokenHash, now);
    lastSeenAt = now;
  }
  const { submissionId, unlockedFormIds, expiresAt } = row;
  // Unbound sessions are never kept: binding one (starting a report) must be seen at once everywhere.
  if (submissionId !== null) cache?.store(tokenHash, { organisationId, submissionId, unlockedFormIds, lastSeenAt, expiresAt }, markedAt);
  return actorOf(tokenHash, { organisationId, submissionId, unlockedFormIds });
}

function actorOf(tokenHash: string, session: { organisationId: string; submissionId: string | null; unlockedFormIds: readonly string[] }): ReporterActor {
  return {
    kind: "reporter",
    organisationId: session.organisationId,
    submissionId: session.submissionId,
    // A copy: the cached list is shared by every request of this session.
    unlockedFormIds: [...session.unlockedFormIds],
    sessionTokenHash: tokenHash,
  };
}

function sessionEnded(session: { lastSeenAt: Date; expiresAt: Date }, now: Date): boolean {
  return session.expiresAt <= now || now.getTime() - session.lastSeenAt.getTime() > REPORTER_IDLE_TIMEOUT_MS;
}

function needsTouch(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() > REPORTER_TOUCH_INTERVAL_MS;
}

async function touch(db: Database, tokenHash: string, now: Date): Promise<void> {
  await db.update(reporterSessions).set({ lastSeenAt: now }).where(eq(reporterSessions.tokenHash, tokenHash));
}

/** Ends a reporter session; resolves once no instance would still accept it from its cache. */
export async function deleteReporterSession(db: Database, invalidator: Invalidator, tokenHash: string): Promise<void> {
  await changeEverywhere(db, invalidator, { tokenHashes: [tokenHash] }, (tx) => tx.delete(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash)));
}

/**
 * Gives an unbound session its report, inside the transaction that opens the report. With the
 * invalidator, every instance drops a cached copy (await the returned function after commit);
 * a copy can exist only if the session was bound already, since unbound sessions are never cached.
 */
export async function bindSessionToSubmission(tx: Database, tokenHash: string, submissionId: string, invalidator?: Invalidator): Promise<() => Promise<void>> {
  await tx.update(reporterSessions).set({ submissionId }).where(eq(reporterSessions.tokenHash, tokenHash));
  return invalidator ? invalidator.announce(tx, { tokenHashes: [tokenHash] }) : async () => {};
}

/** Adds a form to those the session has unlocked; resolves once every instance has dropped its copy. */
export async function rememberUnlockedForm(db: Database, invalidator: Invalidator, tokenHash: string, formId: string): Promise<void> {
  await changeEverywhere(db, invalidator, { tokenHashes: [tokenHash] }, (tx) =>
    tx
      .update(reporterSessions)
      .set({ unlockedFormIds: sql`array_append(array_remove(${reporterSessions.unlockedFormIds}, ${formId}::uuid), ${formId}::uuid)` })
      .where(eq(reporterSessions.tokenHash, tokenHash)),
  );
}

/** True while a reporter session exists and has not expired (checked by open WebSockets at each keep-alive). */
export async function reporterSessionAlive(db: Database, tokenHash: string, now = new Date()): Promise<boolean> {
  const [row] = await db.select({ expiresAt: reporterSessions.expiresAt, lastSeenAt: reporterSessions.lastSeenAt }).from(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash)).limit(1);
  return Boolean(row && !sessionEnded(row, now));
}
