import { bigint, boolean, index, integer, primaryKey, smallint, snakeCase, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { archiving, createdAt, id, inPlain, updatedAt } from "./columns.ts";
import { guestInviteStatus, priority, submissionStatus } from "./enums.ts";
import { blobs } from "./blobs.ts";
import { reportFormBuilds, reportForms } from "./forms.ts";
import { organisations, users } from "./identity.ts";

export const reportSubmissions = snakeCase.table(
  "report_submissions",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    formId: uuid()
      .notNull()
      .references(() => reportForms.id, { onDelete: "cascade" }),
    buildId: uuid().references(() => reportFormBuilds.id, { onDelete: "set null" }),
    /** The identifier a reporter types to log in; assigned on completion. */
    reportId: text(),
    status: submissionStatus().notNull().default("Draft"),
    priority: priority().notNull().default("Low"),
    completed: boolean().notNull().default(false),
    completedAt: timestamp({ withTimezone: true }),
    /**
     * The report's password hash: a generated password or an enquiry's pin as a salted HMAC-SHA-256
     * (`$hmac-sha256$v=1$…`), a chosen one (and rows from before that) as Argon2id (decision 005).
     */
    passwordHash: text(),
    /**
     * The reporter chose this password (hashed as typed). Generated passwords and pins are hashed in
     * canonical form, so loosely typed input is normalised before the one verification.
     */
    passwordChosen: boolean().notNull().default(false),
    internalReference: text().notNull().default(""),
    /** Failed reporter logins against this report ID; later tries must wait (see reporting/login.ts). */
    failedLoginCount: integer().notNull().default(0),
    lastFailedLoginAt: timestamp({ withTimezone: true }),
    isTest: boolean().notNull().default(false),
    /** The last page the reporter saved, so a returning tab resumes there. */
    currentPage: integer().notNull().default(0),
    deletedAt: timestamp({ withTimezone: true }),
    /** Legal clocks (decision 050): the first staff message or the automatic acknowledgement. */
    acknowledgedAt: timestamp({ withTimezone: true }),
    /** Legal clocks: feedback given to the reporter (closing with an outcome, or recorded by staff). */
    feedbackAt: timestamp({ withTimezone: true }),
    /** Set when the one reminder before each deadline is claimed, so it is sent once across instances. */
    acknowledgeReminderSentAt: timestamp({ withTimezone: true }),
    feedbackReminderSentAt: timestamp({ withTimezone: true }),
    deletedByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** Retention (decision 052): when the report was last closed; cleared when it is re-opened. */
    closedAt: timestamp({ withTimezone: true }),
    /** A legal hold stops deletion by retention while it lasts. */
    legalHold: boolean().notNull().default(false),
    legalHoldAt: timestamp({ withTimezone: true }),
    legalHoldByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The owners' one warning before deletion was claimed then; once across instances. */
    retentionWarnedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [
    uniqueIndex().on(t.reportId),
    index().on(t.organisationId, t.archived, t.createdAt),
    // The report list's default order (DateCreated = completedAt) over visible reports only.
    index("report_submissions_list_completed_idx").on(t.organisationId, t.archived, t.completedAt).where(sql`${t.completed} and ${t.deletedAt} is null`),
    index().on(t.organisationId, t.archived, t.updatedAt),
    index().on(t.organisationId, t.status),
    index().on(t.formId, t.createdAt),
    // Unfinished drafts: counted per form and organisation at report_start, and swept once abandoned.
    // Legal clocks: the reminder sweep and the dashboard's counts read only the reports still waiting
    // for acknowledgement or feedback, ordered by receipt (decision 050).
    index("report_submissions_awaiting_ack_idx").on(t.organisationId, t.completedAt).where(sql`${t.completed} and ${t.deletedAt} is null and ${t.acknowledgedAt} is null`),
    index("report_submissions_awaiting_feedback_idx").on(t.organisationId, t.completedAt).where(sql`${t.completed} and ${t.deletedAt} is null and ${t.feedbackAt} is null`),
    // The reminder sweep reads, across organisations, the reports not yet reminded whose deadline
    // is near, by a range on the column each deadline follows (decision 059): the receipt for
    // acknowledgement, the acknowledgement (or the receipt) for feedback.
    index("report_submissions_acknowledge_due_idx")
      .on(t.completedAt)
      .where(sql`${t.completed} and ${t.deletedAt} is null and ${t.acknowledgedAt} is null and ${t.acknowledgeReminderSentAt} is null`),
    index("report_submissions_feedback_due_idx")
      .on(sql`coalesce(${t.acknowledgedAt}, ${t.completedAt})`)
      .where(sql`${t.completed} and ${t.deletedAt} is null and ${t.feedbackAt} is null and ${t.feedbackReminderSentAt} is null`),
    // Retention's sweep reads only closed reports not on hold and not deleted (decision 052).
    index("report_submissions_retention_idx").on(t.organisationId, t.closedAt).where(sql`${t.closedAt} is not null and not ${t.legalHold} and ${t.deletedAt} is null`),
    index("report_submissions_drafts_idx").on(t.updatedAt).where(sql`${t.status} = 'Draft'`),
    // The list's search is a case-insensitive substring match; trigrams serve ILIKE '%…%' (pg_trgm,
    // decision 012). Without fastupdate a new report goes straight into the index instead of a
    // pending list that every search would read through until a vacuum merges it.
    index("report_submissions_report_id_trgm_idx").using("gin", t.reportId.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("report_submissions_internal_reference_trgm_idx").using("gin", t.internalReference.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

/**
 * Counts of the console's report list are reused while nothing they depend on has changed
 * (decision 022). Triggers (migration report_list_versions) add 1 to a row here, in the writing
 * transaction, whenever a change could move a count of an organisation's list: so two snapshots
 * whose sums of `version` are equal see the same counts. Each connection writes its own shard row
 * (pg_backend_pid() % 64), so concurrent writers in one organisation never wait on each other.
 * No foreign key: a deleted organisation's reports bump it while the organisation goes.
 */
export const reportListVersions = snakeCase.table(
  "report_list_versions",
  {
    organisationId: uuid().notNull(),
    shard: smallint().notNull(),
    version: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.shard] })],
);

/**
 * One answer per question of a report. Keyed by (report, question) alone: a row id of its own would
 * be one more index entry for each of the dozen answers a report stores, and nothing refers to one.
 */
export const reportSubmissionAnswers = snakeCase.table(
  "report_submission_answers",
  {
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    widgetId: text().notNull(),
    page: integer().notNull(),
    answer: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.widgetId] }),
    // Only answers holding an element stored before encryption: the start-up's sealing walks this
    // (empty once all is sealed) instead of every answer (api/lib/reseal.ts, decision 059).
    index("report_submission_answers_in_plain_idx").on(t.submissionId, t.widgetId).where(sql`lantern_holds_plain_text(${t.answer})`),
  ],
);

