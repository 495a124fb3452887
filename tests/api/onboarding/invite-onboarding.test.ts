import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { onboardInvites, userActivities, users } from "../../../db/schema/index.ts";
import { CONFIRMATION_SENT, INVALID_INVITE } from "../../../api/shared/messages.ts";
import { createInvite } from "../../factories/invites.ts";
import { createOrganisation } from "../../factories/users.ts";
import { confirmationCode, OnboardingBrowser, outbox } from "../../helpers/onboarding.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";
import { anonymous } from "../../helpers/session.ts";

const ctx = serverWithOrganisation();

const INVITE_GET = `query ($token: String!) { onboardingInviteGet(token: $token) { email firstName lastName roleName organisationName enableSSO } }`;
const VIEWER = `{ viewer { email verified role { name } organisation { id } } }`;

async function onboard(token: string, email: string, password = "member-pass-1") {
  const browser = new OnboardingBrowser(ctx.server);
  const started = await browser.start({ firstName: "Ivy", lastName: "Member", email, password, inviteToken: token, role: "SUPER_ADMIN" });
  return { browser, started };
}

describe("the invite page", () => {
  test("shows what the invite says: the locked email, names, the role and the organisation", async () => {
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId, role: "ORGANISATION_ADMIN" });
    const result = await anonymous(ctx.server).gql(INVITE_GET, { token });
    expect(result.data?.onboardingInviteGet).toMatchObject({ email: invite.email, firstName: "Ivy", roleName: "ORGANISATION_ADMIN", enableSSO: false });
  });

  test("answers the spec's one message for an unknown, expired, archived, accepted or archived-organisation invite", async () => {
    const db = ctx.server.db;
    const archivedOrganisation = await createOrganisation(db, { archived: true });
    const dead = [
      { token: "not-a-token" },
      { token: "A".repeat(43) },
      await createInvite(db, { organisationId: ctx.organisationId, expiresAt: new Date(Date.now() - 1000) }),
      await createInvite(db, { organisationId: ctx.organisationId, archived: true }),
      await createInvite(db, { organisationId: ctx.organisationId, status: "Onboarded" }),
      await createInvite(db, { organisationId: archivedOrganisation.id }),
    ];
    for (const { token } of dead) {
      const result = await anonymous(ctx.server).gql(INVITE_GET, { token });
      expect(result.errors?.[0]?.message).toBe(INVALID_INVITE);
      const started = await new OnboardingBrowser(ctx.server).start({ firstName: "A", lastName: "B", email: "x@example.test", password: "abcdefg1", inviteToken: token });
      expect(started).toMatchObject({ status: 400, body: { error: INVALID_INVITE } });
    }
  });
});

