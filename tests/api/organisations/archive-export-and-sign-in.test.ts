import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations, userActivities } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { linkIn, mailsTo } from "../../helpers/mail-links.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { anonymous, clientWithCookie, cookieFrom, loginAs, type StaffClient } from "../../helpers/session.ts";

/**
 * Archiving an organisation ends its staff's sessions on every instance before it answers; the
 * super admin's export of the list; and the email sign-in (magic link) a super admin turns on.
 * Two instances need one Postgres database; on PGlite the same promises are checked on one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;
let superAdmin: StaffClient;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
  superAdmin = await loginAs(first, "admin@lantern.test", DEMO_PASSWORD);
}, 60_000);
afterAll(() => pair.stop());

const VIEWER = "{ viewer { email } }";
const ARCHIVE = `mutation ($id: ID!) { organisationArchive(id: $id) { id archived } }`;
const UPDATE = `mutation ($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { id enableEmailAuth2FA } }`;

const viewerEmail = async (client: StaffClient) => (await client.gql<{ viewer: { email: string } | null }>(VIEWER)).data?.viewer?.email ?? null;

describe("archiving an organisation", () => {
  test("ends every session of its staff on every instance at once; the super admin's own stays", async () => {
    const organisation = await createOrganisation(first.db, { name: "Two Instance Org" });
    const owner = await createUser(first.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id });
    const member = await createUser(first.db, { role: "MEMBER", organisationId: organisation.id });
    const ownerHere = await loginAs(first, owner.email, owner.password);
    const memberThere = await loginAs(second, member.email, member.password);
    // Both sessions are cached on both instances before the archive.
    for (const client of [ownerHere, memberThere]) {
      expect(await viewerEmail(client)).not.toBeNull();
      expect(await viewerEmail(clientWithCookie(first, client.cookie))).not.toBeNull();
      expect(await viewerEmail(clientWithCookie(second, client.cookie))).not.toBeNull();
    }
    const archived = await superAdmin.gql<{ organisationArchive: { archived: boolean } }>(ARCHIVE, { id: organisation.id });
    expect(archived.data?.organisationArchive.archived).toBe(true);
    for (const client of [ownerHere, memberThere]) {
      expect(await viewerEmail(clientWithCookie(first, client.cookie))).toBeNull();
      expect(await viewerEmail(clientWithCookie(second, client.cookie))).toBeNull();
      expect(await (await clientWithCookie(second, client.cookie).fetch("/api/auth/check")).text()).toBe("unauthorised");
    }
    expect(await viewerEmail(superAdmin)).toBe("admin@lantern.test");
    // And the public page on the other instance answers as suspended at once.
    const page = await second.fetch("/", { host: `${organisation.slug}.localhost` });
    expect(await page.text()).toContain("Organisation was not found or is currently suspended.");
  });
});

describe("POST /api/admin/export/organisations", () => {
  const exportAs = (client: StaffClient, body: unknown, contentType = "application/json") =>
    client.fetch("/api/admin/export/organisations", { method: "POST", headers: { "Content-Type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });

  test("a super admin gets a CSV named organisations-export.csv, filtered, with formulas neutralised and no secrets", async () => {
    await createOrganisation(first.db, { name: "=HYPERLINK(\"http://evil.test\",\"click\")", loginCode: "SECRET-LOGIN-CODE" });
    await createOrganisation(first.db, { name: "Archived For Export", archived: true });
    const all = await exportAs(superAdmin, { search: "All" });
    expect(all.status).toBe(200);
    expect(all.headers.get("content-disposition")).toBe('attachment; filename="organisations-export.csv"');
    expect(all.headers.get("content-type")).toContain("text/csv");
    const text = await all.text();
    expect(text.split("\r\n")[0]).toContain("Name");
    expect(text).toContain("'=HYPERLINK");
    expect(text).not.toContain("SECRET-LOGIN-CODE");
    expect(text).toContain("Archived For Export");
    const active = await (await exportAs(superAdmin, { search: "Active" })).text();
    expect(active).not.toContain("Archived For Export");
    const archived = await (await exportAs(superAdmin, { search: "Archived" })).text();
    expect(archived).toContain("Archived For Export");
    expect(archived).not.toContain("'=HYPERLINK");
    const entries = await first.db.select().from(userActivities).where(eq(userActivities.action, "ExportOrganisations"));
    expect(entries.some((entry) => entry.objectType === "Organisation")).toBe(true);
  });

  test("denied to every other role and to anonymous callers; bad bodies are refused with a message", async () => {
    for (const email of ["owner@demo.test", "admin@demo.test", "member@demo.test", "guest@demo.test"]) {
      const client = await loginAs(first, email, DEMO_PASSWORD);
      expect((await exportAs(client, { search: "All" })).status).toBe(403);
    }
    expect((await exportAs(anonymous(first), { search: "All" })).status).toBe(401);
    const wrong = await exportAs(superAdmin, { search: "Everything" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()) as Record<string, unknown>).toMatchObject({ message: expect.stringContaining("search must be") });
    expect((await exportAs(superAdmin, "search=All", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await exportAs(superAdmin, { search: "A\u0000" })).status).toBe(400);
  });
});

describe("email sign-in turned on by the super admin", () => {
  test("after the toggle, a member's right password mails a link that signs them in", async () => {
    const organisation = await createOrganisation(first.db, { name: "Magic Link Org" });
    const member = await createUser(first.db, { role: "MEMBER", organisationId: organisation.id });
    const owner = await loginAs(first, (await createUser(first.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id })).email, "correct-horse-1");
    expect((await owner.gql(UPDATE, { id: organisation.id, input: { enableEmailAuth2FA: true } })).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // Changing how the organisation's accounts sign in needs the super admin's own password (decision 061).
    const unproven = await superAdmin.gql(UPDATE, { id: organisation.id, input: { enableEmailAuth2FA: true } });
    expect(unproven.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const toggled = await superAdmin.gql<{ organisationUpdate: { enableEmailAuth2FA: boolean } }>(UPDATE, { id: organisation.id, input: { enableEmailAuth2FA: true, ownPassword: DEMO_PASSWORD } });
    expect(toggled.data?.organisationUpdate.enableEmailAuth2FA).toBe(true);
    const [row] = await first.db.select().from(organisations).where(eq(organisations.id, organisation.id));
    expect(row!.enableEmailAuth2FA).toBe(true);

    const post = (path: string, body: unknown) => second.fetch(`/api/auth/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const login = await post("login", { email: member.email, password: member.password, verifyToken: "" });
    expect(await login.json()).toEqual({ emailVerifyRequired: true });
    expect(login.headers.getSetCookie()).toHaveLength(0);
    const mails = mailsTo(first.dataDir, member.email).concat(second === first ? [] : mailsTo(second.dataDir, member.email));
    const link = linkIn(mails.at(-1)!, "/admin/login-verify");
    const verified = await post("login_verify", { email: link.searchParams.get("email"), token: link.searchParams.get("token") });
    expect(verified.status).toBe(200);
    const client = clientWithCookie(first, `lantern_session=${cookieFrom(verified, "lantern_session")}`);
    expect(await viewerEmail(client)).toBe(member.email);
  });
});
