import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { reportFormBuilds, reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import { pagesOfAnswers, ReporterClient, UPDATE } from "../../helpers/reporter.ts";
import { asInput, code, formInput, message, Q, startFormsServer, widgets, type Data, type FormsServer } from "./form-api.ts";

/** Builds as reporters meet them: publish states, the revision check, locks and form passwords. */

let s: FormsServer;
beforeAll(async () => {
  s = await startFormsServer();
}, 60_000);
afterAll(() => s.server.stop());

const REPORTER_FORM = `query ($id: ID!) { reportSubmissionForm(reportFormID: $id) { secured unlocked widgets { id type title answers pageName condition { matchType rules { conditionWidgetID conditionAnswer } } } } }`;
const UNLOCK = `mutation ($id: ID!, $p: String!) { reportFormUnlock(reportFormID: $id, password: $p) }`;

const create = async (name: string, extra: Record<string, unknown> = {}) => (await s.people.owner.gql<Data>(Q.create, { input: formInput(name, extra) })).data?.reportFormCreate;
const buildCount = async (formId: string) => (await s.server.db.select({ n: count() }).from(reportFormBuilds).where(eq(reportFormBuilds.formId, formId)))[0]!.n;
const activeForms = async () => (await s.people.owner.gql<Data>(Q.usage, { id: s.org.demo })).data?.organisation.usage.activeForms;
const reporter = () => new ReporterClient(s.server, "demo.localhost");
const reporterTitles = async (client: ReporterClient, id: string) => (await client.gql<Data>(REPORTER_FORM, { id })).data?.reportSubmissionForm.widgets.map((w: Data) => w.title);

describe("reportFormPublish and reportFormUnpublish", () => {
  test("allowed: publishing deploys a build, makes the form Active for reporters and counts it; a later save is Outdated; unpublishing withdraws it", async () => {
    const form = await create("Published journey");
    const before = await activeForms();
    const published = (await s.people.admin.gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id })).data?.reportFormPublish;
    expect(published).toMatchObject({ status: "Active", publishState: "Published", deployedBuild: { id: form.currentBuild.id, revision: 1 } });
    expect(published.publicURL).toBe(`http://demo.localhost:${s.server.lantern.services.config.port}/report/${form.id}`);
    expect(await activeForms()).toBe(before + 1);
    expect((await s.audit(form.id, "Publish"))[0]).toMatchObject({ objectType: "ReportForm", metadata: { name: "Published journey" } });

    // A reporter who starts before the next save keeps the build they started on.
    const early = reporter();
    expect((await early.post("/api/auth/report_start", { reportFormID: form.id })).status).toBe(200);
    expect(await reporterTitles(early, form.id)).toEqual(["About", "Did it happen at work?", "What happened?"]);

    const edited = asInput(form.currentBuild);
    edited.push({ type: "ShortText", title: "Added later" });
    const saved = (await s.people.owner.gql<Data>(Q.update, { id: form.id, input: { name: form.name, widgets: edited, baseRevision: 1 } })).data?.reportFormUpdate;
    expect(saved).toMatchObject({ publishState: "Outdated", status: "Active", currentBuild: { revision: 2 }, deployedBuild: { revision: 1 } });
    // A new reporter still gets the deployed build, not the saved one.
    expect(await reporterTitles(reporter(), form.id)).toEqual(["About", "Did it happen at work?", "What happened?"]);

    const republished = (await s.people.owner.gql<Data>(Q.publish, { id: form.id, b: saved.currentBuild.id })).data?.reportFormPublish;
    expect(republished.publishState).toBe("Published");
    expect(await reporterTitles(reporter(), form.id)).toContain("Added later");
    // The early draft still answers the build it started on.
    const [draft] = await s.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.formId, form.id));
    expect(draft!.buildId).toBe(form.currentBuild.id);
    const firstPage = pagesOfAnswers(form.currentBuild.widgets)[0]!;
    expect((await early.gql<Data>(UPDATE, { page: 0, answers: firstPage })).data?.userReportSubmissionUpdate.success).toBe(true);

    const unpublished = (await s.people.owner.gql<Data>(Q.unpublish, { id: form.id })).data?.reportFormUnpublish;
    expect(unpublished).toMatchObject({ status: "Draft", publishState: "Unpublished", deployedBuild: null, publicURL: null });
    expect(await activeForms()).toBe(before);
    expect((await reporter().gql<Data>(REPORTER_FORM, { id: form.id })).errors?.[0]?.message).toBe("Report Form was not found or not longer exists.");
    expect((await s.audit(form.id, "Unpublish"))).toHaveLength(1);
  });

  test("denied: a build of another form, a build without a section, members, guests, anonymous callers, reporters and other organisations", async () => {
    const form = await create("Publish refusals");
    const other = await create("Other form");
    expect(message(await s.people.owner.gql<Data>(Q.publish, { id: form.id, b: other.currentBuild.id }))).toBe("Build is not found");
    expect(message(await s.people.owner.gql<Data>(Q.publish, { id: form.id, b: "nope" }))).toBe("Build is not found");
    const noSection = (await s.people.owner.gql<Data>(Q.update, { id: form.id, input: { name: "Publish refusals", widgets: [{ type: "ShortText", title: "A" }, { type: "ShortText", title: "B" }] } })).data?.reportFormUpdate;
    const refused = await s.people.owner.gql<Data>(Q.publish, { id: form.id, b: noSection.currentBuild.id });
    expect([code(refused), message(refused)]).toEqual(["BAD_USER_INPUT", "Add at least one section before publishing"]);
    expect(code(await s.people.member.gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id }))).toBe("FORBIDDEN");
    expect(code(await s.people.guest.gql<Data>(Q.unpublish, { id: form.id }))).toBe("FORBIDDEN");
    expect(code(await s.people.anonymous.gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id }))).toBe("UNAUTHENTICATED");
    expect((await reporter().gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id })).errors?.length).toBe(1);
    expect(message(await s.people.nwOwner.gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id }))).toBe("Report Form is not found");
    expect(code(await s.people.owner.gql<Data>(Q.unpublish, { id: form.id }))).toBe("CONFLICT");
    const [row] = await s.server.db.select().from(reportForms).where(eq(reportForms.id, form.id));
    expect([row!.status, row!.deployedBuildId]).toEqual(["Draft", null]);
  });
});

