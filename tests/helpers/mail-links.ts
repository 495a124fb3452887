import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A message of the outbox, as a mail client would show it: recipient, subject and decoded text. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

function header(raw: string, name: string): string {
  const match = raw.match(new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "im"));
  return (match?.[1] ?? "").replace(/\r?\n[ \t]/g, " ").trim();
}

/** Undoes the quoted-printable encoding nodemailer uses for long lines (soft breaks and =XX bytes). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Every message in a server's outbox directory, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const outbox = join(dataDir, "outbox");
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => {
      const raw = readFileSync(join(outbox, name), "utf8");
      const split = raw.search(/\r?\n\r?\n/);
      const head = raw.slice(0, split);
      const body = raw.slice(split).trim();
      const encoding = header(head, "Content-Transfer-Encoding").toLowerCase();
      const text = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
      return { to: header(head, "To"), subject: header(head, "Subject"), text };
    });
}

/** The messages to one address. */
export function mailsTo(dataDir: string, address: string): OutboxMail[] {
  return readOutbox(dataDir).filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
}

/** The first link in a message whose path starts with `pathPrefix`. */
export function linkIn(mail: OutboxMail, pathPrefix: string): URL {
  const found = mail.text.match(/https?:\/\/\S+/g)?.map((href) => new URL(href)).find((url) => url.pathname.startsWith(pathPrefix));
  if (!found) throw new Error(`no ${pathPrefix} link in the mail "${mail.subject}"`);
  return found;
}