describe("accepting an invite", () => {
  test("the email is locked to the invite's", async () => {
    const { token } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId });
    const { started } = await onboard(token, "someone-else@example.test");
    expect(started.status).toBe(400);
    expect(started.body.error).toBe("The email address must be the one the invite was sent to.");
  });

  test("start, the mailed link, finish: a verified member of the invite's organisation with the invite's role, signed in, the invite Onboarded", async () => {
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId, role: "ORGANISATION_ADMIN" });
    const { browser, started } = await onboard(token, invite.email);
    expect(started).toMatchObject({ status: 200, body: { title: "Almost done...", message: CONFIRMATION_SENT, email: invite.email } });
    // Nothing exists before the link is followed.
    expect(await ctx.server.db.select().from(users).where(eq(users.email, invite.email))).toHaveLength(0);
    const code = await confirmationCode(ctx.server, invite.email);
    const finished = await browser.finish({ prospectID: started.body.prospectID, token: code });
    expect(finished.status).toBe(200);
    const viewer = await finished.client!.gql<{ viewer: { email: string; verified: boolean; role: { name: string }; organisation: { id: string } } }>(VIEWER);
    expect(viewer.data?.viewer).toEqual({ email: invite.email, verified: true, role: { name: "ORGANISATION_ADMIN" }, organisation: { id: ctx.organisationId } });
    const [row] = await ctx.server.db.select({ status: onboardInvites.status }).from(onboardInvites).where(eq(onboardInvites.id, invite.id));
    expect(row!.status).toBe("Onboarded");
    const audit = await ctx.server.db.select({ action: userActivities.action }).from(userActivities).where(eq(userActivities.objectId, invite.id));
    expect(audit.map((entry) => entry.action)).toContain("OnboardInviteAccept");

    // The link works once, and the invite is spent.
    expect((await browser.finish({ prospectID: started.body.prospectID, token: code })).status).toBe(400);
    expect((await anonymous(ctx.server).gql(INVITE_GET, { token })).errors?.[0]?.message).toBe(INVALID_INVITE);
  });

  test("in another browser the link needs the password chosen at the start", async () => {
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId });
    const { started } = await onboard(token, invite.email);
    const code = await confirmationCode(ctx.server, invite.email);
    const elsewhere = new OnboardingBrowser(ctx.server);
    const refused = await elsewhere.finish({ prospectID: started.body.prospectID, token: code });
    expect(refused).toMatchObject({ status: 400, body: { error: "Please enter the password you chose when you signed up." } });
    expect((await elsewhere.finish({ prospectID: started.body.prospectID, token: code, password: "wrong-pass-1" })).status).toBe(400);
    expect((await elsewhere.finish({ prospectID: started.body.prospectID, token: code, password: "member-pass-1" })).status).toBe(200);
  });

  test("an invite archived after the start cannot be finished", async () => {
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId });
    const { browser, started } = await onboard(token, invite.email);
    const code = await confirmationCode(ctx.server, invite.email);
    await ctx.server.db.update(onboardInvites).set({ archived: true }).where(eq(onboardInvites.id, invite.id));
    expect(await browser.finish({ prospectID: started.body.prospectID, token: code })).toMatchObject({ status: 400, body: { error: INVALID_INVITE } });
    expect(await ctx.server.db.select().from(users).where(eq(users.email, invite.email))).toHaveLength(0);
  });

  test("two browsers finishing one invite at once make one user", async () => {
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: ctx.organisationId });
    const first = await onboard(token, invite.email);
    const firstCode = await confirmationCode(ctx.server, invite.email);
    const seen = outbox(ctx.server);
    const second = await onboard(token, invite.email);
    const secondCode = await confirmationCode(ctx.server, invite.email, seen);
    const results = await Promise.all([
      first.browser.finish({ prospectID: first.started.body.prospectID, token: firstCode }),
      second.browser.finish({ prospectID: second.started.body.prospectID, token: secondCode }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    const made = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(users).where(sql`lower(${users.email}) = ${invite.email}`);
    expect(made[0]!.n).toBe(1);
  });

  test("the invite's seat passes to the member: a full organisation still accepts its open invite", async () => {
    const organisation = await createOrganisation(ctx.server.db, { openSeatNumber: 1 });
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: organisation.id });
    const { browser, started } = await onboard(token, invite.email);
    const code = await confirmationCode(ctx.server, invite.email);
    expect((await browser.finish({ prospectID: started.body.prospectID, token: code })).status).toBe(200);
    const [row] = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(users).where(eq(users.organisationId, organisation.id));
    expect(row!.n).toBe(1);
  });

  test("an invite to a single-sign-on organisation takes no password and makes a single-sign-on account", async () => {
    const organisation = await createOrganisation(ctx.server.db, { enableSSO: true });
    const { token, invite } = await createInvite(ctx.server.db, { organisationId: organisation.id });
    const browser = new OnboardingBrowser(ctx.server);
    const started = await browser.start({ firstName: "Sso", lastName: "Member", email: invite.email, inviteToken: token });
    expect(started.status).toBe(200);
    const code = await confirmationCode(ctx.server, invite.email);
    expect((await browser.finish({ prospectID: started.body.prospectID, token: code })).status).toBe(200);
    const [user] = await ctx.server.db.select({ isSSO: users.isSSO, passwordHash: users.passwordHash }).from(users).where(eq(users.email, invite.email));
    expect(user).toEqual({ isSSO: true, passwordHash: null });
  });
});
