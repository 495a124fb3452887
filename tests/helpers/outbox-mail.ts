import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A message the embedded mailer left in the outbox, as a person reading it would see it. */
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function header(head: string, name: string): string {
  const match = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(head);
  return (match?.[1] ?? "").replace(/\r?\n[ \t]/g, " ").trim();
}

/** Undoes quoted-printable: long lines (links) are wrapped with soft breaks. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(file: string, raw: string): OutboxMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const encoding = header(head, "Content-Transfer-Encoding").toLowerCase();
  const text = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { file, to: header(head, "To"), subject: header(head, "Subject"), text: text.replace(/\r\n/g, "\n") };
}

/** Every message in a data directory's outbox, oldest first (file names sort by time). */
export function readOutbox(dataDir: string): OutboxMail[] {
  const directory = join(dataDir, "outbox");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => parse(name, readFileSync(join(directory, name), "utf8")));
}

/** Waits until a message to `to` with this subject arrives that was not among `seen`, and returns it. */
export async function waitForMail(dataDir: string, match: { to: string; subject: string; seen?: OutboxMail[] }, timeoutMs = 20_000): Promise<OutboxMail> {
  const seen = new Set((match.seen ?? []).map((mail) => mail.file));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(dataDir).find((mail) => !seen.has(mail.file) && mail.to === match.to && mail.subject === match.subject);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${match.subject}" to ${match.to} arrived`);
    await Bun.sleep(25);
  }
}

/** The part of a console link after `prefix` (the token of /admin/reset-password/…, the code of /admin/verify/…). */
export function tokenAfter(mail: OutboxMail, prefix: string): string {
  const match = new RegExp(`https?://[^\\s]+${prefix.replace(/\//g, "\\/")}([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${prefix} link in "${mail.subject}"`);
  return match[1]!;
}
