/**
 * Many completed reports in the demo organisation, written straight into the bench database with
 * set-based INSERT … SELECT (100,000 take seconds; through the reporter API they would take an hour
 * of Argon2id). Each row is shaped as a completed report is: an ID from the server's own generator
 * (api/lib/report-credentials.ts), the demo form and its published build, the answers of one of the
 * demo seed's real reports of that form, a conversation, and for most a team, some tags and chat.
 * Everyone's password is the demo seed's (its hash is copied), so DEMO_REPORT_PASSWORD signs in.
 * Answers and chat messages are copied as the demo seed stored them, sealed with the organisation's
 * key (decision 049): a server never writes them in plain, so none is left for the start-up's
 * sealing of values from before encryption (api/lib/reseal.ts) to find.
 * Audit rows are not written: nothing measured here reads them.
 */
import postgres from "postgres";
import { generateReportId } from "../../api/lib/report-credentials.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../api/shared/enums.ts";
import { DEMO_FORM_NAME, DEMO_SLUG } from "./demo.ts";

const DAY_SECONDS = 24 * 60 * 60;
/** The list's reports were completed over this many days, newest first. */
const LIST_SPAN_DAYS = 3 * 365;
/** Minutes a reporter spends on the form, as the demo seed has it. */
const FILL_MINUTES = 18;

export type SeedKind =
  /** A real organisation's history: a few new and assigned reports on top, the rest closed; 1 in 20 archived. */
  | "history"
  /** Open reports from the last days, each with `staffEmail` as the team's owner, for the chat. */
  | "open-chats";

interface DemoFacts {
  organisationId: string;
  formId: string;
  buildId: string;
  passwordHash: string;
  currentPage: number;
  templateIds: string[];
  userIds: Map<string, string>;
  tagIds: string[];
  escalatedTagId: string | null;
  /** A staff message and a reporter's message of the demo's chats, as stored (sealed). */
  staffMessage: string;
  reporterMessage: string;
}

async function demoFacts(sql: postgres.Sql): Promise<DemoFacts> {
  const templates = await sql<{ id: string; organisation_id: string; form_id: string; build_id: string; password_hash: string; current_page: number }[]>`
    select s.id, s.organisation_id, s.form_id, s.build_id, s.password_hash, s.current_page
    from report_submissions s
    join report_forms f on f.id = s.form_id
    join organisations o on o.id = s.organisation_id
    where o.slug = ${DEMO_SLUG} and f.name = ${DEMO_FORM_NAME} and s.completed and s.build_id is not null
      and exists (select 1 from report_submission_answers a where a.submission_id = s.id)
    order by s.completed_at`;
  const first = templates[0];
  if (!first) throw new Error(`no completed "${DEMO_FORM_NAME}" report with answers in the demo organisation (did seed-demo run?)`);
  const users = await sql<{ id: string; email: string }[]>`select id, email from users where organisation_id = ${first.organisation_id}`;
  const tags = await sql<{ id: string; is_internal: boolean }[]>`select id, is_internal from tags where organisation_id = ${first.organisation_id} and not archived order by name`;
  const messages = await sql<{ from: string; message: string }[]>`
    select distinct on ("from") "from", message from report_conversation_messages
    where organisation_id = ${first.organisation_id} and type = 'Text' and "from" in ('User', 'Guest') and message <> ''
    order by "from", created_at`;
  const sealedMessage = (from: string) => {
    const message = messages.find((row) => row.from === from)?.message;
    if (!message) throw new Error(`no ${from} chat message in the demo organisation (did seed-demo run?)`);
    return message;
  };
  return {
    organisationId: first.organisation_id,
    formId: first.form_id,
    buildId: first.build_id,
    passwordHash: first.password_hash,
    currentPage: first.current_page,
    templateIds: templates.map((row) => row.id),
    userIds: new Map(users.map((user) => [user.email.toLowerCase(), user.id])),
    tagIds: tags.filter((tag) => !tag.is_internal).map((tag) => tag.id),
    escalatedTagId: tags.find((tag) => tag.is_internal)?.id ?? null,
    staffMessage: sealedMessage("User"),
    reporterMessage: sealedMessage("Guest"),
  };
}

