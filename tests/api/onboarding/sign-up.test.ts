import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { organisations, prospects, users } from "../../../db/schema/index.ts";
import { CONFIRMATION_SENT } from "../../../api/shared/messages.ts";
import { runHousekeeping } from "../../../api/modules/abuse/housekeeping.ts";
import { createUser } from "../../factories/users.ts";
import { CONFIRM_SUBJECT, confirmationCode, OnboardingBrowser, outbox, signUpBody } from "../../helpers/onboarding.ts";
import { waitForMail } from "../../helpers/outbox-mail.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";
import { anonymous } from "../../helpers/session.ts";

const ctx = serverWithOrganisation();

const VIEWER = `{ viewer { email verified role { name } organisation { id name slug } } }`;
type Viewer = { viewer: { email: string; verified: boolean; role: { name: string }; organisation: { id: string; name: string; slug: string } } };

async function signUp(overrides: Record<string, unknown> = {}) {
  const browser = new OnboardingBrowser(ctx.server);
  const body = signUpBody(overrides);
  const started = await browser.start(body);
  return { browser, body, started };
}

describe("signing up a new organisation", () => {
  test("needs names, email, organisation name and ABN, and a password that passes the rule", async () => {
    const browser = new OnboardingBrowser(ctx.server);
    const missing = await browser.start({ email: "a@example.test" });
    expect(missing.status).toBe(400);
    const fields = async (body: Record<string, unknown>) => ((await browser.start(body)).body.fields as { field: string; message: string }[]).map((f) => `${f.field}: ${f.message}`);
    expect(await fields(signUpBody({ organisationName: "", organisationABN: " " }))).toEqual(["organisationName: Required", "organisationABN: Required"]);
    expect(await fields(signUpBody({ password: "short1" }))).toEqual(["password: Password must contain at least 8 characters"]);
    expect(await fields(signUpBody({ password: "longbutnodigits" }))).toEqual(["password: Password must contain at least 1 letter and number"]);
    expect(await fields(signUpBody({ password: "" }))).toEqual(["password: Required"]);
  });

  test("refuses hostile input with a clear message and creates nothing", async () => {
    const before = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(prospects);
    const browser = new OnboardingBrowser(ctx.server);
    for (const body of [
      signUpBody({ firstName: "Nul\u0000" }),
      signUpBody({ organisationName: "x".repeat(1_000_000) }),
      signUpBody({ email: ["a@example.test"] }),
      signUpBody({ password: 12345678 }),
      signUpBody({ productPlanID: "00000000-0000-0000-0000-000000000000" }),
    ]) {
      const answer = await browser.start(body);
      expect(answer.status).toBe(400);
      expect(typeof answer.body.error).toBe("string");
    }
    for (const raw of ["[]", "not json", '"text"']) expect((await browser.start(raw)).status).toBe(400);
    for (const raw of [{ prospectID: 5, token: [] }, { prospectID: "x\u0000", token: "y" }, { prospectID: "a".repeat(1_000_000), token: "b" }]) expect((await browser.finish(raw)).status).toBe(400);
    const after = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(prospects);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  test("start, confirm, finish: exactly one organisation and its owner, signed in, with a slug of its own", async () => {
    const { browser, body, started } = await signUp({ organisationName: "Acme Widgets", username: "sam.founder" });
    expect(started).toMatchObject({ status: 200, body: { title: "Almost done...", message: CONFIRMATION_SENT } });
    const check = `query ($id: ID!) { onboardingCheck(prospectID: $id) { isCompleted } }`;
    expect((await anonymous(ctx.server).gql(check, { id: started.body.prospectID })).data).toEqual({ onboardingCheck: { isCompleted: false } });
    const code = await confirmationCode(ctx.server, body.email as string);
    const onboarding = await anonymous(ctx.server).gql(`query ($token: String!) { onboarding(token: $token) { id type email organisationName organisationABN isCompleted } }`, { token: code });
    expect(onboarding.data?.onboarding).toEqual({ id: started.body.prospectID, type: "Organisation", email: body.email, organisationName: "Acme Widgets", organisationABN: "51 824 753 556", isCompleted: false });

    const before = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(organisations);
    const finished = await browser.finish({ prospectID: started.body.prospectID, token: code, cardToken: "", couponCode: "" });
    expect(finished.status).toBe(200);
    const viewer = (await finished.client!.gql<Viewer>(VIEWER)).data!.viewer;
    expect(viewer).toMatchObject({ email: body.email, verified: true, role: { name: "ORGANISATION_OWNER" }, organisation: { name: "Acme Widgets" } });
    expect(viewer.organisation.slug).toMatch(/^acme-widgets(-\d+)?$/);
    // The username given at the start is the owner's (spec document 1 §7, onboard_start).
    expect((await ctx.server.db.select({ username: users.username }).from(users).where(eq(users.email, body.email as string)))[0]!.username).toBe("sam.founder");
    const after = await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(organisations);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    expect((await anonymous(ctx.server).gql(check, { id: started.body.prospectID })).data).toEqual({ onboardingCheck: { isCompleted: true } });
    // Finishing twice makes nothing more.
    expect((await browser.finish({ prospectID: started.body.prospectID, token: code })).status).toBe(400);
    expect((await ctx.server.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(organisations))[0]!.n).toBe(after[0]!.n);
  });

  test("a second organisation of the same name gets another slug; a reserved name never becomes a subdomain", async () => {
    const slugs: string[] = [];
    for (const name of ["Twin Co", "Twin Co", "App", "Login"]) {
      const { browser, body, started } = await signUp({ organisationName: name });
      const code = await confirmationCode(ctx.server, body.email as string);
      const finished = await browser.finish({ prospectID: started.body.prospectID, token: code });
      slugs.push((await finished.client!.gql<Viewer>(VIEWER)).data!.viewer.organisation.slug);
    }
    expect(slugs[0]).not.toBe(slugs[1]);
    expect(slugs[2]).not.toBe("app");
    expect(slugs[3]).not.toBe("login");
  });

  test("an address that already has an account gets the same answer, and a mail saying so instead of a link", async () => {
    const existing = await createUser(ctx.server.db, { role: "MEMBER", organisationId: ctx.organisationId });
    const fresh = await signUp();
    const taken = await signUp({ email: existing.email });
    expect(Object.keys(taken.started.body).sort()).toEqual(Object.keys(fresh.started.body).sort());
    expect(taken.started.status).toBe(fresh.started.status);
    const mail = await waitForMail(ctx.server.dataDir, { to: existing.email, subject: CONFIRM_SUBJECT });
    expect(mail.text).toContain("already has an account");
    expect(mail.text).not.toContain("/verify/");
  });

  test("starting again in the same browser updates the onboarding; a blank password keeps the one chosen before", async () => {
    const browser = new OnboardingBrowser(ctx.server);
    const body = signUpBody();
    const first = await browser.start(body);
    await confirmationCode(ctx.server, body.email as string);
    const seen = outbox(ctx.server);
    const second = await browser.start({ ...body, firstName: "Samantha", password: "" });
    expect(second.body.prospectID).toBe(first.body.prospectID);
    const code = await confirmationCode(ctx.server, body.email as string, seen);
    // The first link was replaced by the second.
    const elsewhere = new OnboardingBrowser(ctx.server);
    const finished = await elsewhere.finish({ prospectID: first.body.prospectID, token: code, password: body.password });
    expect(finished.status).toBe(200);
    const [user] = await ctx.server.db.select({ firstName: users.firstName }).from(users).where(eq(users.email, body.email as string));
    expect(user!.firstName).toBe("Samantha");
  });

  test("onboardUpdate corrects the details with the mailed code, and nothing without it", async () => {
    const { browser, body, started } = await signUp();
    const code = await confirmationCode(ctx.server, body.email as string);
    const update = `mutation ($input: OnboardUpdateInput!) { onboardUpdate(input: $input) { firstName organisationName } }`;
    const denied = await anonymous(ctx.server).gql(update, { input: { token: "A".repeat(43), firstName: "X", lastName: "Y", organisationName: "Z", organisationABN: "1" } });
    expect(denied.errors?.[0]?.message).toBe("This confirmation link has expired or was already used. Please sign up again.");
    const allowed = await anonymous(ctx.server).gql(update, { input: { token: code, firstName: "Samuel", lastName: "Founder", organisationName: "Acme Gadgets", organisationABN: "1", password: "" } });
    expect(allowed.data).toEqual({ onboardUpdate: { firstName: "Samuel", organisationName: "Acme Gadgets" } });
    const finished = await browser.finish({ prospectID: started.body.prospectID, token: code });
    expect((await finished.client!.gql<Viewer>(VIEWER)).data!.viewer.organisation.name).toBe("Acme Gadgets");
  });

  test("a code only finishes its own onboarding", async () => {
    const mine = await signUp();
    const theirs = await signUp();
    const myCode = await confirmationCode(ctx.server, mine.body.email as string);
    expect((await mine.browser.finish({ prospectID: theirs.started.body.prospectID, token: myCode })).status).toBe(400);
    expect((await theirs.browser.finish({ prospectID: theirs.started.body.prospectID, token: myCode })).status).toBe(400);
  });

  test("onboarding(token) opens only a live, unspent code; onboardingCheck says nothing about ids it does not know", async () => {
    const query = `query ($token: String!) { onboarding(token: $token) { id } }`;
    const { browser, body, started } = await signUp();
    const code = await confirmationCode(ctx.server, body.email as string);
    expect((await anonymous(ctx.server).gql(query, { token: code })).data).toEqual({ onboarding: { id: started.body.prospectID } });
    for (const token of ["", "A".repeat(43), "x\u0000", "z".repeat(100_000)]) expect((await anonymous(ctx.server).gql(query, { token })).errors?.[0]?.message).toBeString();
    await browser.finish({ prospectID: started.body.prospectID, token: code });
    expect((await anonymous(ctx.server).gql(query, { token: code })).errors?.[0]?.message).toBe("This confirmation link has expired or was already used. Please sign up again.");
    const check = `query ($id: ID!) { onboardingCheck(prospectID: $id) { isCompleted } }`;
    for (const id of ["00000000-0000-0000-0000-000000000000", "not-an-id"]) expect((await anonymous(ctx.server).gql(check, { id })).data).toEqual({ onboardingCheck: { isCompleted: false } });
  });

  test("the housekeeping round forgets onboardings whose link lapsed, and keeps live ones", async () => {
    const stale = await signUp();
    const live = await signUp();
    await ctx.server.db.update(prospects).set({ confirmationExpiresAt: new Date(Date.now() - 1000) }).where(eq(prospects.id, stale.started.body.prospectID as string));
    await runHousekeeping(ctx.server.lantern.services);
    const left = await ctx.server.db.select({ id: prospects.id }).from(prospects).where(sql`${prospects.id} in (${stale.started.body.prospectID}, ${live.started.body.prospectID})`);
    expect(left.map((row) => row.id)).toEqual([live.started.body.prospectID as string]);
  });

  test("an expired confirmation link finishes nothing", async () => {
    const { browser, body, started } = await signUp();
    const code = await confirmationCode(ctx.server, body.email as string);
    await ctx.server.db.update(prospects).set({ confirmationExpiresAt: new Date(Date.now() - 1000) }).where(eq(prospects.id, started.body.prospectID as string));
    expect((await browser.finish({ prospectID: started.body.prospectID, token: code })).status).toBe(400);
  });

  test("repeated starts for one address cost proof of work (the forgot-password bot check)", async () => {
    const browser = new OnboardingBrowser(ctx.server);
    const body = signUpBody();
    const headers = { "Content-Type": "application/json" };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await ctx.server.fetch("/api/auth/onboard_start", { method: "POST", headers, body: JSON.stringify(body) })).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(428);
    // The page solves it and is heard.
    expect((await browser.start(body)).status).toBe(200);
  });
});
