import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { backgroundJobs, organisationEmailSubscribers, organisations, reportNotices, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { NEW_REPORT_SUBJECT } from "../../../api/modules/notifications/notifier.ts";
import { SUBSCRIBER_EXISTS } from "../../../api/modules/subscribers/service.ts";
import { ORGANISATION_UNAVAILABLE } from "../../../api/shared/messages.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let owner: StaffClient, admin: StaffClient, member: StaffClient, guest: StaffClient, nwOwner: StaffClient, superAdmin: StaffClient;
let demoId: string, northwindId: string;

// Results are checked by shape; `any` keeps each assertion to one line.
type Data = Record<string, any>;
type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };
const FIELDS = `id organisationID firstName lastName email createdAt updatedAt`;
const Q = {
  list: `query ($o: ID) { organisationEmailSubscribers(organisationID: $o) { total list { ${FIELDS} } } }`,
  create: `mutation ($o: ID, $input: OrganisationEmailSubscriberInput!) { organisationEmailSubscriberCreate(organisationID: $o, input: $input) { ${FIELDS} } }`,
  remove: `mutation ($id: ID!) { organisationEmailSubscriberDelete(id: $id) { ${FIELDS} } }`,
};
const message = (result: Result) => result.errors?.[0]?.message;
const code = (result: Result) => result.errors?.[0]?.extensions?.code;
const person = (email: string) => ({ firstName: "Case", lastName: "Desk", email });
const subscribersOf = (organisationId: string) => server.db.select().from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, organisationId));
const entries = (action: string, organisationId: string) =>
  server.db.select().from(userActivities).where(and(eq(userActivities.action, action), eq(userActivities.organisationId, organisationId)));
const clear = () => server.db.delete(organisationEmailSubscribers).where(inArray(organisationEmailSubscribers.organisationId, [demoId, northwindId]));

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  await seedDemo(server.db);
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  [owner, admin, member, guest, nwOwner, superAdmin] = await Promise.all([
    login("owner@demo.test"), login("admin@demo.test"), login("member@demo.test"), login("guest@demo.test"), login("owner@northwind.test"), login("admin@lantern.test"),
  ]);
  const rows = await server.db.select().from(organisations);
  demoId = rows.find((row) => row.slug === "demo")!.id;
  northwindId = rows.find((row) => row.slug === "northwind")!.id;
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

