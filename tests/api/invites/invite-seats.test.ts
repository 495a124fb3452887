import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { findOpenInviteByToken, markInviteOnboarded } from "../../../api/modules/invites/accept.ts";
import { inviteSubject } from "../../../api/modules/invites/mails.ts";
import { onboardInvites, organisations, roles, userActivities } from "../../../db/schema/index.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { readOutbox, tokenAfter, waitForMail } from "../../helpers/outbox-mail.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";

// Seats held by invites under concurrency, a mail server that refuses, and the link's life:
// resend voids it, archiving closes it, accepting spends it once (decision 035).

let server: TestServer;
let owner: StaffClient;
let organisationId: string;
let memberRoleId: string;
let counter = 0;

type Data = Record<string, any>;
const INVITE = `id email status archived`;
const CREATE = `mutation ($input: OnboardInviteInput!) { onboardInviteCreate(input: $input) { hasEmailSent invite { ${INVITE} } } }`;
const RESEND = `mutation ($id: ID!) { resendOnboardInvite(id: $id) { ${INVITE} } }`;
const ARCHIVE = `mutation ($id: ID!) { onboardInviteArchive(id: $id) { ${INVITE} } }`;
const UNARCHIVE = `mutation ($id: ID!) { onboardInviteUnarchive(id: $id) { ${INVITE} } }`;
const SEATS = `query { onboardInvites { seats { openSeatNumber activeUsers pendingInvites } } }`;
const NO_SEATS = "There are no free seats left in this organisation. Free a seat or ask for more seats, then try again.";
const ORGANISATION_NAME = "Seat Counting Co";

const nextEmail = () => `seat${++counter}@example.com`;
const create = (email = nextEmail()) => owner.gql<Data>(CREATE, { input: { firstName: "Sam", lastName: "Seat", email, roleID: memberRoleId } });
const seats = async () => (await owner.gql<Data>(SEATS)).data!.onboardInvites.seats as { openSeatNumber: number; activeUsers: number; pendingInvites: number };
const setSeats = (openSeatNumber: number) => updateOrganisations(server, eq(organisations.id, organisationId), { openSeatNumber });

/** Sends an invite and reads the token from its mail, as the invited person would. */
async function inviteWithToken(email = nextEmail()): Promise<{ id: string; token: string }> {
  const seen = readOutbox(server.dataDir);
  const result = await create(email);
  expect(result.errors).toBeUndefined();
  const mail = await waitForMail(server.dataDir, { to: email, subject: inviteSubject(ORGANISATION_NAME), seen });
  return { id: result.data!.onboardInviteCreate.invite.id, token: tokenAfter(mail, "/onboarding/") };
}

beforeAll(async () => {
  server = await startTestServer();
  // The owner holds one of the seats.
  organisationId = (await createOrganisation(server.db, { name: ORGANISATION_NAME, openSeatNumber: 4 })).id;
  const account = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId });
  owner = await loginAs(server, account.email, account.password);
  memberRoleId = (await server.db.select().from(roles).where(eq(roles.name, "MEMBER")))[0]!.id;
});
afterAll(() => server.stop());

describe("seats held by invites", () => {
  test("ten concurrent invites into three free seats: exactly three are created, the rest told there is no free seat", async () => {
    expect(await seats()).toEqual({ openSeatNumber: 4, activeUsers: 1, pendingInvites: 0 });
    const results = await Promise.all(Array.from({ length: 10 }, () => create()));
    const created = results.filter((result) => !result.errors);
    expect(created).toHaveLength(3);
    for (const refused of results.filter((result) => result.errors)) expect(refused.errors?.[0]?.message).toBe(NO_SEATS);
    expect(await seats()).toEqual({ openSeatNumber: 4, activeUsers: 1, pendingInvites: 3 });
    const rows = await server.db.select().from(onboardInvites).where(eq(onboardInvites.organisationId, organisationId));
    expect(rows).toHaveLength(3);

    // Archiving one frees its seat; unarchiving it needs one again.
    const [first, second] = created.map((result) => result.data!.onboardInviteCreate.invite.id as string);
    expect((await owner.gql<Data>(ARCHIVE, { id: first })).errors).toBeUndefined();
    expect((await create()).errors).toBeUndefined();
    const refused = await owner.gql<Data>(UNARCHIVE, { id: first });
    expect(refused.errors?.[0]?.message).toBe(NO_SEATS);
    expect((await server.db.select().from(onboardInvites).where(eq(onboardInvites.id, first!)))[0]!.archived).toBe(true);
    await owner.gql<Data>(ARCHIVE, { id: second });
    expect((await owner.gql<Data>(UNARCHIVE, { id: first })).errors).toBeUndefined();

    // Tidy up for the tests below: every invite archived, room for more.
    for (const row of await server.db.select().from(onboardInvites).where(and(eq(onboardInvites.organisationId, organisationId), eq(onboardInvites.archived, false)))) {
      await owner.gql<Data>(ARCHIVE, { id: row.id });
    }
    await setSeats(20);
  });

  test("two concurrent invites for one address: one is created, the other refused as a duplicate", async () => {
    const email = nextEmail();
    const results = await Promise.all([create(email), create(email.toUpperCase())]);
    expect(results.filter((result) => !result.errors)).toHaveLength(1);
    expect(results.find((result) => result.errors)?.errors?.[0]?.message).toBe(`An invite for "${email}" is already open in this organisation. Resend it from the list instead.`);
  });

  test("an expired invite holds no seat; resending it takes one again", async () => {
    await setSeats(1 + (await seats()).pendingInvites + 1);
    const { id } = await inviteWithToken();
    await server.db.update(onboardInvites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(onboardInvites.id, id));
    // Its seat is free: another invite fills it, and then the expired one cannot be revived.
    expect((await create()).errors).toBeUndefined();
    expect((await owner.gql<Data>(RESEND, { id })).errors?.[0]?.message).toBe(NO_SEATS);
    await setSeats(20);
    expect((await owner.gql<Data>(RESEND, { id })).errors).toBeUndefined();
  });
});

