import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { fixedStatement } from "../../../db/fixed-statement.ts";
import { isUniqueViolation, resultRows } from "../../../db/results.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import type { Sealer } from "../../lib/key-ring.ts";
import { NEW_REPORT_JOB } from "../notifications/new-report-job.ts";
import { openAnswer, sealAnswer } from "./answers.ts";
import type { NewReporterSession } from "./sessions.ts";
import type { DraftLoad } from "./draft-limits.ts";
import { dayGrainCreatedAt } from "../audit/day-grain.ts";
import { utcToday } from "../../lib/day-grain.ts";

/**
 * A reporter's Draft read and written in as few statements as its journey allows (decision 026).
 *
 * Each page save and the completion are one read and one write. The write is a single statement, so
 * it is one transaction by itself: the answers, the submission and (for the start and the completion)
 * the audit entry change together or not at all. Instead of locking the row between the read and the write, the write names the row
 * version it was computed from (`xmin`, which every UPDATE of the row changes) and changes nothing if
 * the row moved on in between, say a second tab saved first; the caller then reads again and decides
 * again. So two saves of one Draft still apply one after the other, as under a row lock.
 *
 * The statements are plain SQL because they are data-modifying CTEs, which the query builder does not
 * compose; the audit entries they write are the ones `recordActivity` (audit/service.ts) writes.
 */

/** What a step on a Draft needs of its submission row: all a snapshot keeps. */
export type DraftRow = Pick<typeof reportSubmissions.$inferSelect, "id" | "organisationId" | "formId" | "buildId" | "currentPage" | "completed" | "completedAt" | "reportId">;

export interface DraftSnapshot {
  submission: DraftRow;
  /** The row version the snapshot was read at, as text: a write based on it names it. */
  version: string;
  /** Opened: a snapshot is compared with and merged into what the reporter types, never sealed text. */
  answers: Record<string, string[]>;
}

/**
 * The submission of a reporter session, with its answers and row version: one statement. With
 * `lock`, inside a transaction, the row stays locked until it ends, so a write based on it cannot
 * find it moved on. The answers are opened with the organisation's `sealer`.
 */
export async function readDraft(db: Database, sealer: Sealer, organisationId: string, submissionId: string, lock = false): Promise<DraftSnapshot | null> {
  const query = db
    .select({
      id: reportSubmissions.id,
      organisationId: reportSubmissions.organisationId,
      formId: reportSubmissions.formId,
      buildId: reportSubmissions.buildId,
      currentPage: reportSubmissions.currentPage,
      completed: reportSubmissions.completed,
      completedAt: reportSubmissions.completedAt,
      reportId: reportSubmissions.reportId,
      version: sql<string>`"report_submissions".xmin::text`,
      answers: sql<string>`(select coalesce(json_object_agg(a.widget_id, a.answer), '{}')::text from report_submission_answers a where a.submission_id = "report_submissions".id)`,
    })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.id, submissionId), eq(reportSubmissions.organisationId, organisationId)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: reportSubmissions }) : await query;
  if (!row) return null;
  const { version, answers, ...submission } = row;
  const stored = JSON.parse(answers) as Record<string, string[]>;
  return { submission, version, answers: Object.fromEntries(Object.entries(stored).map(([widgetId, answer]) => [widgetId, openAnswer(sealer, answer)])) };
}

/**
 * The audit entry of a reporter's step, written only when the guarded update changed the row, and
 * stored with its day only (decision 064). The action is one of this file's own constants, so it is
 * part of the statement's text. A page save writes none: triage needs to know a report was started
 * and completed, not how long each page took.
 */
function reporterActivity(organisationId: SQLWrapper, action: "Start" | "Complete", metadata: SQLWrapper, objectCode: SQLWrapper | null): SQL {
  const createdAt = dayGrainCreatedAt(sql`${organisationId}::uuid`, sql`'ReportSubmission'::audit_object_type`, sql`guard.id::text`);
  return sql`insert into user_activities (organisation_id, user_id, object_type, object_id, object_code, action, metadata, is_grouped, created_at)
    select ${organisationId}::uuid, null, 'ReportSubmission', guard.id::text, ${objectCode ?? sql`null`}, ${sql.raw(`'${action}'`)}, ${metadata}, false, ${createdAt} from guard`;
}

