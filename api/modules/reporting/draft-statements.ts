import { and, eq, getColumns, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation, resultRows } from "../../../db/results.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { eventNotification } from "../../lib/pubsub.ts";
import type { NewReporterSession } from "./sessions.ts";

/**
 * A reporter's Draft read and written in as few statements as its journey allows (decision 026).
 *
 * Each page save and the completion are one read and one write. The write is a single statement, so
 * it is one transaction by itself: the answers, the submission and the audit entry change together or
 * not at all. Instead of locking the row between the read and the write, the write names the row
 * version it was computed from (`xmin`, which every UPDATE of the row changes) and changes nothing if
 * the row moved on in between, say a second tab saved first; the caller then reads again and decides
 * again. So two saves of one Draft still apply one after the other, as under a row lock.
 *
 * The statements are plain SQL because they are data-modifying CTEs, which the query builder does not
 * compose; the audit entries they write are the ones `recordActivity` (audit/service.ts) writes.
 */

export type SubmissionRow = typeof reportSubmissions.$inferSelect;

export interface DraftSnapshot {
  submission: SubmissionRow;
  /** The row version the snapshot was read at, as text: a write based on it names it. */
  version: string;
  answers: Record<string, string[]>;
}

/**
 * The submission of a reporter session, with its answers and row version: one statement. With
 * `lock`, inside a transaction, the row stays locked until it ends, so a write based on it cannot
 * find it moved on.
 */
export async function readDraft(db: Database, organisationId: string, submissionId: string, lock = false): Promise<DraftSnapshot | null> {
  const query = db
    .select({
      ...getColumns(reportSubmissions),
      version: sql<string>`"report_submissions".xmin::text`,
      answers: sql<string>`(select coalesce(json_object_agg(a.widget_id, a.answer), '{}')::text from report_submission_answers a where a.submission_id = "report_submissions".id)`,
    })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.id, submissionId), eq(reportSubmissions.organisationId, organisationId)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: reportSubmissions }) : await query;
  if (!row) return null;
  const { version, answers, ...submission } = row;
  return { submission, version, answers: JSON.parse(answers) as Record<string, string[]> };
}

// Through text: a parameter the server types as jsonb would be JSON-encoded a second time by the driver.
const json = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;
const timestamp = (at: Date) => sql`${at.toISOString()}::text::timestamptz`;

/** The audit entry of a reporter's step, written only when the guarded update changed the row. */
function reporterActivity(organisationId: string, action: string, metadata: Record<string, unknown>, objectCode: string | null = null): SQL {
  return sql`insert into user_activities (organisation_id, user_id, object_type, object_id, object_code, action, metadata, is_grouped)
    select ${organisationId}::uuid, null, 'ReportSubmission', guard.id::text, ${objectCode}, ${action}, ${json(metadata)}, false from guard`;
}

export interface DraftStart {
  id: string;
  organisationId: string;
  formId: string;
  buildId: string | null;
  /** The caps: a Draft is started only while the form's and the organisation's counts are below them. */
  formCap: number;
  organisationCap: number;
  /** A new session born holding the Draft, or null when the caller binds an existing one. */
  session: (NewReporterSession & { unlockedFormIds: string[] }) | null;
}

/**
 * Starts a Draft in one statement, if the caps allow: the organisation's and the form's Drafts are
 * counted under the organisation's draft lock (`drafts_under_lock`, decision 028), then the Draft,
 * its audit entry and its new session are inserted. The lock is held only while this statement runs
 * and commits, not across round trips. False when a cap is reached; nothing was written then.
 */
export async function startDraft(db: Database, start: DraftStart): Promise<boolean> {
  const { session } = start;
  const result = await db.execute(sql`
    with room as (
      select counted.organisation_drafts < ${start.organisationCap}::int and counted.form_drafts < ${start.formCap}::int as free
      from drafts_under_lock(${start.organisationId}::uuid, ${start.formId}::uuid) counted
    ),
    guard as (
      insert into report_submissions (id, organisation_id, form_id, build_id, status)
      select ${start.id}::uuid, ${start.organisationId}::uuid, ${start.formId}::uuid, ${start.buildId}::uuid, 'Draft' from room where room.free
      returning id
    ),
    session as (
      insert into reporter_sessions (token_hash, organisation_id, submission_id, unlocked_form_ids, created_at, last_seen_at, expires_at)
      select ${session?.tokenHash ?? null}, ${start.organisationId}::uuid, guard.id, array(select jsonb_array_elements_text(${json(session?.unlockedFormIds ?? [])})::uuid),
        ${timestamp(session?.lastSeenAt ?? new Date())}, ${timestamp(session?.lastSeenAt ?? new Date())}, ${timestamp(session?.expiresAt ?? new Date())}
      from guard where ${session !== null}::boolean
    ),
    activity as (${reporterActivity(start.organisationId, "Start", { report_form_id: start.formId })})
    select (select count(*) from guard)::int as started
  `);
  const [row] = resultRows<{ started: number }>(result);
  return (row?.started ?? 0) > 0;
}