describe("saving from a stale revision", () => {
  test("of two staff saving from the same revision, the second is told who saved first and nothing of theirs is written", async () => {
    const form = await create("Contested");
    const first = await s.people.owner.gql<Data>(Q.update, { id: form.id, input: { name: "Owner's edit", widgets: asInput(form.currentBuild), baseRevision: 1 } });
    expect(first.data?.reportFormUpdate.currentBuild.revision).toBe(2);
    const second = await s.people.admin.gql<Data>(Q.update, { id: form.id, input: { name: "Admin's edit", widgets: asInput(form.currentBuild), baseRevision: 1 } });
    expect(code(second)).toBe("CONFLICT");
    expect(message(second)).toBe("owner@demo.test saved this form while you were editing. Reload it to see their changes; yours are not saved.");
    const now = (await s.people.admin.gql<Data>(Q.get, { id: form.id })).data?.reportFormGet;
    expect([now.name, now.currentBuild.revision, await buildCount(form.id)]).toEqual(["Owner's edit", 2, 2]);
  });

  test("two saves at once from the same revision: exactly one wins", async () => {
    const form = await create("Raced");
    const save = (client: typeof s.people.owner, name: string) => client.gql<Data>(Q.update, { id: form.id, input: { name, widgets: asInput(form.currentBuild), baseRevision: 1 } });
    const results = await Promise.all([save(s.people.owner, "One"), save(s.people.admin, "Two")]);
    expect(results.map(code).sort()).toEqual(["CONFLICT", undefined]);
    expect(await buildCount(form.id)).toBe(2);
  });
});