export interface DraftStart {
  id: string;
  organisationId: string;
  formId: string;
  /** The forms the reporter's session has unlocked: a secured form starts only if it is one of them. */
  unlockedFormIds: string[];
  /** The hard caps: counted exactly (under the organisation's draft lock) once a start could reach one. */
  caps: { organisationDrafts: number; formDrafts: number };
  /** Exclusive bounds on what the start may find: the free levels, and how far the paid work reaches. */
  allowance: { free: DraftLoad; paid: DraftLoad };
  /** The work the start paid, spent by the statement itself (one start per solution). */
  payment: { signature: string; expiresAt: Date } | null;
  /** A new session born holding the Draft, or null when the caller binds an existing one. */
  session: (NewReporterSession & { unlockedFormIds: string[] }) | null;
}

export type DraftStartOutcome =
  | { kind: "started"; snapshot: DraftSnapshot }
  | { kind: "formNotFound" }
  | { kind: "formLocked" }
  /** Nothing written: the load grew past the margin of the unserialised count meanwhile; start again. */
  | { kind: "recount" }
  /** Nothing written: the load found is beyond what the start may take (a cap, or unpaid work). */
  | { kind: "refused"; load: DraftLoad };

type StartValue =
  | "unlockedFormIds" | "formId" | "organisationId" | "organisationCap" | "formCap" | "paymentSignature" | "paymentExpiresAt" | "paid"
  | "paidOrganisationDrafts" | "paidFormDrafts" | "paidBytes" | "freeOrganisationDrafts" | "freeFormDrafts" | "freeBytes"
  | "id" | "sessionTokenHash" | "sessionFormIds" | "lastSeenAt" | "expiresAt" | "withSession" | "metadata";

const startStatement = fixedStatement<StartValue>((value) => {
  const under = (organisationDrafts: StartValue, formDrafts: StartValue, bytes: StartValue) =>
    sql`counted.organisation_drafts < ${value(organisationDrafts)}::bigint and counted.form_drafts < ${value(formDrafts)}::bigint and counted.draft_bytes < ${value(bytes)}::bigint`;
  return sql`
    with form as (
      select f.id, f.deployed_build_id, (f.pin_hash is null or f.id = any(array(select jsonb_array_elements_text(${value("unlockedFormIds")}::text::jsonb)::uuid))) as unlocked
      from report_forms f
      where f.id = ${value("formId")}::uuid and f.organisation_id = ${value("organisationId")}::uuid and not f.archived
        and f.status = 'Active' and f.type = 'Custom' and f.deployed_build_id is not null
    ),
    counted as (
      select c.organisation_drafts, c.form_drafts,
        (select coalesce(sum(a.file_size_bytes), 0) from report_submission_attachments a join report_submissions s on s.id = a.submission_id
          where s.organisation_id = ${value("organisationId")}::uuid and s.status = 'Draft')::bigint as draft_bytes
      from form cross join lateral drafts_for_start(${value("organisationId")}::uuid, form.id, ${value("organisationCap")}::int, ${value("formCap")}::int) c
      where form.unlocked
    ),
    paid as (
      insert into proof_of_work_redemptions (signature, expires_at)
      select ${value("paymentSignature")}::text, ${value("paymentExpiresAt")}::text::timestamptz from counted where ${value("paid")}::boolean
      on conflict do nothing
      returning 1
    ),
    room as (
      select ${under("paidOrganisationDrafts", "paidFormDrafts", "paidBytes")} and (${under("freeOrganisationDrafts", "freeFormDrafts", "freeBytes")} or exists (select 1 from paid)) as free from counted
    ),
    -- Staff read a report's createdAt: the day the reporter began it is all that is kept (decision 064).
    guard as (
      insert into report_submissions (id, organisation_id, form_id, build_id, status, created_at)
      select ${value("id")}::uuid, ${value("organisationId")}::uuid, form.id, form.deployed_build_id, 'Draft', ${utcToday()} from room, form where room.free
      returning id, build_id, xmin::text as version
    ),
    session as (
      insert into reporter_sessions (token_hash, organisation_id, submission_id, unlocked_form_ids, created_at, last_seen_at, expires_at)
      select ${value("sessionTokenHash")}::text, ${value("organisationId")}::uuid, guard.id, array(select jsonb_array_elements_text(${value("sessionFormIds")}::text::jsonb)::uuid),
        ${value("lastSeenAt")}::text::timestamptz, ${value("lastSeenAt")}::text::timestamptz, ${value("expiresAt")}::text::timestamptz
      from guard where ${value("withSession")}::boolean
    ),
    activity as (${reporterActivity(value("organisationId"), "Start", sql`${value("metadata")}::text::jsonb`, null)})
    select (select count(*) from form)::int as found, coalesce((select unlocked from form), false) as unlocked,
      (select version from guard) as version, (select build_id::text from guard) as build_id,
      counted.organisation_drafts::int, counted.form_drafts::int, counted.draft_bytes::text
    from (select 1) one left join counted on true
  `;
});

