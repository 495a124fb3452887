import type { Database } from "../client.ts";
import {
  reportConversationMessages,
  reportConversations,
  reportSubmissionAnswers,
  reportSubmissionAssignees,
  reportSubmissionNotes,
  reportSubmissions,
  reportSubmissionTags,
  tags,
} from "../schema/index.ts";
import type { Sealer } from "../../api/lib/key-ring.ts";
import { generateReportId } from "../../api/lib/report-credentials.ts";
import { TERMINAL_SUBMISSION_STATUSES, type SubmissionStatus } from "../../api/shared/enums.ts";
import type { SeededOrganisation } from "./demo-people.ts";
import type { OrganisationScenarios, ReportScenario } from "./demo-report-scenarios.ts";
import { daysAgo, utcDayStart } from "./demo-time.ts";
import { pageOf, type PublishedForm } from "./publish-form.ts";

/** One seeded report's reporter credentials, for the CLI to print. */
export interface DemoReportCredential {
  organisationSlug: string;
  reportId: string;
  password: string;
  status: SubmissionStatus;
}

export interface ReportSeedInput {
  organisation: SeededOrganisation;
  scenarios: OrganisationScenarios;
  forms: { main: PublishedForm; enquiry?: PublishedForm };
  /** Hash of `password`, computed once by the caller and shared by every report. */
  password: string;
  passwordHash: string;
  now: Date;
  /** The organisation's sealer: the demo's answers, notes and messages are stored as real ones are (decision 049). */
  sealer: Sealer;
}

/** Minutes a reporter spends filling a form, so completedAt trails createdAt plausibly. */
const FILL_MINUTES = 18;
const MINUTE_DAYS = 1 / (24 * 60);

function isTerminal(status: SubmissionStatus): boolean {
  return (TERMINAL_SUBMISSION_STATUSES as readonly SubmissionStatus[]).includes(status);
}

/** 'NotSubstantiated' becomes 'Not Substantiated', as the console shows statuses. */
function statusLabel(status: SubmissionStatus): string {
  return status.replace(/([a-z])([A-Z])/g, "$1 $2");
}

/** Writes the organisation's tags and every scenario's submission with its answers, team, notes and chat. */
export async function seedReports(tx: Database, input: ReportSeedInput): Promise<DemoReportCredential[]> {
  const { organisation, scenarios } = input;
  const tagRows = await tx
    .insert(tags)
    .values(scenarios.tags.map((tag) => ({ ...tag, organisationId: organisation.id, createdAt: daysAgo(100, input.now), updatedAt: daysAgo(100, input.now) })))
    .returning({ id: tags.id, name: tags.name });
  const tagIds = new Map(tagRows.map((tag) => [tag.name, tag.id] as const));

  const credentials: DemoReportCredential[] = [];
  for (const scenario of scenarios.reports) {
    const form = scenario.form === "enquiry" ? input.forms.enquiry : input.forms.main;
    if (!form) throw new Error(`Demo seed: ${organisation.slug} has an enquiry report but no enquiry form`);
    const reportId = await seedReport(tx, input, scenario, form, tagIds);
    credentials.push({ organisationSlug: organisation.slug, reportId, password: input.password, status: scenario.status });
  }
  return credentials;
}

