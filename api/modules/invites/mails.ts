import type { Config } from "../../config.ts";
import type { OutgoingMail } from "../../lib/mailer.ts";
import { consoleUrl } from "../reports/forward-email.ts";

type LinkConfig = Pick<Config, "protocol" | "appDomain" | "port" | "production">;

/** How long an invite's link works (docs/decisions/035-onboard-invites.md): long enough for a holiday, short enough that a forgotten mail goes stale. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const inviteSubject = (organisationName: string) => `Invitation to join ${organisationName}`;

/**
 * The invite: the organisation's name (the reader must know whom they would join) and the link to
 * /onboarding/{token} on the console's own host, where sign-up happens. Nothing about reports.
 */
export function inviteMail(config: LinkConfig, invite: { email: string; firstName: string; organisationName: string }, token: string): OutgoingMail {
  const url = consoleUrl(config, `/onboarding/${token}`);
  return {
    to: invite.email,
    subject: inviteSubject(invite.organisationName),
    text: [
      `Hello ${invite.firstName},`,
      "",
      `You have been invited to join ${invite.organisationName} in its admin console.`,
      "",
      "To accept, open this link within 7 days and sign up:",
      url,
      "",
      "If you did not expect this invitation, you can ignore this email.",
      "",
    ].join("\n"),
  };
}