describe("the invite mail", () => {
  test("a mail server that refuses: the invite is kept and holds its seat, hasEmailSent is false, and the failure is audited", async () => {
    const mailer = server.lantern.services.mailer;
    const send = mailer.send;
    mailer.send = () => Promise.reject(new Error("connection refused"));
    try {
      const email = nextEmail();
      const before = await seats();
      const result = await create(email);
      expect(result.errors).toBeUndefined();
      expect(result.data?.onboardInviteCreate).toMatchObject({ hasEmailSent: false, invite: { email, status: "Invited", archived: false } });
      const id = result.data!.onboardInviteCreate.invite.id;
      expect((await seats()).pendingInvites).toBe(before.pendingInvites + 1);
      const entries = await server.db.select().from(userActivities).where(eq(userActivities.objectId, id));
      expect(entries.map((entry) => entry.action).sort()).toEqual(["Create", "InviteEmailFailed"]);

      // Resending while the mail server still refuses says so in the spec's words.
      const resent = await owner.gql<Data>(RESEND, { id });
      expect({ code: resent.errors?.[0]?.extensions?.code, message: resent.errors?.[0]?.message }).toEqual({ code: "UNAVAILABLE", message: `An error occurred when re-sending an invitation to "${email}"` });
    } finally {
      mailer.send = send;
    }
  });
});

describe("the link: findOpenInviteByToken and markInviteOnboarded", () => {
  test("the mailed token opens its invite with organisation and role; a resend voids it and the new one works", async () => {
    const { id, token } = await inviteWithToken();
    const found = await findOpenInviteByToken(server.db, token, new Date());
    expect(found).toMatchObject({ id, status: "Invited", roleName: "MEMBER", organisation: { id: organisationId, name: ORGANISATION_NAME, enableSSO: false, archived: false } });

    const seen = readOutbox(server.dataDir);
    expect((await owner.gql<Data>(RESEND, { id })).errors).toBeUndefined();
    const email = found!.email;
    const fresh = tokenAfter(await waitForMail(server.dataDir, { to: email, subject: inviteSubject(ORGANISATION_NAME), seen }), "/onboarding/");
    expect(await findOpenInviteByToken(server.db, token, new Date())).toBeNull();
    expect((await findOpenInviteByToken(server.db, fresh, new Date()))?.id).toBe(id);
  });

  test("closed links open nothing: unknown, malformed, expired, archived, or the organisation archived", async () => {
    const { id, token } = await inviteWithToken();
    expect(await findOpenInviteByToken(server.db, "A".repeat(43), new Date())).toBeNull();
    expect(await findOpenInviteByToken(server.db, "not a token", new Date())).toBeNull();
    expect(await findOpenInviteByToken(server.db, token, new Date(Date.now() + 8 * 24 * 60 * 60 * 1000))).toBeNull();
    await owner.gql<Data>(ARCHIVE, { id });
    expect(await findOpenInviteByToken(server.db, token, new Date())).toBeNull();
    await owner.gql<Data>(UNARCHIVE, { id });
    expect((await findOpenInviteByToken(server.db, token, new Date()))?.id).toBe(id);
    await updateOrganisations(server, eq(organisations.id, organisationId), { archived: true });
    try {
      expect(await findOpenInviteByToken(server.db, token, new Date())).toBeNull();
      // An archived organisation takes no new invites and resends none (its owner is signed out; a super admin asks here).
      const superAdmin = await createUser(server.db, { role: "SUPER_ADMIN", organisationId: null });
      const platform = await loginAs(server, superAdmin.email, superAdmin.password);
      const refused = await platform.gql<Data>(`mutation ($o: ID, $input: OnboardInviteInput!) { onboardInviteCreate(organisationID: $o, input: $input) { hasEmailSent } }`, {
        o: organisationId,
        input: { firstName: "Sam", lastName: "Seat", email: nextEmail(), roleID: memberRoleId },
      });
      expect(refused.errors?.[0]?.message).toBe("Organisation was not found or is currently suspended.");
      expect((await platform.gql<Data>(RESEND, { id })).errors?.[0]?.message).toBe("Organisation was not found or is currently suspended.");
    } finally {
      await updateOrganisations(server, eq(organisations.id, organisationId), { archived: false });
    }
  });

  test("two racing acceptances: exactly one marks the invite Onboarded; the link then opens nothing and Resend is refused", async () => {
    const { id, token } = await inviteWithToken();
    const outcomes = await Promise.all([0, 1].map(() => server.db.transaction((tx) => markInviteOnboarded(tx, id))));
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await findOpenInviteByToken(server.db, token, new Date())).toBeNull();
    expect((await owner.gql<Data>(RESEND, { id })).errors?.[0]?.message).toBe("Only invites that are still Invited can be resent.");
    expect(await markInviteOnboarded(server.db, id)).toBe(false);
  });
});