export const reportSubmissionAttachments = snakeCase.table(
  "report_submission_attachments",
  {
    id: id(),
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    blobId: uuid()
      .notNull()
      .references(() => blobs.id, { onDelete: "cascade" }),
    fileName: text().notNull(),
    fileSizeBytes: bigint({ mode: "number" }).notNull(),
    mimeType: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.submissionId), index("report_submission_attachments_in_plain_idx").on(t.id).where(inPlain(t.fileName))],
);

export const reportSubmissionAssignees = snakeCase.table(
  "report_submission_assignees",
  {
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isOwner: boolean().notNull().default(false),
    /** Email notifications for this report are muted for this user. */
    isMuted: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.userId] }),
    index().on(t.userId),
    uniqueIndex("report_submission_one_owner_idx").on(t.submissionId).where(sql`${t.isOwner}`),
  ],
);

export const tags = snakeCase.table(
  "tags",
  {
    id: id(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** Reserved tags cannot be edited or deleted. */
    isInternal: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [uniqueIndex("tags_organisation_name_idx").on(t.organisationId, sql`lower(${t.name})`), index().on(t.organisationId, t.archived)],
);

export const reportSubmissionTags = snakeCase.table(
  "report_submission_tags",
  {
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.tagId] }), index().on(t.tagId)],
);

export const reportSubmissionNotes = snakeCase.table(
  "report_submission_notes",
  {
    id: id(),
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    authorUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    note: text().notNull(),
    /** Set on the notes written by a status change; those cannot be edited. */
    newStatus: submissionStatus(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...archiving(),
  },
  (t) => [index().on(t.submissionId, t.archived, t.createdAt), index("report_submission_notes_in_plain_idx").on(t.id).where(inPlain(t.note))],
);

/** A guest member invited by email to one report. */
export const guestReportInvites = snakeCase.table(
  "guest_report_invites",
  {
    id: id(),
    submissionId: uuid()
      .notNull()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    email: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    invitedByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    status: guestInviteStatus().notNull().default("Opened"),
    createdAt: createdAt(),
    ...archiving(),
  },
  (t) => [index().on(t.submissionId), index().on(t.userId, t.status), index("guest_report_invites_email_idx").on(sql`lower(${t.email})`)],
);

/** One-time tokens that carry a report login from login.{domain} to the organisation's own host. */
export const reporterHandoffs = snakeCase.table("reporter_handoffs", {
  tokenHash: text().primaryKey(),
  submissionId: uuid()
    .notNull()
    .references(() => reportSubmissions.id, { onDelete: "cascade" }),
  organisationId: uuid()
    .notNull()
    .references(() => organisations.id, { onDelete: "cascade" }),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Reporter sessions: a token (hashed) that reaches exactly one submission. Nothing here
 * identifies the person: no address, no user agent.
 */
export const reporterSessions = snakeCase.table(
  "reporter_sessions",
  {
    tokenHash: text().primaryKey(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    submissionId: uuid().references(() => reportSubmissions.id, { onDelete: "cascade" }),
    /** Password-protected forms this session has unlocked. */
    unlockedFormIds: uuid().array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.submissionId), index().on(t.expiresAt)],
);

/**
 * New reports whose notice (the mail to the subscriber and the team) is still to be handled. Written
 * in the transaction that makes the report, so a notice can never be lost with a crash; the instance
 * whose DELETE takes the row handles it (decision 028), woken by the event or, failing that, by the sweep.
 */
export const reportNotices = snakeCase.table(
  "report_notices",
  {
    submissionId: uuid()
      .primaryKey()
      .references(() => reportSubmissions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt)],
);
