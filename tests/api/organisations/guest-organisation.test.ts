import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { loginAs } from "../../helpers/session.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";

// guestOrganisationGet and guestReportForms (spec document 1 §7): what the public organisation page shows, no more.
let server: TestServer;
let demoId: string;
let northwindId: string;

const GET = `query ($slug: String!) { guestOrganisationGet(slug: $slug) { id name slug logo { fileURL } fontFamily generalEnquiryEnabled generalEnquiryLabel portalWelcomeMessageEnabled showLogoOnReportForms } }`;
const FORMS = `query ($id: ID!) { guestReportForms(filter: { organisationID: $id }) { total list { id name } } }`;
const UNAVAILABLE = "Organisation was not found or is currently suspended.";

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const idOf = async (slug: string) => (await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, slug)))[0]!.id;
  demoId = await idOf("demo");
  northwindId = await idOf("northwind");
});
afterAll(() => server.stop());

describe("guestOrganisationGet", () => {
  test("an active organisation by its slug, on its own host and on the product's", async () => {
    for (const host of ["demo.localhost", "localhost"]) {
      const answer = await new ReporterClient(server, host).gql<{ guestOrganisationGet: { id: string; name: string; slug: string } }>(GET, { slug: "demo" });
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.guestOrganisationGet).toMatchObject({ id: demoId, slug: "demo" });
    }
  });

  test("another organisation's slug on an organisation's host, an unknown slug and hostile text all answer the spec's not-found message", async () => {
    for (const [host, slug] of [["demo.localhost", "northwind"], ["localhost", "no-such-place"], ["localhost", "demo\u0000"], ["localhost", "x".repeat(5000)], ["localhost", "DEMO' OR 1=1 --"]] as const) {
      const answer = await new ReporterClient(server, host).gql(GET, { slug });
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toBeDefined();
      if (!slug.includes("\u0000") && slug.length < 1000) expect(answer.errors![0]!.message).toBe(UNAVAILABLE);
    }
  });

  test("an archived organisation is not found, at once, and is back when unarchived", async () => {
    const admin = await loginAs(server, "admin@lantern.test", DEMO_PASSWORD);
    expect((await new ReporterClient(server, "localhost").gql(GET, { slug: "northwind" })).errors).toBeUndefined();
    expect((await admin.gql(`mutation ($id: ID!) { organisationArchive(id: $id) { id } }`, { id: northwindId })).errors).toBeUndefined();
    try {
      const answer = await new ReporterClient(server, "localhost").gql(GET, { slug: "northwind" });
      expect(answer.errors?.[0]?.message).toBe(UNAVAILABLE);
    } finally {
      expect((await admin.gql(`mutation ($id: ID!) { organisationUnarchive(id: $id) { id } }`, { id: northwindId })).errors).toBeUndefined();
    }
    expect((await new ReporterClient(server, "localhost").gql(GET, { slug: "northwind" })).errors).toBeUndefined();
  });
});

describe("guestReportForms", () => {
  test("the organisation's published forms by name, the same list its page shows", async () => {
    const answer = await new ReporterClient(server, "demo.localhost").gql<{ guestReportForms: { total: number; list: { id: string; name: string }[] } }>(FORMS, { id: demoId });
    expect(answer.errors).toBeUndefined();
    const names = answer.data!.guestReportForms.list.map((form) => form.name);
    expect(names).toContain("Workplace Misconduct Report");
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(answer.data!.guestReportForms.total).toBe(names.length);
    const page = await (await new ReporterClient(server, "demo.localhost").fetch("/")).text();
    for (const name of names) expect(page).toContain(name);
  });

  test("another organisation's id on an organisation's host, and malformed ids, are not found", async () => {
    for (const id of [northwindId, "not-an-id", "00000000-0000-0000-0000-000000000000"]) {
      const answer = await new ReporterClient(server, "demo.localhost").gql(FORMS, { id });
      expect(answer.errors?.[0]?.message).toBe(UNAVAILABLE);
    }
    const fromProductHost = await new ReporterClient(server, "localhost").gql<{ guestReportForms: { total: number } }>(FORMS, { id: northwindId });
    expect(fromProductHost.errors).toBeUndefined();
  });
});