describe("organisationEmailSubscriberCreate and organisationEmailSubscribers", () => {
  test("allowed: an owner adds the one subscriber, trimmed and lower-cased, audited; the list shows it", async () => {
    await clear();
    const created = await owner.gql<Data>(Q.create, { input: { firstName: " Case ", lastName: "Desk", email: " Cases@Demo.test " } });
    expect(created.data?.organisationEmailSubscriberCreate).toMatchObject({ organisationID: demoId, firstName: "Case", lastName: "Desk", email: "cases@demo.test" });
    const id = created.data?.organisationEmailSubscriberCreate.id;
    const listed = await owner.gql<Data>(Q.list, {});
    expect(listed.data?.organisationEmailSubscribers.total).toBe(1);
    expect(listed.data?.organisationEmailSubscribers.list[0].id).toBe(id);
    const [entry] = await entries("CreateEmailSubscriber", demoId);
    expect(entry).toMatchObject({ objectType: "Organisation", objectId: demoId, metadata: { subscriber_id: id, first_name: "Case", last_name: "Desk", email: "cases@demo.test" } });
  });

  test("allowed: an admin and a super admin inside the organisation; the super admin lists any organisation's", async () => {
    await clear();
    expect((await admin.gql<Data>(Q.create, { input: person("admin-made@demo.test") })).data?.organisationEmailSubscriberCreate.email).toBe("admin-made@demo.test");
    expect((await superAdmin.gql<Data>(Q.create, { o: northwindId, input: person("desk@northwind.test") })).data?.organisationEmailSubscriberCreate.organisationID).toBe(northwindId);
    expect((await admin.gql<Data>(Q.list, {})).data?.organisationEmailSubscribers.list.map((s: { email: string }) => s.email)).toEqual(["admin-made@demo.test"]);
    expect((await superAdmin.gql<Data>(Q.list, { o: northwindId })).data?.organisationEmailSubscribers.list.map((s: { email: string }) => s.email)).toEqual(["desk@northwind.test"]);
    expect((await superAdmin.gql<Data>(Q.list, {})).data?.organisationEmailSubscribers.total).toBe(2);
    // Outside any organisation there is nowhere to add one.
    expect(message(await superAdmin.gql<Data>(Q.create, { input: person("nowhere@example.test") }))).toBe("Required");
  });

  test("one per organisation: a second create, or two at once, answers a clear conflict and writes nothing", async () => {
    await clear();
    const both = await Promise.all([owner.gql<Data>(Q.create, { input: person("first@demo.test") }), admin.gql<Data>(Q.create, { input: person("second@demo.test") })]);
    expect(both.filter((result) => result.data?.organisationEmailSubscriberCreate).length).toBe(1);
    const refused = both.find((result) => result.errors)!;
    expect(message(refused)).toBe(SUBSCRIBER_EXISTS);
    expect(code(refused)).toBe("CONFLICT");
    expect(message(await owner.gql<Data>(Q.create, { input: person("third@demo.test") }))).toBe(SUBSCRIBER_EXISTS);
    expect(await subscribersOf(demoId)).toHaveLength(1);
  });

  test("bad input: every field 'Required', a bad address refused, nothing written", async () => {
    await clear();
    const blank = await owner.gql<Data>(Q.create, { input: { firstName: "  ", lastName: "", email: "" } });
    expect(message(blank)).toBe("Required");
    expect(code(blank)).toBe("BAD_USER_INPUT");
    expect(message(await owner.gql<Data>(Q.create, { input: {} }))).toBe("Required");
    expect(message(await owner.gql<Data>(Q.create, { input: person("not-an-address") }))).toBe("Invalid email address");
    expect(code(await owner.gql<Data>(Q.create, { input: { ...person("a@demo.test"), firstName: "x".repeat(1_000_000) } }))).toBe("BAD_USER_INPUT");
    expect(code(await owner.gql<Data>(Q.create, { input: { ...person("a@demo.test"), lastName: "Desk\u0000" } }))).toBe("BAD_USER_INPUT");
    expect(await subscribersOf(demoId)).toEqual([]);
  });

  test("denied: members and guests are refused; another organisation is not found; nothing is written", async () => {
    await clear();
    expect(code(await member.gql<Data>(Q.list, {}))).toBe("FORBIDDEN");
    expect(code(await member.gql<Data>(Q.create, { input: person("member@example.test") }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.list, {}))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.create, { input: person("guest@example.test") }))).toBe("FORBIDDEN");
    expect(code(await anonymous(server).gql<Data>(Q.list, {}))).toBe("UNAUTHENTICATED");
    expect(message(await nwOwner.gql<Data>(Q.list, { o: demoId }))).toBe("Organisation is not found");
    expect(message(await nwOwner.gql<Data>(Q.create, { o: demoId, input: person("planted@example.test") }))).toBe("Organisation is not found");
    expect(message(await superAdmin.gql<Data>(Q.create, { o: crypto.randomUUID(), input: person("planted@example.test") }))).toBe("Organisation is not found");
    expect(await subscribersOf(demoId)).toEqual([]);
    expect(await subscribersOf(northwindId)).toEqual([]);
  });

  test("denied: an archived organisation takes no new subscriber", async () => {
    await clear();
    await updateOrganisations(server, eq(organisations.id, northwindId), { archived: true });
    try {
      const refused = await superAdmin.gql<Data>(Q.create, { o: northwindId, input: person("late@northwind.test") });
      expect(message(refused)).toBe(ORGANISATION_UNAVAILABLE);
      expect(await subscribersOf(northwindId)).toEqual([]);
    } finally {
      await updateOrganisations(server, eq(organisations.id, northwindId), { archived: false });
    }
  });
});