export interface PageWrite {
  snapshot: DraftSnapshot;
  page: number;
  /** Every widget of the page: their stored answers are replaced by `kept`. */
  pageWidgetIds: string[];
  kept: Record<string, readonly string[]>;
  /** The attachments to keep, or null to leave attachments as they are. */
  keepAttachmentIds: string[] | null;
  now: Date;
}

/**
 * Stores one page: replaces the page's answers, drops the attachments not kept (their blob rows; the
 * attachment rows follow by cascade), moves the current page on and writes the audit entry. Answers
 * `null` when the Draft changed (or was completed) since `snapshot` was read; nothing was written then.
 */
export async function writePage(db: Database, write: PageWrite): Promise<{ removedStorageKeys: string[]; after: DraftSnapshot } | null> {
  const { submission, version } = write.snapshot;
  const result = await db.execute(sql`
    with guard as (
      update report_submissions set current_page = greatest(current_page, ${write.page}::int),
        updated_at = case when updated_at < ${timestamp(write.now)} - interval '1 hour' then ${timestamp(write.now)} else updated_at end
      where id = ${submission.id}::uuid and organisation_id = ${submission.organisationId}::uuid and xmin = ${version}::xid and not completed
      returning id, xmin::text as version
    ),
    removed_answers as (
      delete from report_submission_answers a using guard
      where a.submission_id = guard.id
        and a.widget_id in (select jsonb_array_elements_text(${json(write.pageWidgetIds)}))
        and not (${json(write.kept)} ? a.widget_id)
    ),
    saved_answers as (
      insert into report_submission_answers (submission_id, widget_id, page, answer)
      select guard.id, kept.key, ${write.page}::int, array(select jsonb_array_elements_text(kept.value))
      from guard, jsonb_each(${json(write.kept)}) kept
      on conflict (submission_id, widget_id) do update set page = excluded.page, answer = excluded.answer, updated_at = ${timestamp(write.now)}
    ),
    dropped_files as (
      delete from blobs b using report_submission_attachments f, guard
      where ${write.keepAttachmentIds !== null}::boolean and f.submission_id = guard.id and b.id = f.blob_id
        and not (${json(write.keepAttachmentIds ?? [])} ? f.id::text)
      returning b.storage_key
    ),
    activity as (${reporterActivity(submission.organisationId, "UpdateDraft", { page: write.page })})
    select (select version from guard) as version, coalesce((select array_agg(storage_key) from dropped_files), '{}') as removed
  `);
  const [row] = resultRows<{ version: string | null; removed: string[] }>(result);
  if (!row?.version) return null;
  // The Draft as this write left it, for the next save of it (draft-snapshots.ts).
  const answers: Record<string, string[]> = { ...write.snapshot.answers };
  for (const id of write.pageWidgetIds) delete answers[id];
  for (const [id, answer] of Object.entries(write.kept)) answers[id] = [...answer];
  const after: DraftSnapshot = { submission: { ...submission, currentPage: Math.max(submission.currentPage, write.page) }, version: row.version, answers };
  return { removedStorageKeys: row.removed, after };
}

export interface CompletionWrite {
  snapshot: DraftSnapshot;
  reportId: string;
  passwordHash: string;
  /** Answers to widgets that ended up hidden: dropped with the completion. */
  hiddenWidgetIds: string[];
  now: Date;
  /** Sent when the statement commits: the new report's event. */
  event: { topic: string; payload: Record<string, unknown> };
}

export type CompletionOutcome = "completed" | "changed" | "reportIdTaken";

/**
 * Completes the Draft in one statement: the report gets its ID, hashed password and status New, its
 * conversation, its audit entry, and the new-report event goes out when it commits. "changed" when
 * the Draft moved on since it was read; "reportIdTaken" when the ID collided with another report's
 * (the unique index decides, so two completions can never share one).
 */
export async function writeCompletion(db: Database, write: CompletionWrite): Promise<CompletionOutcome> {
  const { submission, version } = write.snapshot;
  try {
    const result = await db.execute(sql`
      with guard as (
        update report_submissions
        set report_id = ${write.reportId}, password_hash = ${write.passwordHash}, password_chosen = false, status = 'New',
            completed = true, completed_at = ${timestamp(write.now)}, updated_at = ${timestamp(write.now)}
        where id = ${submission.id}::uuid and organisation_id = ${submission.organisationId}::uuid and xmin = ${version}::xid and not completed
        returning id, organisation_id
      ),
      hidden_answers as (
        delete from report_submission_answers a using guard
        where a.submission_id = guard.id and a.widget_id in (select jsonb_array_elements_text(${json(write.hiddenWidgetIds)}))
      ),
      conversation as (
        insert into report_conversations (submission_id, organisation_id) select guard.id, guard.organisation_id from guard on conflict do nothing
      ),
      activity as (${reporterActivity(submission.organisationId, "Complete", {}, write.reportId)}),
      announced as (select ${eventNotification(write.event.topic, write.event.payload)} from guard)
      select (select count(*) from guard)::int as written, (select count(*) from announced)::int as announced
    `);
    const [row] = resultRows<{ written: number }>(result);
    return row && row.written > 0 ? "completed" : "changed";
  } catch (error) {
    if (isUniqueViolation(error)) return "reportIdTaken";
    throw error;
  }
}