/**
 * Starts a Draft in one statement (decision 028): the form is checked (published here, unlocked for
 * this session), the organisation's and the form's Drafts are counted (`drafts_for_start`: under the
 * organisation's draft lock, shared far from the caps and exclusive near one), the work the start paid is spent, and if the load allows, the Draft, its
 * audit entry and its new session are inserted. A lock is held only while this statement runs and
 * commits, never across round trips. Answers the started Draft as a snapshot for its first page save.
 */
export async function startDraft(db: Database, start: DraftStart): Promise<DraftStartOutcome> {
  const { session, allowance, payment } = start;
  const lastSeenAt = (session?.lastSeenAt ?? new Date()).toISOString();
  const result = await startStatement(db, {
    unlockedFormIds: JSON.stringify(start.unlockedFormIds),
    formId: start.formId,
    organisationId: start.organisationId,
    organisationCap: start.caps.organisationDrafts,
    formCap: start.caps.formDrafts,
    paymentSignature: payment?.signature ?? null,
    paymentExpiresAt: (payment?.expiresAt ?? new Date(0)).toISOString(),
    paid: payment !== null,
    paidOrganisationDrafts: allowance.paid.organisationDrafts,
    paidFormDrafts: allowance.paid.formDrafts,
    paidBytes: allowance.paid.organisationDraftBytes,
    freeOrganisationDrafts: allowance.free.organisationDrafts,
    freeFormDrafts: allowance.free.formDrafts,
    freeBytes: allowance.free.organisationDraftBytes,
    id: start.id,
    sessionTokenHash: session?.tokenHash ?? null,
    sessionFormIds: JSON.stringify(session?.unlockedFormIds ?? []),
    lastSeenAt,
    expiresAt: (session?.expiresAt ?? new Date()).toISOString(),
    withSession: session !== null,
    metadata: JSON.stringify({ report_form_id: start.formId }),
  });
  const [row] = resultRows<StartRow>(result);
  if (!row || row.found === 0) return { kind: "formNotFound" };
  if (!row.unlocked) return { kind: "formLocked" };
  if (row.version === null) {
    if (row.organisation_drafts === null) return { kind: "recount" };
    return { kind: "refused", load: { organisationDrafts: row.organisation_drafts ?? 0, formDrafts: row.form_drafts ?? 0, organisationDraftBytes: Number(row.draft_bytes ?? 0) } };
  }
  const submission: DraftRow = { id: start.id, organisationId: start.organisationId, formId: start.formId, buildId: row.build_id, currentPage: 0, completed: false, completedAt: null, reportId: null };
  return { kind: "started", snapshot: { submission, version: row.version, answers: {} } };
}

interface StartRow {
  found: number;
  unlocked: boolean;
  version: string | null;
  build_id: string | null;
  organisation_drafts: number | null;
  form_drafts: number | null;
  draft_bytes: string | null;
}

