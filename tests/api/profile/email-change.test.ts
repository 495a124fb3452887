import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { emailChanges, sessions, userActivities, users } from "../../../db/schema/index.ts";
import { runHousekeeping } from "../../../api/modules/abuse/housekeeping.ts";
import { createUser } from "../../factories/users.ts";
import { linkIn, mailsTo } from "../../helpers/mail-links.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

// A new email address takes effect only once the link mailed to it is opened; the old address is
// told and can cancel (decision 061). Asking needs the current password.

const env = serverWithOrganisation();

const CHANGE_DETAILS = `mutation ($input: ChangeDetailsInput!) { changeDetails(input: $input) { id email verified pendingEmail } }`;
const CONFIRM = `mutation ($token: String!) { confirmEmailChange(token: $token) }`;
const CANCEL = `mutation ($token: String!) { cancelEmailChange(token: $token) }`;
type Answer = { data?: { changeDetails: { email: string; verified: boolean; pendingEmail: string | null } } | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] };

const rowOf = async (id: string) => (await env.server.db.select().from(users).where(eq(users.id, id)))[0]!;
const pendingOf = async (id: string) => (await env.server.db.select().from(emailChanges).where(eq(emailChanges.userId, id)))[0];
const auditActions = async (id: string) => (await env.server.db.select({ action: userActivities.action }).from(userActivities).where(eq(userActivities.objectId, id))).map((row) => row.action);
let counter = 0;
const newAddress = () => `moved-${++counter}-${Date.now().toString(36)}@evil.test`;

async function member() {
  const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
  return { user, client: await loginAs(env.server, user.email, user.password) };
}
const change = (client: StaffClient, input: Record<string, unknown>) => client.gql(CHANGE_DETAILS, { input }) as Promise<Answer>;
const signInStatus = async (email: string, password: string) =>
  (await env.server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password, verifyToken: "" }) })).status;

/** Asks for the change with the password, and returns the two mailed links' tokens. */
async function requestChange(client: StaffClient, user: { email: string; password: string }, to: string) {
  const answer = await change(client, { email: to, password: user.password });
  expect(answer.errors).toBeUndefined();
  const confirm = linkIn(mailsTo(env.server.dataDir, to).at(-1)!, "/admin/confirm-email/").pathname.split("/").at(-1)!;
  const cancel = linkIn(mailsTo(env.server.dataDir, user.email).at(-1)!, "/admin/cancel-email-change/").pathname.split("/").at(-1)!;
  return { answer, confirm, cancel };
}

describe("changing one's email address: allowed", () => {
  test("with the password the change waits for its link; sign-in, resets and mail stay with the old address until it is opened", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const { answer, confirm } = await requestChange(client, user, to);
    expect(answer.data?.changeDetails).toMatchObject({ email: user.email, verified: true, pendingEmail: to });
    expect((await rowOf(user.id)).email).toBe(user.email);
    expect(mailsTo(env.server.dataDir, user.email).at(-1)?.text).not.toContain(to);

    expect(await signInStatus(user.email, user.password)).toBe(200);
    expect(await signInStatus(to, user.password)).toBe(401);
    const forgot = await anonymous(env.server).gql(`mutation { forgotPassword(email: "${to}") }`);
    expect(forgot.data).toEqual({ forgotPassword: true });
    await Bun.sleep(50);
    expect(mailsTo(env.server.dataDir, to).map((mail) => mail.subject)).toEqual(["Confirm your new email address"]);

    // The link needs no session: it may be opened on another device.
    const confirmed = await anonymous(env.server).gql(CONFIRM, { token: confirm });
    expect(confirmed).toEqual({ data: { confirmEmailChange: true } });
    expect(await rowOf(user.id)).toMatchObject({ email: to, verified: true });
    expect(await pendingOf(user.id)).toBeUndefined();
    expect(await signInStatus(to, user.password)).toBe(200);
    expect(await signInStatus(user.email, user.password)).toBe(401);
    expect(mailsTo(env.server.dataDir, user.email).at(-1)?.subject).toBe("Your email address was changed");
    expect(await auditActions(user.id)).toEqual(expect.arrayContaining(["ChangeDetails", "EmailChangeRequested", "EmailChangeConfirmed"]));
  });

  test("the old address's link cancels the change and signs the account out everywhere", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const { confirm, cancel } = await requestChange(client, user, to);
    expect(await anonymous(env.server).gql(CANCEL, { token: cancel })).toEqual({ data: { cancelEmailChange: true } });
    expect(await pendingOf(user.id)).toBeUndefined();
    expect(await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await client.gql<{ viewer: unknown }>("{ viewer { id } }")).data?.viewer ?? null).toBeNull();
    const late = await anonymous(env.server).gql(CONFIRM, { token: confirm });
    expect(late.errors?.[0]?.message).toBe("This email change link has expired, was cancelled or has already been used.");
    expect((await rowOf(user.id)).email).toBe(user.email);
    expect(await auditActions(user.id)).toContain("EmailChangeCancelled");
  });

  test("a second request replaces the first, whose links stop working", async () => {
    const { user, client } = await member();
    const first = await requestChange(client, user, newAddress());
    const secondAddress = newAddress();
    const second = await requestChange(client, user, secondAddress);
    expect((await anonymous(env.server).gql(CONFIRM, { token: first.confirm })).errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect((await anonymous(env.server).gql(CONFIRM, { token: second.confirm })).data).toEqual({ confirmEmailChange: true });
    expect((await rowOf(user.id)).email).toBe(secondAddress);
  });
});