async function seedReport(
  tx: Database,
  input: ReportSeedInput,
  scenario: ReportScenario,
  form: PublishedForm,
  tagIds: Map<string, string>,
): Promise<string> {
  const { organisation, now } = input;
  const at = (days: number) => daysAgo(days, now);
  const closed = isTerminal(scenario.status);
  const assigned = scenario.status !== "New";
  const start = scenario.submittedDaysAgo;
  // Activity runs from shortly after submission until the report closed, or until a few hours ago.
  const end = closed ? (scenario.closedDaysAgo ?? start / 2) : 0.2;
  const messages = scenario.messages ?? [];
  const messageDays = messages.map((_, index) => start - ((index + 1) * (start - end)) / (messages.length + 1));
  const lastActivity = closed ? end : (messageDays.at(-1) ?? start);

  const reportId = generateReportId();
  const pages = form.widgets.filter((widget) => widget.type === "Section").length;
  const [submission] = await tx
    .insert(reportSubmissions)
    .values({
      organisationId: organisation.id,
      formId: form.formId,
      buildId: form.buildId,
      reportId,
      status: scenario.status,
      priority: scenario.priority,
      completed: true,
      completedAt: at(start),
      // The legal clocks (decision 050): the first message, staff's, acknowledged; closing gave feedback.
      acknowledgedAt: messages.length > 0 ? at(messageDays[0]!) : null,
      feedbackAt: closed ? at(end) : null,
      passwordHash: input.passwordHash,
      internalReference: scenario.internalReference ?? "",
      currentPage: Math.max(pages - 1, 0),
      createdAt: utcDayStart(at(start + FILL_MINUTES * MINUTE_DAYS)),
      updatedAt: at(lastActivity),
    })
    .returning({ id: reportSubmissions.id });
  const submissionId = submission!.id;

  await tx.insert(reportSubmissionAnswers).values(
    Object.entries(scenario.answers).map(([widgetId, answer]) => ({
      submissionId,
      widgetId,
      page: pageOf(form.widgets, widgetId),
      answer: (typeof answer === "string" ? [answer] : answer).map((text) => input.sealer.sealText("answer", text)),
      createdAt: utcDayStart(at(start + FILL_MINUTES * MINUTE_DAYS)),
      updatedAt: utcDayStart(at(start)),
    })),
  );

  // The member handles the case and the admin reviews it; a rejection is the admin's call alone.
  const team = !assigned
    ? []
    : scenario.status === "Rejected"
      ? [{ userId: organisation.adminId, isOwner: true }]
      : [
          { userId: organisation.memberId, isOwner: true },
          { userId: organisation.adminId, isOwner: false },
        ];
  const assignedAt = at(start - 0.25);
  if (team.length > 0) await tx.insert(reportSubmissionAssignees).values(team.map((member) => ({ ...member, submissionId, createdAt: assignedAt })));

  const tagged = (scenario.tags ?? []).map((name) => {
    const tagId = tagIds.get(name);
    if (!tagId) throw new Error(`Demo seed: unknown tag ${name}`);
    return { submissionId, tagId, createdAt: assignedAt };
  });
  if (tagged.length > 0) await tx.insert(reportSubmissionTags).values(tagged);

  const handlerId = team[0]?.userId ?? null;
  const notes: { note: string; newStatus: SubmissionStatus | null; createdAt: Date }[] = (scenario.notes ?? []).map((note, index, all) => ({
    note,
    newStatus: null,
    createdAt: at(start - ((index + 1) * (start - end)) / (all.length + 1.5)),
  }));
  // Closing writes a note recording the new status, as the console's close dialog does.
  if (closed) notes.push({ note: `Report Marked as ${statusLabel(scenario.status)}`, newStatus: scenario.status, createdAt: at(end) });
  if (notes.length > 0) {
    await tx
      .insert(reportSubmissionNotes)
      .values(notes.map((note) => ({ ...note, note: input.sealer.sealText("note", note.note), submissionId, organisationId: organisation.id, authorUserId: handlerId, updatedAt: note.createdAt })));
  }

  await seedConversation(tx, { input, submissionId, closed, handlerId, messages, messageDays, lastActivity, createdAt: at(start) });
  return reportId;
}

/**
 * The report's chat. Staff open it and the reporter answers; everything is read except, on an
 * open report, the reporter's latest message, so the console has an unread conversation to show.
 */
async function seedConversation(
  tx: Database,
  chat: {
    input: ReportSeedInput;
    submissionId: string;
    closed: boolean;
    handlerId: string | null;
    messages: string[];
    messageDays: number[];
    lastActivity: number;
    createdAt: Date;
  },
): Promise<void> {
  const { input, messages, messageDays } = chat;
  const at = (days: number) => daysAgo(days, input.now);
  const lastMessageDay = messageDays.at(-1);
  const [conversation] = await tx
    .insert(reportConversations)
    .values({
      submissionId: chat.submissionId,
      organisationId: input.organisation.id,
      concluded: chat.closed,
      guestLastSeenAt: lastMessageDay === undefined ? null : at(Math.max(lastMessageDay - 0.05, 0)),
      // On an open report staff last looked just before the reporter's unread reply arrived.
      staffLastSeenAt: lastMessageDay === undefined ? null : at(chat.closed ? chat.lastActivity : lastMessageDay + 0.05),
      lastMessageAt: lastMessageDay === undefined ? null : at(lastMessageDay),
      createdAt: chat.createdAt,
    })
    .returning({ id: reportConversations.id });
  if (messages.length === 0) return;
  if (!chat.handlerId) throw new Error("Demo seed: a report with messages needs an assignee to write them");

  await tx.insert(reportConversationMessages).values(
    messages.map((message, index) => {
      const fromGuest = index % 2 === 1;
      const unread = fromGuest && !chat.closed && index === messages.length - 1;
      const createdAt = at(messageDays[index]!);
      return {
        conversationId: conversation!.id,
        organisationId: input.organisation.id,
        type: "Text" as const,
        message: input.sealer.sealText("message", message),
        from: fromGuest ? ("Guest" as const) : ("User" as const),
        fromUserId: fromGuest ? null : chat.handlerId,
        state: unread ? ("New" as const) : ("Seen" as const),
        readAt: unread ? null : at(Math.max(messageDays[index]! - 0.1, 0)),
        createdAt,
      };
    }),
  );
}