export interface PageWrite {
  snapshot: DraftSnapshot;
  page: number;
  /** Every widget of the page: their stored answers are replaced by `kept`. */
  pageWidgetIds: string[];
  /** As typed: sealed here, just before they become the statement's JSON. */
  kept: Record<string, readonly string[]>;
  sealer: Sealer;
  /** The attachments to keep, or null to leave attachments as they are. */
  keepAttachmentIds: string[] | null;
  now: Date;
}

// Values through text: a parameter the server types as jsonb would be JSON-encoded a second time by the driver.
const pageWriteStatement = fixedStatement<"page" | "now" | "id" | "organisationId" | "version" | "pageWidgetIds" | "kept" | "keepsAttachments" | "keepAttachmentIds">(
  (value) => sql`
    with guard as (
      update report_submissions set current_page = greatest(current_page, ${value("page")}::int),
        updated_at = case when updated_at < ${value("now")}::text::timestamptz - interval '1 hour' then ${value("now")}::text::timestamptz else updated_at end
      where id = ${value("id")}::uuid and organisation_id = ${value("organisationId")}::uuid and xmin = ${value("version")}::xid and not completed
      returning id, xmin::text as version
    ),
    removed_answers as (
      delete from report_submission_answers a using guard
      where a.submission_id = guard.id
        and a.widget_id in (select jsonb_array_elements_text(${value("pageWidgetIds")}::text::jsonb))
        and not (${value("kept")}::text::jsonb ? a.widget_id)
    ),
    -- An answer keeps the day it was written, not the minute (decision 064).
    saved_answers as (
      insert into report_submission_answers (submission_id, widget_id, page, answer, created_at, updated_at)
      select guard.id, kept.key, ${value("page")}::int, array(select jsonb_array_elements_text(kept.value)), ${utcToday()}, ${utcToday()}
      from guard, jsonb_each(${value("kept")}::text::jsonb) kept
      on conflict (submission_id, widget_id) do update set page = excluded.page, answer = excluded.answer, updated_at = excluded.updated_at
    ),
    dropped_files as (
      delete from blobs b using report_submission_attachments f, guard
      where ${value("keepsAttachments")}::boolean and f.submission_id = guard.id and b.id = f.blob_id
        and not (${value("keepAttachmentIds")}::text::jsonb ? f.id::text)
      returning b.storage_key
    )
    select (select version from guard) as version, coalesce((select array_agg(storage_key) from dropped_files), '{}') as removed
  `,
);

/**
 * Stores one page: replaces the page's answers, drops the attachments not kept (their blob rows; the
 * attachment rows follow by cascade) and moves the current page on. Answers
 * `null` when the Draft changed (or was completed) since `snapshot` was read; nothing was written then.
 */
export async function writePage(db: Database, write: PageWrite): Promise<{ removedStorageKeys: string[]; after: DraftSnapshot } | null> {
  const { submission, version } = write.snapshot;
  const result = await pageWriteStatement(db, {
    page: write.page,
    now: write.now.toISOString(),
    id: submission.id,
    organisationId: submission.organisationId,
    version,
    pageWidgetIds: JSON.stringify(write.pageWidgetIds),
    kept: JSON.stringify(Object.fromEntries(Object.entries(write.kept).map(([widgetId, answer]) => [widgetId, sealAnswer(write.sealer, answer)]))),
    keepsAttachments: write.keepAttachmentIds !== null,
    keepAttachmentIds: JSON.stringify(write.keepAttachmentIds ?? []),
  });
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
  /** The form's acknowledgement, already sealed for the chat; "" when the form sends none (decision 051). */
  sealedAcknowledgement: string;
}

