import { cookieFrom, clientWithCookie, type StaffClient } from "./session.ts";
import { readOutbox, tokenAfter, waitForMail, type OutboxMail } from "./outbox-mail.ts";
import { postSolving } from "./proof-of-work.ts";
import type { TestServer } from "./server.ts";

export const CONFIRM_SUBJECT = "Confirm your email address";

/** One browser going through sign-up: it keeps the onboarding cookie onboard_start sets, as a browser would. */
export class OnboardingBrowser {
  cookie = "";
  constructor(private readonly server: TestServer) {}

  private post(path: string, body: unknown): Promise<Response> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.cookie) headers.Cookie = this.cookie;
    return this.server.fetch(path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  }

  /** onboard_start, solving the bot check when asked; returns the status and JSON body. */
  async start(body: Record<string, unknown> | string): Promise<{ status: number; body: Record<string, unknown> }> {
    const { response } = typeof body === "string" ? { response: await this.post("/api/auth/onboard_start", body) } : await postSolving((b) => this.post("/api/auth/onboard_start", b), body);
    const secret = cookieFrom(response, "lantern_onboarding");
    if (secret) this.cookie = `lantern_onboarding=${secret}`;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** onboard_finish; on success, a signed-in client with the new session. */
  async finish(body: Record<string, unknown> | string): Promise<{ status: number; body: Record<string, unknown>; client: StaffClient | null }> {
    const response = await this.post("/api/auth/onboard_finish", body);
    const session = cookieFrom(response, "lantern_session");
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, client: session ? clientWithCookie(this.server, `lantern_session=${session}`) : null };
  }
}

/** The confirmation code of the newest confirmation mail to this address that was not in `seen`. */
export async function confirmationCode(server: TestServer, email: string, seen: OutboxMail[] = []): Promise<string> {
  return tokenAfter(await waitForMail(server.dataDir, { to: email, subject: CONFIRM_SUBJECT, seen }), "/verify/");
}

export const outbox = (server: TestServer) => readOutbox(server.dataDir);

export function signUpBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: "Sam",
    lastName: "Founder",
    email: `founder-${crypto.randomUUID().slice(0, 8)}@example.test`,
    organisationName: "Acme Widgets",
    organisationABN: "51 824 753 556",
    password: "sign-up-pass-1",
    ...overrides,
  };
}