describe("reportFormLockToggle", () => {
  test("allowed: a locked form that stays locked is returned unchanged; the save that unlocks it goes through", async () => {
    const form = await create("Lockable");
    const locked = (await s.people.owner.gql<Data>(Q.lock, { id: form.id })).data?.reportFormLockToggle;
    expect(locked.locked).toBe(true);
    const ignored = (await s.people.admin.gql<Data>(Q.update, { id: form.id, input: { name: "Changed while locked", widgets: widgets() } })).data?.reportFormUpdate;
    expect([ignored.name, ignored.locked, ignored.currentBuild.revision]).toEqual(["Lockable", true, 1]);
    const unlocked = (await s.people.admin.gql<Data>(Q.update, { id: form.id, input: { name: "Unlocked and saved", widgets: widgets(), locked: false } })).data?.reportFormUpdate;
    expect([unlocked.name, unlocked.locked, unlocked.currentBuild.revision]).toEqual(["Unlocked and saved", false, 2]);
    const relocked = (await s.people.owner.gql<Data>(Q.update, { id: form.id, input: { name: "Saved and locked", widgets: widgets(), locked: true } })).data?.reportFormUpdate;
    expect([relocked.locked, relocked.currentBuild.revision]).toEqual([true, 3]);
    expect((await s.people.owner.gql<Data>(Q.lock, { id: form.id })).data?.reportFormLockToggle.locked).toBe(false);
    expect(await s.audit(form.id, "Lock")).toHaveLength(1);
    expect(await s.audit(form.id, "Unlock")).toHaveLength(1);
  });

  test("denied: members, guests, anonymous callers and other organisations cannot lock", async () => {
    const form = await create("Unlockable");
    expect(code(await s.people.member.gql<Data>(Q.lock, { id: form.id }))).toBe("FORBIDDEN");
    expect(code(await s.people.guest.gql<Data>(Q.lock, { id: form.id }))).toBe("FORBIDDEN");
    expect(code(await s.people.anonymous.gql<Data>(Q.lock, { id: form.id }))).toBe("UNAUTHENTICATED");
    expect(message(await s.people.nwOwner.gql<Data>(Q.lock, { id: form.id }))).toBe("Report Form is not found");
    expect((await s.people.owner.gql<Data>(Q.get, { id: form.id })).data?.reportFormGet.locked).toBe(false);
  });
});

describe("reportFormSecure", () => {
  test("allowed: a secured form asks reporters for its password; the hash is never returned; null clears it", async () => {
    const form = await create("Secret form");
    await s.people.owner.gql<Data>(Q.publish, { id: form.id, b: form.currentBuild.id });
    const secured = await s.people.owner.gql<Data>(Q.secure, { id: form.id, p: "open sesame 1" });
    expect(secured.data?.reportFormSecure.secured).toBe(true);
    expect(JSON.stringify(secured)).not.toContain("argon2");
    const [row] = await s.server.db.select().from(reportForms).where(eq(reportForms.id, form.id));
    expect(row!.pinHash).toStartWith("$argon2id$");
    expect(JSON.stringify(await s.people.owner.gql<Data>(Q.get, { id: form.id }))).not.toContain(row!.pinHash!);

    const client = reporter();
    expect((await client.gql<Data>(REPORTER_FORM, { id: form.id })).data?.reportSubmissionForm).toMatchObject({ secured: true, unlocked: false, widgets: [] });
    expect((await client.gql<Data>(UNLOCK, { id: form.id, p: "wrong" })).data?.reportFormUnlock).toBe(false);
    expect((await client.gql<Data>(UNLOCK, { id: form.id, p: "open sesame 1" })).data?.reportFormUnlock).toBe(true);
    expect((await client.gql<Data>(REPORTER_FORM, { id: form.id })).data?.reportSubmissionForm.widgets).toHaveLength(3);

    // Saving with secure: true keeps the password it has; secure: false clears it.
    const kept = (await s.people.owner.gql<Data>(Q.update, { id: form.id, input: formInput("Secret form", { secure: true }) })).data?.reportFormUpdate;
    expect(kept.secured).toBe(true);
    const cleared = (await s.people.owner.gql<Data>(Q.secure, { id: form.id, p: null })).data?.reportFormSecure;
    expect(cleared.secured).toBe(false);
    expect((await reporter().gql<Data>(REPORTER_FORM, { id: form.id })).data?.reportSubmissionForm.secured).toBe(false);
    expect(await s.audit(form.id, "Secure")).toHaveLength(2);
  });

  test("denied: '' is 'Password is required'; members, guests, anonymous callers and other organisations are refused", async () => {
    const form = await create("Unsecurable");
    const empty = await s.people.owner.gql<Data>(Q.secure, { id: form.id, p: "" });
    expect([code(empty), message(empty)]).toEqual(["BAD_USER_INPUT", "Password is required"]);
    expect(code(await s.people.member.gql<Data>(Q.secure, { id: form.id, p: "x" }))).toBe("FORBIDDEN");
    expect(code(await s.people.guest.gql<Data>(Q.secure, { id: form.id, p: "x" }))).toBe("FORBIDDEN");
    expect(code(await s.people.anonymous.gql<Data>(Q.secure, { id: form.id, p: "x" }))).toBe("UNAUTHENTICATED");
    expect(message(await s.people.nwOwner.gql<Data>(Q.secure, { id: form.id, p: "x" }))).toBe("Report Form is not found");
    expect((await s.people.owner.gql<Data>(Q.get, { id: form.id })).data?.reportFormGet.secured).toBe(false);
  });
});