/**
 * Every row here references rows that exist by construction, so the per-row foreign-key triggers
 * (most of the time of a million inserts) are skipped for this transaction where the role may
 * (a superuser, as the default BENCH_POSTGRES_URL is); elsewhere they run and seeding is slower.
 */
async function skipForeignKeyChecks(tx: postgres.TransactionSql): Promise<void> {
  const [row] = await tx<{ superuser: string }[]>`select current_setting('is_superuser') as superuser`;
  if (row?.superuser === "on") await tx`set local session_replication_role = replica`;
}

/** `count` new report IDs from the server's generator, none already in the database. */
async function freshReportIds(sql: postgres.Sql, count: number): Promise<string[]> {
  const taken = new Set((await sql<{ report_id: string }[]>`select report_id from report_submissions where report_id is not null`).map((row) => row.report_id));
  const ids = new Set<string>();
  while (ids.size < count) {
    const id = generateReportId();
    if (!taken.has(id)) ids.add(id);
  }
  return [...ids];
}

function userId(facts: DemoFacts, email: string): string {
  const id = facts.userIds.get(email.toLowerCase());
  if (!id) throw new Error(`no demo user ${email}`);
  return id;
}

export interface SeededReports {
  organisationId: string;
  /** Newest first, as are reportIds. */
  submissionIds: string[];
  reportIds: string[];
}

/**
 * Inserts `count` completed reports of the demo organisation, newest first. "history" teams
 * are the demo's member (owner) and admin; "open-chats" teams are `staffEmail` alone.
 */
