import { displayDate } from "../../shared/form-definition.ts";
import type { SubmissionStatus } from "../../shared/enums.ts";
import { shortName, type ReportDocument } from "./document.ts";

/**
 * One report as a self-contained, print-friendly HTML file. Everything in it but the fixed markup
 * comes from reporters and staff, so every value goes through `escapeHtml`, and the document loads
 * nothing (no scripts, images, fonts or links to fetch): it is opened from disk, mailed on and
 * printed long after it leaves the console, so it must not phone home or run anything.
 */

/** The policy sent with the download, and repeated inside the file for when it is opened from disk. */
export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Safe in element content and in quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** 'NotInvestigated' → 'Not Investigated', as the console labels statuses. */
export const statusLabel = (status: SubmissionStatus): string => status.replace(/([a-z])([A-Z])/g, "$1 $2");

const pad = (n: number) => String(n).padStart(2, "0");

/** dd/MM/yyyy HH:mm in UTC: the file has no viewer's time zone to follow, so it says which it uses. */
export function formatTimestamp(date: Date | null): string {
  if (!date) return "";
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const STYLE = `
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #111; max-width: 820px; margin: 24px auto; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 16px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; padding-bottom: 4px; } h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top; padding: 4px 8px 4px 0; border-bottom: 1px solid #eee; }
th { width: 200px; font-weight: 600; } .text { white-space: pre-wrap; overflow-wrap: anywhere; } .muted { color: #666; }
.entry { margin: 0 0 10px; } .meta { color: #555; font-size: 12px; }
footer { margin-top: 32px; color: #666; font-size: 12px; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } .entry, tr { break-inside: avoid; } }
`;

const text = (value: string) => `<span class="text">${escapeHtml(value)}</span>`;
const row = (label: string, value: string) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${value}</td></tr>`;
const none = (label: string) => `<p class="muted">${escapeHtml(label)}</p>`;

function answerText(type: string, answer: string[]): string {
  // Dates are stored YYYY-MM-DD and shown dd/MM/yyyy (spec); choices are listed one per line.
  return answer.map((value) => (type === "Date" ? displayDate(value) : value)).join("\n");
}

function details(doc: ReportDocument): string {
  const { report } = doc;
  const team = report.assignedUsers.map((member) => `${shortName(member.user)}${member.owner ? " (owner)" : ""}`);
  return [
    "<table>",
    row("Report ID", text(report.reportID)),
    row("Form", text(report.form.name)),
    row("Organisation", text(report.organisation.name)),
    row("Status", text(statusLabel(report.status))),
    row("Priority", text(report.priority)),
    row("Completed At", text(formatTimestamp(report.completedAt))),
    row("Updated At", text(formatTimestamp(report.updatedAt))),
    // Null for viewers who may not see it (super admins), so the row is left out rather than shown empty.
    ...(report.internalReference === null ? [] : [row("Internal Reference", text(report.internalReference))]),
    row("Tags", text(report.tags.map((tag) => tag.name).join(", "))),
    row("Team", text(team.join(", "))),
    "</table>",
  ].join("\n");
}

function answers(doc: ReportDocument): string {
  if (doc.pages.length === 0) return none("No answers.");
  return doc.pages
    .map((page) => [`<h3>${escapeHtml(page.name)}</h3>`, "<table>", ...page.answers.map((a) => row(a.title, text(answerText(a.type, a.answer)))), "</table>"].join("\n"))
    .join("\n");
}

function uploads(doc: ReportDocument): string {
  if (doc.attachments.length === 0) return none("No uploads.");
  return ["<table>", ...doc.attachments.map((file) => row(file.fileName, text(formatBytes(file.fileSizeBytes)))), "</table>"].join("\n");
}

function notes(doc: ReportDocument): string {
  if (doc.notes.length === 0) return none("No notes.");
  return doc.notes
    .map((note) => `<div class="entry"><div class="meta">${escapeHtml(note.author ?? "Former user")} · ${escapeHtml(formatTimestamp(note.createdAt))}</div>${text(note.text)}</div>`)
    .join("\n");
}

function messages(doc: ReportDocument): string {
  if (doc.messages.length === 0) return none("No messages.");
  return doc.messages
    .map((message) => {
      // Images are not embedded (the file loads nothing); the transcript notes that one was sent.
      const body = message.type === "Image" ? ["[Image]", message.text].filter(Boolean).join("\n") : message.text;
      return `<div class="entry"><div class="meta">${escapeHtml(message.sender)} · ${escapeHtml(formatTimestamp(message.createdAt))}</div>${text(body)}</div>`;
    })
    .join("\n");
}

export function renderReportHtml(doc: ReportDocument, exportedAt: Date = new Date()): string {
  const title = `Report ${doc.report.reportID}`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(EXPORT_CSP)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<h1>${escapeHtml(title)}</h1>`,
    details(doc),
    "<h2>Submitted Answers</h2>",
    answers(doc),
    "<h2>Uploads</h2>",
    uploads(doc),
    "<h2>Notes</h2>",
    notes(doc),
    "<h2>Messages</h2>",
    messages(doc),
    `<footer>Exported ${escapeHtml(formatTimestamp(exportedAt))}. Confidential: this report may identify the people in it.</footer>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