describe("changing one's email address: refused, and nothing changes", () => {
  test("the tester's takeover: the session cookie alone cannot move the address, so no reset reaches the new one", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const answer = await change(client, { email: to });
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]).toMatchObject({ message: "Enter your current password to confirm it is you.", extensions: { code: "BAD_USER_INPUT", fields: [{ field: "password" }] } });
    await anonymous(env.server).gql(`mutation { forgotPassword(email: "${to}") }`);
    await Bun.sleep(50);
    expect(mailsTo(env.server.dataDir, to)).toEqual([]);
    expect(await pendingOf(user.id)).toBeUndefined();
    expect((await rowOf(user.id)).email).toBe(user.email);
  });

  test("a wrong password is refused, counted like a failed sign-in, and changes nothing else", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const answer = await change(client, { email: to, firstName: "Mallory", password: "not-the-password-1" });
    expect(answer.errors?.[0]).toMatchObject({ message: "The password is incorrect.", extensions: { fields: [{ field: "password" }] } });
    const row = await rowOf(user.id);
    expect(row).toMatchObject({ email: user.email, firstName: user.firstName, failedLoginCount: 1 });
    expect(await pendingOf(user.id)).toBeUndefined();
    expect(mailsTo(env.server.dataDir, to)).toEqual([]);
  });

  test("an expired link, a replayed link, a cancel link used to confirm and a made-up one are all refused", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const { confirm, cancel } = await requestChange(client, user, to);
    const refused = async (query: string, token: unknown) => {
      const answer = await anonymous(env.server).gql(query, { token });
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toMatch(/expired|String/);
    };
    await refused(CONFIRM, cancel);
    await refused(CANCEL, confirm);
    await refused(CONFIRM, "A".repeat(43));
    await env.server.db.update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.userId, user.id));
    await refused(CONFIRM, confirm);
    await refused(CANCEL, cancel);
    expect((await rowOf(user.id)).email).toBe(user.email);

    const again = await requestChange(client, user, to);
    expect((await anonymous(env.server).gql(CONFIRM, { token: again.confirm })).data).toEqual({ confirmEmailChange: true });
    await refused(CONFIRM, again.confirm);
    await refused(CANCEL, again.cancel);
    expect((await rowOf(user.id)).email).toBe(to);
  });

  test("the housekeeping round removes expired requests and keeps live ones", async () => {
    const stale = await member();
    const live = await member();
    await requestChange(stale.client, stale.user, newAddress());
    await requestChange(live.client, live.user, newAddress());
    await env.server.db.update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.userId, stale.user.id));
    await runHousekeeping(env.server.lantern.services);
    expect(await pendingOf(stale.user.id)).toBeUndefined();
    expect(await pendingOf(live.user.id)).toBeDefined();
  });

  test("an address taken by the time the link is opened is refused with the usual words, and the account keeps its own", async () => {
    const { user, client } = await member();
    const to = newAddress();
    const { confirm } = await requestChange(client, user, to);
    await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId, email: to });
    const answer = await anonymous(env.server).gql(CONFIRM, { token: confirm });
    expect(answer.errors?.[0]).toMatchObject({ message: "This email address is already in use.", extensions: { code: "CONFLICT" } });
    expect((await rowOf(user.id)).email).toBe(user.email);
  });

  test("hostile links and proofs: NUL bytes, a megabyte, wrong types; a clear error, no change, no 500", async () => {
    const { user, client } = await member();
    const to = newAddress();
    for (const password of [`${user.password}\u0000`, "x".repeat(1_000_000), 12345, { $ne: null }, [user.password]]) {
      const response = await client.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: CHANGE_DETAILS, variables: { input: { email: to, password } } }) });
      expect(response.status).toBeLessThan(500);
      const answer = (await response.json()) as Answer;
      expect(answer.data?.changeDetails ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toBeTruthy();
    }
    for (const token of ["\u0000".repeat(43), "x".repeat(1_000_000), 42, null]) {
      const response = await env.server.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: CONFIRM, variables: { token } }) });
      expect(response.status).toBeLessThan(500);
      expect(((await response.json()) as Answer).errors?.[0]?.message).toBeTruthy();
    }
    expect(await pendingOf(user.id)).toBeUndefined();
    expect((await rowOf(user.id)).email).toBe(user.email);
    expect(await env.server.db.select().from(userActivities).where(and(eq(userActivities.objectId, user.id), eq(userActivities.action, "EmailChangeRequested")))).toEqual([]);
  });

  test("another account's pending address is only a request: the owner of the link decides", async () => {
    const first = await member();
    const second = await member();
    const to = newAddress();
    const firstLinks = await requestChange(first.client, first.user, to);
    const secondLinks = await requestChange(second.client, second.user, to);
    expect((await anonymous(env.server).gql(CONFIRM, { token: secondLinks.confirm })).data).toEqual({ confirmEmailChange: true });
    expect((await anonymous(env.server).gql(CONFIRM, { token: firstLinks.confirm })).errors?.[0]?.message).toBe("This email address is already in use.");
    expect((await rowOf(first.user.id)).email).toBe(first.user.email);
    // Only the account's own viewer shows a waiting address: not even its organisation's owner sees it.
    await requestChange(first.client, first.user, newAddress());
    const owner = await createUser(env.server.db, { role: "ORGANISATION_OWNER", organisationId: env.organisationId });
    const seen = await (await loginAs(env.server, owner.email, owner.password)).gql<{ userGet: { email: string; pendingEmail: string | null } }>(`query ($id: ID!) { userGet(id: $id) { email pendingEmail } }`, { id: first.user.id });
    expect(seen.data?.userGet).toEqual({ email: first.user.email, pendingEmail: null });
    expect((await first.client.gql<{ viewer: { pendingEmail: string | null } }>("{ viewer { pendingEmail } }")).data?.viewer.pendingEmail).toMatch(/^moved-/);
  });
});