export async function seedReports(databaseUrl: string, count: number, kind: SeedKind, staffEmail = "member@demo.test"): Promise<SeededReports> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const facts = await demoFacts(sql);
    const reportIds = await freshReportIds(sql, count);
    const history = kind === "history";
    const spanSeconds = (history ? LIST_SPAN_DAYS : 2) * DAY_SECONDS;
    const terminal = TERMINAL_SUBMISSION_STATUSES as readonly string[];
    const member = userId(facts, history ? "member@demo.test" : staffEmail);
    const admin = userId(facts, "admin@demo.test");
    return await sql.begin(async (tx) => {
      await skipForeignKeyChecks(tx);
      // n = 1 is the newest; its age grows evenly with n, with up to one step of jitter.
      await tx`
        create temp table bench_reports on commit drop as
        select gen_random_uuid() as id, r.report_id, r.n::int as n,
          now() - ((r.n - 1 + random()) * ${spanSeconds / count}::float8) * interval '1 second' as completed_at,
          case
            when not ${history}::boolean then 'Assigned'
            when r.n <= ${Math.ceil(count * 0.01)} then 'New'
            when r.n <= ${Math.ceil(count * 0.05)} then 'Assigned'
            else (${terminal}::text[])[1 + (r.n * 7919) % ${terminal.length}]
          end::submission_status as status
        from unnest(${reportIds}::text[]) with ordinality as r(report_id, n)`;
      await tx`
        create temp table bench_templates on commit drop as
        select t.id, (t.k - 1)::int as k from unnest(${facts.templateIds}::uuid[]) with ordinality as t(id, k)`;
      await tx`
        insert into report_submissions (id, organisation_id, form_id, build_id, report_id, status, priority, completed, completed_at,
          password_hash, internal_reference, current_page, created_at, updated_at, archived, archived_at,
          acknowledged_at, feedback_at, acknowledge_reminder_sent_at)
        select b.id, ${facts.organisationId}, ${facts.formId}, ${facts.buildId}, b.report_id, b.status,
          (array['Low', 'Medium', 'High'])[1 + (b.n * 31) % 3]::priority, true, b.completed_at,
          ${facts.passwordHash}, case when b.n % 4 = 0 then 'HR-' || lpad((b.n % 10000)::text, 4, '0') else '' end, ${facts.currentPage},
          b.completed_at - ${FILL_MINUTES} * interval '1 minute', least(now(), b.completed_at + (b.n % 30) * interval '1 day'),
          ${history}::boolean and b.n % 20 = 0 and b.status::text = any(${terminal}::text[]),
          case when ${history}::boolean and b.n % 20 = 0 and b.status::text = any(${terminal}::text[]) then least(now(), b.completed_at + interval '60 days') end,
          -- The legal clocks as a server running all along leaves them (decision 050): a report with a
          -- team was acknowledged when it got one, a closed one was given its outcome as feedback, and
          -- a New one already in its reminder window (the last 2 of its 7 days) was reminded as it entered it.
          case when b.status <> 'New' then b.completed_at + interval '6 hours' end,
          case when b.status::text = any(${terminal}::text[]) then least(now(), b.completed_at + (b.n % 30) * interval '1 day') end,
          case when b.status = 'New' and b.completed_at + interval '5 days' < now() then b.completed_at + interval '5 days' end
        from bench_reports b`;
      await tx`
        insert into report_submission_answers (submission_id, widget_id, page, answer, created_at, updated_at)
        select b.id, a.widget_id, a.page, a.answer, b.completed_at - ${FILL_MINUTES} * interval '1 minute', b.completed_at
        from bench_reports b
        join bench_templates t on t.k = b.n % ${facts.templateIds.length}
        join report_submission_answers a on a.submission_id = t.id
        -- In index order: a third faster than 1,000,000 inserts at random places in the unique index.
        order by b.id, a.widget_id`;
      await tx`
        insert into report_conversations (submission_id, organisation_id, concluded, created_at, last_message_at)
        select b.id, ${facts.organisationId}, b.status::text = any(${terminal}::text[]), b.completed_at,
          case when ${history}::boolean and b.n % 5 = 0 then b.completed_at + interval '1 day' end
        from bench_reports b`;
      // Reports past New have a team; the demo's member handles them, with the admin reviewing.
      await tx`
        insert into report_submission_assignees (submission_id, user_id, is_owner, created_at)
        select b.id, ${member}::uuid, true, b.completed_at + interval '6 hours' from bench_reports b where b.status <> 'New'
        union all
        select b.id, ${admin}::uuid, false, b.completed_at + interval '6 hours' from bench_reports b where ${history}::boolean and b.status <> 'New'`;
      if (history) await historyExtras(tx, facts, member);
      // The list's triggers may have been skipped above: a server already running must not reuse a count.
      await tx`select bump_report_list_version(${facts.organisationId}::uuid)`;
      if (history) await tx`analyze report_submissions, report_submission_answers, report_conversations, report_conversation_messages, report_submission_assignees, report_submission_tags`;
      const rows = await tx<{ id: string; report_id: string }[]>`select id, report_id from bench_reports order by n`;
      return { organisationId: facts.organisationId, submissionIds: rows.map((row) => row.id), reportIds: rows.map((row) => row.report_id) };
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A third of the history tagged, a tenth escalated; every fifth report has a question and an answer in its chat. */
async function historyExtras(tx: postgres.TransactionSql, facts: DemoFacts, handler: string): Promise<void> {
  if (facts.tagIds.length > 0) {
    await tx`
      insert into report_submission_tags (submission_id, tag_id, created_at)
      select b.id, (${facts.tagIds}::uuid[])[1 + (b.n / 3) % ${facts.tagIds.length}], b.completed_at + interval '6 hours'
      from bench_reports b where b.n % 3 = 0
      on conflict do nothing`;
  }
  if (facts.escalatedTagId) {
    await tx`
      insert into report_submission_tags (submission_id, tag_id, created_at)
      select b.id, ${facts.escalatedTagId}, b.completed_at + interval '7 hours' from bench_reports b where b.n % 10 = 0
      on conflict do nothing`;
  }
  await tx`
    insert into report_conversation_messages (conversation_id, organisation_id, type, message, "from", from_user_id, state, read_at, created_at)
    select c.id, ${facts.organisationId}::uuid, 'Text'::message_type, ${facts.staffMessage}, 'User'::message_sender, ${handler}::uuid, 'Seen'::message_state,
      b.completed_at + interval '23 hours', b.completed_at + interval '7 hours'
    from bench_reports b join report_conversations c on c.submission_id = b.id where b.n % 5 = 0
    union all
    select c.id, ${facts.organisationId}::uuid, 'Text'::message_type, ${facts.reporterMessage}, 'Guest'::message_sender, null,
      case when c.concluded then 'Seen' else 'New' end::message_state, case when c.concluded then b.completed_at + interval '2 days' end,
      b.completed_at + interval '1 day'
    from bench_reports b join report_conversations c on c.submission_id = b.id where b.n % 5 = 0`;
}
