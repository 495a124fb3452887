import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reporterSessions } from "../../../db/schema/index.ts";
import type { ReporterActor } from "../../context.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_IDLE_TIMEOUT_MS, REPORTER_TOUCH_INTERVAL_MS } from "./session-policy.ts";

export interface ReporterSessionRow {
  tokenHash: string;
  organisationId: string;
  submissionId: string | null;
  unlockedFormIds: string[];
}

/** Opens a reporter session in an organisation; returns the cookie token (only its hash is kept). */
export async function createReporterSession(tx: Database, organisationId: string, submissionId: string | null = null, now = new Date()) {
  const token = newToken();
  const tokenHash = hashToken(token);
  await tx.insert(reporterSessions).values({
    tokenHash,
    organisationId,
    submissionId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + REPORTER_ABSOLUTE_TIMEOUT_MS),
  });
  return { token, tokenHash };
}

/**
 * The reporter behind a cookie, on the organisation the request's host names. A session of
 * another organisation is no session at all here; expired ones are deleted on sight.
 */
export async function resolveReporterSession(db: Database, token: string, organisationId: string, now = new Date()): Promise<ReporterActor | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const [row] = await db.select().from(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash)).limit(1);
  if (!row || row.organisationId !== organisationId) return null;
  if (row.expiresAt <= now || now.getTime() - row.lastSeenAt.getTime() > REPORTER_IDLE_TIMEOUT_MS) {
    await db.delete(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash));
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > REPORTER_TOUCH_INTERVAL_MS) {
    await db.update(reporterSessions).set({ lastSeenAt: now }).where(eq(reporterSessions.tokenHash, tokenHash));
  }
  return {
    kind: "reporter",
    organisationId: row.organisationId,
    submissionId: row.submissionId,
    unlockedFormIds: row.unlockedFormIds,
    sessionTokenHash: tokenHash,
  };
}

export async function deleteReporterSession(db: Database, tokenHash: string): Promise<void> {
  await db.delete(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash));
}

export async function bindSessionToSubmission(tx: Database, tokenHash: string, submissionId: string): Promise<void> {
  await tx.update(reporterSessions).set({ submissionId }).where(eq(reporterSessions.tokenHash, tokenHash));
}

export async function rememberUnlockedForm(db: Database, tokenHash: string, formId: string): Promise<void> {
  await db
    .update(reporterSessions)
    .set({ unlockedFormIds: sql`array_append(array_remove(${reporterSessions.unlockedFormIds}, ${formId}::uuid), ${formId}::uuid)` })
    .where(and(eq(reporterSessions.tokenHash, tokenHash)));
}

/** True while a reporter session exists and has not expired (checked by open WebSockets at each keep-alive). */
export async function reporterSessionAlive(db: Database, tokenHash: string, now = new Date()): Promise<boolean> {
  const [row] = await db.select({ expiresAt: reporterSessions.expiresAt, lastSeenAt: reporterSessions.lastSeenAt }).from(reporterSessions).where(eq(reporterSessions.tokenHash, tokenHash)).limit(1);
  return Boolean(row && row.expiresAt > now && now.getTime() - row.lastSeenAt.getTime() <= REPORTER_IDLE_TIMEOUT_MS);
}