const completionStatement = fixedStatement<"reportId" | "passwordHash" | "now" | "id" | "organisationId" | "version" | "hiddenWidgetIds" | "acknowledgement">(
  (value) => sql`
    with guard as (
      update report_submissions
      set report_id = ${value("reportId")}, password_hash = ${value("passwordHash")}, password_chosen = false, status = 'New',
          completed = true, completed_at = ${value("now")}::text::timestamptz, updated_at = ${value("now")}::text::timestamptz,
          -- The automatic acknowledgement acknowledges (decision 050), by the rule of markAcknowledged
          -- (legal-clocks/hooks.ts): only an empty time is filled. Kept in this statement so a
          -- completion stays one write (decision 051).
          acknowledged_at = case when ${value("acknowledgement")} = '' then acknowledged_at else coalesce(acknowledged_at, ${value("now")}::text::timestamptz) end
      where id = ${value("id")}::uuid and organisation_id = ${value("organisationId")}::uuid and xmin = ${value("version")}::xid and not completed
      returning id, organisation_id
    ),
    hidden_answers as (
      delete from report_submission_answers a using guard
      where a.submission_id = guard.id and a.widget_id in (select jsonb_array_elements_text(${value("hiddenWidgetIds")}::text::jsonb))
    ),
    conversation as (
      insert into report_conversations (submission_id, organisation_id, last_message_at)
      select guard.id, guard.organisation_id, case when ${value("acknowledgement")} = '' then null else ${value("now")}::text::timestamptz end from guard
      on conflict do nothing
      returning id, organisation_id
    ),
    -- The statement's CTEs share one snapshot: a conversation made here is only in "conversation", one
    -- made before only in the table, so exactly one of the two names it. Sent from the staff side
    -- with no author, as a System message: it neither waits for a reply nor counts as the reporter's.
    acknowledgement as (
      insert into report_conversation_messages (conversation_id, organisation_id, type, message, "from", created_at)
      select c.id, c.organisation_id, 'System', ${value("acknowledgement")}, 'User', ${value("now")}::text::timestamptz
      from (select id, organisation_id from conversation union all select rc.id, rc.organisation_id from report_conversations rc join guard on rc.submission_id = guard.id) c
      where ${value("acknowledgement")} <> ''
    ),
    activity as (${reporterActivity(value("organisationId"), "Complete", sql`'{}'::jsonb`, value("reportId"))}),
    -- The new report's mail is queued with the report (decision 058), and only when the organisation
    -- has a subscriber to tell; the job reads its subscriber again when it runs.
    mail as (
      insert into background_jobs (kind, subject_id)
      select ${sql.raw(`'${NEW_REPORT_JOB}'`)}, guard.id from guard
      where exists (select 1 from organisation_email_subscribers s where s.organisation_id = guard.organisation_id)
      returning 1
    )
    select (select count(*) from guard)::int as written, (select count(*) from mail)::int as mailed
  `,
);

/** "completed" says whether a mail job was queued with the report (only when there is a subscriber). */
export type CompletionOutcome = { kind: "completed"; mailQueued: boolean } | { kind: "changed" } | { kind: "reportIdTaken" };

/**
 * Completes the Draft in one statement: the report gets its ID, hashed password and status New, its
 * conversation (with the form's automatic acknowledgement, if it has one), its audit entry and, when
 * the organisation has a subscriber, the job of its mail. Nothing else is left for the notifier to
 * claim: the report_notices rows of decision 028 are written only by instances of earlier releases.
 * The new-report event is sent by the caller after the commit: a NOTIFY inside this statement
 * would hold PostgreSQL's one notify lock through the commit's WAL flush, so every completion
 * would queue behind the one before it (decision 028). "changed" when
 * the Draft moved on since it was read; "reportIdTaken" when the ID collided with another report's
 * (the unique index decides, so two completions can never share one).
 */
export async function writeCompletion(db: Database, write: CompletionWrite): Promise<CompletionOutcome> {
  const { submission, version } = write.snapshot;
  try {
    const result = await completionStatement(db, {
      reportId: write.reportId,
      passwordHash: write.passwordHash,
      now: write.now.toISOString(),
      id: submission.id,
      organisationId: submission.organisationId,
      version,
      hiddenWidgetIds: JSON.stringify(write.hiddenWidgetIds),
      acknowledgement: write.sealedAcknowledgement,
    });
    const [row] = resultRows<{ written: number; mailed: number }>(result);
    return row && row.written > 0 ? { kind: "completed", mailQueued: row.mailed > 0 } : { kind: "changed" };
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: "reportIdTaken" };
    throw error;
  }
}
