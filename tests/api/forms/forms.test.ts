import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reportForms, reportFormBuilds } from "../../../db/schema/index.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { code, formInput, message, Q, startFormsServer, type Data, type FormsServer } from "./form-api.ts";

let s: FormsServer;
const seeded: Record<string, string> = {};

beforeAll(async () => {
  s = await startFormsServer();
  for (const row of await s.server.db.select().from(reportForms)) seeded[row.name] = row.id;
}, 60_000);
afterAll(() => s.server.stop());

const names = (result: Data) => result.data?.reportForms.list.map((f: { name: string }) => f.name);

describe("reportForms and reportFormGet", () => {
  test("allowed: owners and admins list their organisation's own forms, newest first, never the Enquiry form", async () => {
    const { owner, admin } = s.people;
    const listed = await owner.gql<Data>(Q.list, {});
    expect(names(listed)).toEqual(["Confidential Finance Concern", "Workplace Misconduct Report"]);
    expect(listed.data?.reportForms.total).toBe(2);
    expect(listed.data?.reportForms.list[0]).toMatchObject({ status: "Active", publishState: "Published", archived: false, organisationID: s.org.demo });
    expect(names(await admin.gql<Data>(Q.list, { s: "misconduct" }))).toEqual(["Workplace Misconduct Report"]);
    expect(names(await admin.gql<Data>(Q.list, { f: "Archived" }))).toEqual([]);
    // Invalid paging falls back to the default page of 20.
    expect(names(await owner.gql<Data>(Q.list, { l: -5, off: -1 }))).toHaveLength(2);
    expect(names(await owner.gql<Data>(Q.list, { l: 1, off: 1 }))).toEqual(["Workplace Misconduct Report"]);
  });

  test("allowed: a super admin sees every organisation's forms or names one", async () => {
    const all = await s.people.superAdmin.gql<Data>(Q.list, { f: "All" });
    expect(all.data?.reportForms.total).toBe(3);
    expect(names(await s.people.superAdmin.gql<Data>(Q.list, { o: s.org.northwind }))).toEqual(["Safety and Compliance Report"]);
  });

  test("allowed: reportFormGet answers the whole form with its build, and never the password", async () => {
    const got = await s.people.owner.gql<Data>(Q.get, { id: seeded["Workplace Misconduct Report"] });
    const form = got.data?.reportFormGet;
    expect(form).toMatchObject({ name: "Workplace Misconduct Report", publishState: "Published", organisation: { slug: "demo" }, hasNotes: false, notesCount: 0 });
    expect(form.currentBuild.id).toBe(form.deployedBuild.id);
    expect(form.currentBuild.widgets.length).toBeGreaterThan(2);
    expect(form.publicURL).toBe(`http://demo.localhost:${s.server.lantern.services.config.port}/report/${form.id}`);
    expect(JSON.stringify(got)).not.toContain("argon2");
  });

  test("denied: a reporter's session reaches no form operation", async () => {
    const reporter = new ReporterClient(s.server, "demo.localhost");
    const id = seeded["Workplace Misconduct Report"]!;
    expect((await reporter.post("/api/auth/report_start", { reportFormID: id })).status).toBe(200);
    for (const [query, variables] of [[Q.list, {}], [Q.get, { id }], [Q.create, { input: formInput("Reporter's") }], [Q.update, { id, input: formInput("Taken") }], [Q.archive, { id }], [Q.lock, { id }], [Q.notes, { id }], [Q.noteCreate, { id, n: "x" }]] as const) {
      const answer = await reporter.gql<Data>(query, variables);
      expect(answer.errors?.[0]?.extensions?.code ?? "").toMatch(/^(FORBIDDEN|UNAUTHENTICATED)$/);
      expect(answer.data ?? null).toBeNull();
    }
  });

  test("denied: members, guests and anonymous callers get nothing; other organisations' and unknown ids are not found", async () => {
    const { member, guest, anonymous, nwOwner, owner } = s.people;
    expect(code(await member.gql<Data>(Q.list, {}))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.get, { id: seeded["Workplace Misconduct Report"] }))).toBe("FORBIDDEN");
    expect(code(await anonymous.gql<Data>(Q.list, {}))).toBe("UNAUTHENTICATED");
    expect(message(await nwOwner.gql<Data>(Q.get, { id: seeded["Workplace Misconduct Report"] }))).toBe("Report Form is not found");
    expect(message(await nwOwner.gql<Data>(Q.list, { o: s.org.demo }))).toBe("Organisation is not found");
    expect(message(await owner.gql<Data>(Q.get, { id: "not-an-id" }))).toBe("Report Form is not found");
    expect(message(await owner.gql<Data>(Q.get, { id: crypto.randomUUID() }))).toBe("Report Form is not found");
    expect(message(await owner.gql<Data>(Q.get, { id: seeded["General Enquiry"] }))).toBe("Report Form is not found");
  });
});