describe("organisationEmailSubscriberDelete", () => {
  test("allowed: owner, admin and super admin delete, audited; the create control's condition returns", async () => {
    for (const actor of [owner, admin, superAdmin]) {
      await clear();
      const { id } = (await owner.gql<Data>(Q.create, { input: person("desk@demo.test") })).data?.organisationEmailSubscriberCreate;
      expect((await actor.gql<Data>(Q.remove, { id })).data?.organisationEmailSubscriberDelete.id).toBe(id);
      expect((await owner.gql<Data>(Q.list, {})).data?.organisationEmailSubscribers.total).toBe(0);
    }
    const deletions = await entries("DeleteEmailSubscriber", demoId);
    expect(deletions.length).toBeGreaterThanOrEqual(3);
    expect(deletions[0]).toMatchObject({ objectType: "Organisation", objectId: demoId, metadata: { email: "desk@demo.test" } });
  });

  test("denied: members, guests, another organisation's owner and unknown ids; the subscriber stays", async () => {
    await clear();
    const { id } = (await owner.gql<Data>(Q.create, { input: person("desk@demo.test") })).data?.organisationEmailSubscriberCreate;
    expect(code(await member.gql<Data>(Q.remove, { id }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.remove, { id }))).toBe("FORBIDDEN");
    expect(message(await nwOwner.gql<Data>(Q.remove, { id }))).toBe("Subscriber is not found");
    expect(message(await owner.gql<Data>(Q.remove, { id: "not-a-uuid" }))).toBe("Subscriber is not found");
    expect(message(await owner.gql<Data>(Q.remove, { id: crypto.randomUUID() }))).toBe("Subscriber is not found");
    expect(await subscribersOf(demoId)).toHaveLength(1);
  });
});

describe("the new-report mail follows the subscriber the console sets", () => {
  const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address));
  /** Waits for `count` mails to `address`, then a little longer so a duplicate would have arrived. */
  async function expectMails(address: string, count: number) {
    const deadline = Date.now() + 5000;
    while (mailsTo(address).length < count && Date.now() < deadline) await Bun.sleep(20);
    await Bun.sleep(300);
    expect(mailsTo(address).length).toBe(count);
    return mailsTo(address);
  }
  const SECRET = "The warehouse lead sold pallets on the side";

  test("a subscriber created through the mutation gets one mail with a link and no report text; after delete, none", async () => {
    await clear();
    const address = "notices@demo.test";
    const { id } = (await owner.gql<Data>(Q.create, { input: person(address) })).data?.organisationEmailSubscriberCreate;
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets, { w_summary: [SECRET] });
    const [mail] = await expectMails(address, 1);
    expect(mail!.raw).toContain(`Subject: ${NEW_REPORT_SUBJECT}`);
    expect(mail!.raw).toContain("/admin/manage/reports/overview/");
    expect(mail!.raw).not.toContain("pallets");
    expect(mail!.raw).not.toContain(credentials.reportID);

    expect((await owner.gql<Data>(Q.remove, { id })).errors).toBeUndefined();
    const total = smtp.messages.length;
    const later = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets, { w_summary: [SECRET] });
    // With nobody to tell, the completion queues no mail job at all, and leaves no notice behind.
    const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, later.reportID));
    expect(await server.db.select().from(backgroundJobs).where(eq(backgroundJobs.subjectId, report!.id))).toEqual([]);
    expect(await server.db.select().from(reportNotices).where(eq(reportNotices.submissionId, report!.id))).toEqual([]);
    await Bun.sleep(300);
    expect(mailsTo(address)).toHaveLength(1);
    expect(smtp.messages.length).toBe(total);
  });
});