describe("reportFormCreate and reportFormUpdate", () => {
  test("allowed: an owner creates a draft form with its first build, authored and audited", async () => {
    const created = await s.people.owner.gql<Data>(Q.create, { input: formInput("  Supplier Concerns  ", { theme: { nextButtonBackground: "#1A2B3C", sectionTitleBackground: "" }, allowedFileTypes: [".pdf", ".doc"] }) });
    const form = created.data?.reportFormCreate;
    expect(form).toMatchObject({ name: "Supplier Concerns", status: "Draft", publishState: "Unpublished", publicURL: null, locked: false, secured: false, organisationID: s.org.demo });
    expect(form.theme).toEqual({ nextButtonBackground: "#1A2B3C", sectionTitleBackground: null });
    expect(form.allowedFileTypes).toEqual([".doc", ".pdf"]);
    expect(form.currentBuild).toMatchObject({ revision: 1, author: { email: "owner@demo.test" } });
    const [radio, text] = form.currentBuild.widgets.slice(1);
    expect(text.condition.rules[0]).toMatchObject({ conditionWidgetID: radio.id, conditionAnswer: "Yes" });
    expect((await s.audit(form.id, "Create"))[0]).toMatchObject({ objectType: "ReportForm", organisationId: s.org.demo, metadata: { name: "Supplier Concerns", report_form_id: form.id } });
    expect(names(await s.people.admin.gql<Data>(Q.list, { s: "Supplier" }))).toEqual(["Supplier Concerns"]);
  });

  test("allowed: every save is a new build by its author; widget ids are kept, new ones made; older builds stay as they were", async () => {
    const form = (await s.people.owner.gql<Data>(Q.create, { input: formInput("Builds") })).data?.reportFormCreate;
    const kept = form.currentBuild.widgets.map((w: Data) => ({ id: w.id, type: w.type, title: w.title, answers: w.answers }));
    kept.push({ type: "ShortText", title: "Your team" });
    const saved = await s.people.admin.gql<Data>(Q.update, { id: form.id, input: { name: "Builds renamed", widgets: kept, baseRevision: 1 } });
    const build = saved.data?.reportFormUpdate.currentBuild;
    expect(saved.data?.reportFormUpdate.name).toBe("Builds renamed");
    expect(build).toMatchObject({ revision: 2, author: { email: "admin@demo.test" } });
    expect(build.widgets.slice(0, 3).map((w: Data) => w.id)).toEqual(form.currentBuild.widgets.map((w: Data) => w.id));
    expect(build.widgets[3].id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // The condition was dropped by this save, so the new build has none; the first build still has it.
    expect(build.widgets[2].condition).toBeNull();
    const builds = await s.server.db.select().from(reportFormBuilds).where(eq(reportFormBuilds.formId, form.id));
    expect(builds.map((b) => b.revision).sort()).toEqual([1, 2]);
    expect((await s.audit(form.id, "Update"))[0]).toMatchObject({ objectType: "ReportForm", metadata: { name: "Builds renamed" } });
  });

  test("allowed: a super admin creates a form in a named organisation; without one it is Required", async () => {
    const created = await s.people.superAdmin.gql<Data>(Q.create, { input: formInput("Platform made", { organisationID: s.org.northwind }) });
    expect(created.data?.reportFormCreate.organisation.slug).toBe("northwind");
    const missing = await s.people.superAdmin.gql<Data>(Q.create, { input: formInput("Nowhere") });
    expect([code(missing), message(missing)]).toEqual(["BAD_USER_INPUT", "Required"]);
  });

  test("denied: members, guests, anonymous callers cannot create or save; another organisation's form or organisation is not found", async () => {
    const { member, guest, anonymous, nwOwner, owner } = s.people;
    const before = await s.server.db.select().from(reportForms);
    expect(code(await member.gql<Data>(Q.create, { input: formInput("Member's") }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.create, { input: formInput("Guest's") }))).toBe("FORBIDDEN");
    expect(code(await anonymous.gql<Data>(Q.create, { input: formInput("Nobody's") }))).toBe("UNAUTHENTICATED");
    expect(code(await member.gql<Data>(Q.update, { id: seeded["Workplace Misconduct Report"], input: formInput("Taken") }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.update, { id: seeded["Workplace Misconduct Report"], input: formInput("Taken") }))).toBe("Report Form is not found");
    expect(message(await nwOwner.gql<Data>(Q.create, { input: formInput("Planted", { organisationID: s.org.demo }) }))).toBe("Organisation is not found");
    expect(message(await owner.gql<Data>(Q.update, { id: "../../etc", input: formInput("Taken") }))).toBe("Report Form is not found");
    expect(await s.server.db.select().from(reportForms)).toEqual(before);
  });
});

describe("reportFormArchive and reportFormUnarchive", () => {
  test("allowed: archiving moves a form to the Archived filter and out of the active forms count; unarchiving brings it back", async () => {
    const { owner, admin } = s.people;
    const usage = async () => (await owner.gql<Data>(Q.usage, { id: s.org.demo })).data?.organisation.usage.activeForms;
    const before = await usage();
    const id = seeded["Confidential Finance Concern"]!;
    expect((await owner.gql<Data>(Q.archive, { id })).data?.reportFormArchive.archived).toBe(true);
    expect(await usage()).toBe(before - 1);
    expect(names(await admin.gql<Data>(Q.list, { f: "Archived" }))).toEqual(["Confidential Finance Concern"]);
    expect(code(await owner.gql<Data>(Q.archive, { id }))).toBe("CONFLICT");
    expect((await admin.gql<Data>(Q.unarchive, { id })).data?.reportFormUnarchive.archived).toBe(false);
    expect(await usage()).toBe(before);
    expect((await s.audit(id, "Archive"))[0]).toMatchObject({ objectType: "ReportForm", metadata: { name: "Confidential Finance Concern", archived: true } });
  });

  test("denied: members, guests and other organisations cannot archive", async () => {
    const id = seeded["Workplace Misconduct Report"]!;
    expect(code(await s.people.member.gql<Data>(Q.archive, { id }))).toBe("FORBIDDEN");
    expect(code(await s.people.guest.gql<Data>(Q.unarchive, { id }))).toBe("FORBIDDEN");
    expect(message(await s.people.nwOwner.gql<Data>(Q.archive, { id }))).toBe("Report Form is not found");
    expect((await s.people.owner.gql<Data>(Q.get, { id })).data?.reportFormGet.archived).toBe(false);
  });
});
