import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { blobs, organisations, userActivities } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import * as files from "../../fixtures/files.ts";

/**
 * The super admin's Organisations (spec §2, §7): create, the list with its filter and sort, the
 * detail with usage and seats, archive and unarchive, the logo, and the settings each role may change.
 */
let server: TestServer;
let home: { id: string; slug: string };
let other: { id: string };
const as = {} as Record<"owner" | "admin" | "member" | "guest" | "superAdmin", StaffClient>;

beforeAll(async () => {
  server = await startTestServer();
  home = await createOrganisation(server.db, { name: "Home Org" });
  other = await createOrganisation(server.db, { name: "Other Org" });
  const make = async (role: Parameters<typeof createUser>[1]["role"], organisationId: string | null) => {
    const user = await createUser(server.db, { role, organisationId });
    return loginAs(server, user.email, user.password);
  };
  as.owner = await make("ORGANISATION_OWNER", home.id);
  as.admin = await make("ORGANISATION_ADMIN", home.id);
  as.member = await make("MEMBER", home.id);
  as.guest = await make("GUEST_MEMBER", home.id);
  as.superAdmin = await make("SUPER_ADMIN", null);
}, 60_000);
afterAll(() => server.stop());

const FIELDS = "id name abn slug archived publicURL openSeatNumber fontFamily logo { fileURL } logoBlobID usage { activeUsers activeForms activeSubscribers }";
const CREATE = `mutation ($input: OrganisationCreateInput!) { organisationCreate(input: $input) { ${FIELDS} } }`;
const LIST = `query ($search: String, $filter: ListFilter, $sortBy: OrganisationSortKey, $sortDir: SortDirection, $limit: Int, $offset: Int) {
  organisations(search: $search, filter: $filter, sortBy: $sortBy, sortDir: $sortDir, limit: $limit, offset: $offset) { total list { id name archived } } }`;
const DETAIL = `query ($id: ID!) { organisation(id: $id) { ${FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { ${FIELDS} portalWelcomeMessageContent enableEmailAuth2FA enableSSO enableFormTranslations logoWidthPixels logoPaddingPixels } }`;
const ARCHIVE = `mutation ($id: ID!) { organisationArchive(id: $id) { id archived } }`;
const UNARCHIVE = `mutation ($id: ID!) { organisationUnarchive(id: $id) { id archived } }`;
const LOGO = `mutation ($id: ID!, $file: File!) { organisationUpdateLogo(id: $id, file: $file) { id logo { fileURL } logoBlobID } }`;

type Result = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
const codeOf = (result: Result) => result.errors?.[0]?.extensions?.code;
const messageOf = (result: Result) => result.errors?.[0]?.message;

async function uploadLogo(client: StaffClient, id: string, name: string, data: Uint8Array<ArrayBuffer> | string): Promise<Result> {
  const body = new FormData();
  body.append("operations", JSON.stringify({ query: LOGO, variables: { id, file: null } }));
  body.append("map", JSON.stringify({ 0: ["variables.file"] }));
  body.append("0", new Blob([data], { type: "image/png" }), name);
  const response = await client.fetch("/api/gql/query", { method: "POST", body });
  return (await response.json()) as Result;
}

describe("organisationCreate", () => {
  test("allowed: a super admin creates one; its slug comes from the name, unique, never a reserved subdomain", async () => {
    const first = await as.superAdmin.gql<any>(CREATE, { input: { name: "Acme Pty Ltd", abn: "12 345 678 901" } });
    expect(first.errors).toBeUndefined();
    expect(first.data?.organisationCreate).toMatchObject({ name: "Acme Pty Ltd", abn: "12 345 678 901", slug: "acme-pty-ltd", archived: false, fontFamily: "Helvetica" });
    expect(first.data?.organisationCreate.publicURL).toMatch(/^http:\/\/acme-pty-ltd\.localhost(:\d+)?\/$/);
    const again = await as.superAdmin.gql<any>(CREATE, { input: { name: "ACME pty. ltd!", abn: "1" } });
    expect(again.data?.organisationCreate.slug).toBe("acme-pty-ltd-2");
    for (const reserved of ["App", "login", "Lantern"]) {
      const made = await as.superAdmin.gql<any>(CREATE, { input: { name: reserved, abn: "1" } });
      expect(made.data?.organisationCreate.slug).toBe(`${reserved.toLowerCase()}-2`);
    }
    const symbols = await as.superAdmin.gql<any>(CREATE, { input: { name: "★★★", abn: "1" } });
    expect(symbols.data?.organisationCreate.slug).toMatch(/^organisation(-\d+)?$/);
    const [entry] = await server.db
      .select()
      .from(userActivities)
      .where(and(eq(userActivities.objectId, first.data!.organisationCreate.id), eq(userActivities.action, "CreateOrganisation")));
    expect(entry?.metadata).toMatchObject({ name: "Acme Pty Ltd" });
  });

  test("denied: every other role, and anonymous callers; nothing is created", async () => {
    const before = (await server.db.select().from(organisations)).length;
    for (const client of [as.owner, as.admin, as.member, as.guest]) {
      expect(codeOf(await client.gql<any>(CREATE, { input: { name: "Sneaky", abn: "1" } }))).toBe("FORBIDDEN");
    }
    expect(codeOf(await anonymous(server).gql<any>(CREATE, { input: { name: "Sneaky", abn: "1" } }))).toBe("UNAUTHENTICATED");
    expect((await server.db.select().from(organisations)).length).toBe(before);
  });

  test("bad input: name and ABN are required; NUL bytes, 1 MB strings and wrong types are refused with a message", async () => {
    const before = (await server.db.select().from(organisations)).length;
    expect(messageOf(await as.superAdmin.gql<any>(CREATE, { input: { name: "   ", abn: "1" } }))).toBe("Required");
    expect(messageOf(await as.superAdmin.gql<any>(CREATE, { input: { name: "Fine", abn: "" } }))).toBe("Required");
    expect(codeOf(await as.superAdmin.gql<any>(CREATE, { input: { name: "a\u0000b", abn: "1" } }))).toBe("BAD_USER_INPUT");
    expect(codeOf(await as.superAdmin.gql<any>(CREATE, { input: { name: "x".repeat(1_000_000), abn: "1" } }))).toBe("BAD_USER_INPUT");
    const wrongType = await as.superAdmin.gql<any>(CREATE, { input: { name: 5, abn: "1" } });
    expect(wrongType.errors?.length).toBeGreaterThan(0);
    expect(wrongType.data ?? null).toBeNull();
    expect((await server.db.select().from(organisations)).length).toBe(before);
  });
});

describe("organisations (the management list)", () => {
  test("a super admin filters Active / Archived / All, searches and sorts by Name or Created At", async () => {
    const archived = await createOrganisation(server.db, { name: "Zulu Archived Org", archived: true });
    const names = async (variables: Record<string, unknown>) =>
      ((await as.superAdmin.gql<any>(LIST, { limit: 100, ...variables })).data?.organisations.list as { name: string }[]).map((row) => row.name);
    expect(await names({ filter: "Archived" })).toContain("Zulu Archived Org");
    expect(await names({ filter: "Active" })).not.toContain("Zulu Archived Org");
    expect(await names({ filter: "All" })).toContain("Zulu Archived Org");
    expect(await names({ search: "zulu" })).toEqual(["Zulu Archived Org"]);
    const byName = await names({ search: "org", filter: "All", sortBy: "Name", sortDir: "Descending" });
    expect(byName[0]).toBe("Zulu Archived Org");
    const byCreated = await names({ filter: "All", sortBy: "CreatedAt", sortDir: "Descending" });
    expect(byCreated[0]).toBe("Zulu Archived Org");
    expect(archived.id).toBeTruthy();
  });

  test("anyone else sees only the organisations they are a guest of, whatever filter they send", async () => {
    const answer = await as.owner.gql<any>(LIST, { filter: "All" });
    expect(answer.data?.organisations).toEqual({ total: 0, list: [] });
    expect((await as.superAdmin.gql<any>(LIST, { filter: "Deleted" })).errors?.length).toBeGreaterThan(0);
  });
});

describe("organisation (detail)", () => {
  test("usage counts active users as the seat rule does, with the open seats", async () => {
    const answer = await as.superAdmin.gql<any>(DETAIL, { id: home.id });
    expect(answer.data?.organisation.usage).toEqual({ activeUsers: 4, activeForms: 0, activeSubscribers: 0 });
    expect(answer.data?.organisation.openSeatNumber).toBe(10);
  });

  test("owner, admin and member read their own; another organisation's id is not found", async () => {
    for (const client of [as.owner, as.admin, as.member]) {
      expect((await client.gql<any>(DETAIL, { id: home.id })).data?.organisation.id).toBe(home.id);
      expect(messageOf(await client.gql<any>(DETAIL, { id: other.id }))).toBe("Organisation is not found");
    }
    expect(messageOf(await as.superAdmin.gql<any>(DETAIL, { id: "not-a-uuid" }))).toBe("Organisation is not found");
  });
});

describe("organisationUpdate: the settings of spec §3 and who may change each", () => {
  test("owner and admin change the organisation's own settings; the font reads as the spec names it", async () => {
    for (const client of [as.owner, as.admin]) {
      const answer = await client.gql<any>(UPDATE, {
        id: home.id,
        input: { fontFamily: "Montserrat", logoWidthPixels: 250, logoPaddingPixels: 25, portalWelcomeMessageEnabled: true, portalWelcomeMessageContent: "<p>Hi <script>alert(1)</script><strong>there</strong></p>" },
      });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.organisationUpdate).toMatchObject({ fontFamily: "Montserrat", logoWidthPixels: 250, logoPaddingPixels: 25 });
      expect(answer.data?.organisationUpdate.portalWelcomeMessageContent).not.toContain("script");
      expect(answer.data?.organisationUpdate.portalWelcomeMessageContent).toContain("<strong>there</strong>");
    }
    expect((await as.owner.gql<any>(UPDATE, { id: home.id, input: { fontFamily: "Helvetica" } })).data?.organisationUpdate.fontFamily).toBe("Helvetica");
  });

  test("name, seats, email 2FA, SSO and form translations are the super admin's", async () => {
    const superOnly = [{ name: "Renamed" }, { openSeatNumber: 50 }, { enableEmailAuth2FA: true }, { enableSSO: true }, { enableFormTranslations: true }];
    for (const input of superOnly) {
      for (const client of [as.owner, as.admin]) expect(codeOf(await client.gql<any>(UPDATE, { id: home.id, input }))).toBe("FORBIDDEN");
    }
    const [row] = await server.db.select().from(organisations).where(eq(organisations.id, home.id));
    expect(row).toMatchObject({ name: "Home Org", openSeatNumber: 10, enableEmailAuth2FA: false, enableSSO: false, enableFormTranslations: false });
    const answer = await as.superAdmin.gql<any>(UPDATE, { id: home.id, input: { openSeatNumber: 12, enableFormTranslations: true, enableSSO: false } });
    expect(answer.data?.organisationUpdate).toMatchObject({ openSeatNumber: 12, enableFormTranslations: true });
  });

  test("a member reads the settings but changes none; nobody reaches another organisation", async () => {
    expect(codeOf(await as.member.gql<any>(UPDATE, { id: home.id, input: { fontFamily: "Roboto" } }))).toBe("FORBIDDEN");
    expect(codeOf(await as.guest.gql<any>(UPDATE, { id: home.id, input: { fontFamily: "Roboto" } }))).toBe("FORBIDDEN");
    expect(messageOf(await as.owner.gql<any>(UPDATE, { id: other.id, input: { fontFamily: "Roboto" } }))).toBe("Organisation is not found");
  });

  test("bad values: the interval's two errors, logo sliders out of range, unknown font; nothing changes", async () => {
    expect(messageOf(await as.owner.gql<any>(UPDATE, { id: home.id, input: { staleMessageIntervalNumber: 0 } }))).toBe("Interval Number must be greater than 0");
    expect(messageOf(await as.owner.gql<any>(UPDATE, { id: home.id, input: { staleMessageIntervalNumber: -3 } }))).toBe("Interval Number must be greater than 0");
    expect(messageOf(await as.owner.gql<any>(UPDATE, { id: home.id, input: { staleMessageIntervalNumber: "abc" } }))).toBeDefined();
    for (const input of [{ logoWidthPixels: 49 }, { logoWidthPixels: 251 }, { logoPaddingPixels: 9 }, { logoPaddingPixels: 26 }]) {
      expect(codeOf(await as.owner.gql<any>(UPDATE, { id: home.id, input }))).toBe("BAD_USER_INPUT");
    }
    expect((await as.owner.gql<any>(UPDATE, { id: home.id, input: { fontFamily: "Comic" } })).errors?.length).toBeGreaterThan(0);
    expect(codeOf(await as.owner.gql<any>(UPDATE, { id: home.id, input: { generalEnquiryLabel: "a\u0000" } }))).toBe("BAD_USER_INPUT");
    expect(codeOf(await as.owner.gql<any>(UPDATE, { id: home.id, input: { portalWelcomeMessageContent: "x".repeat(1_000_000) } }))).toBe("BAD_USER_INPUT");
    const [row] = await server.db.select().from(organisations).where(eq(organisations.id, home.id));
    expect(row!.staleMessageIntervalNumber).toBe(7);
    expect(row!.logoWidthPixels).toBe(250);
  });
});

describe("organisationUpdateLogo and logoBlobID '-'", () => {
  test("owner uploads a jpg: metadata stripped, shown publicly; '-' removes it and its bytes", async () => {
    const answer = await uploadLogo(as.owner, home.id, "our logo.jpg", files.jpegWithMetadata());
    expect(answer.errors).toBeUndefined();
    const { logo, logoBlobID } = answer.data!.organisationUpdateLogo;
    expect(logo.fileURL).toBe(`/api/files/organisation-logo/${home.id}`);
    const served = await server.fetch(logo.fileURL);
    expect(served.status).toBe(200);
    expect(files.containsText(new Uint8Array(await served.arrayBuffer()), "GPS")).toBe(false);
    const kept = await as.owner.gql<any>(UPDATE, { id: home.id, input: { logoBlobID } });
    expect(kept.errors).toBeUndefined();
    expect(kept.data?.organisationUpdate.logoBlobID).toBe(logoBlobID);
    const foreign = await as.owner.gql<any>(UPDATE, { id: home.id, input: { logoBlobID: crypto.randomUUID() } });
    expect(messageOf(foreign)).toBe("Upload Failed");
    const removed = await as.owner.gql<any>(UPDATE, { id: home.id, input: { logoBlobID: "-" } });
    expect(removed.data?.organisationUpdate.logo).toBeNull();
    expect(await server.db.select().from(blobs).where(eq(blobs.id, logoBlobID))).toHaveLength(0);
    expect((await server.fetch(logo.fileURL)).status).toBe(404);
  });

  test("refused: other files, other roles, other organisations; nothing is stored", async () => {
    const before = (await server.db.select().from(blobs)).length;
    expect(codeOf(await uploadLogo(as.owner, home.id, "logo.gif", files.gifWithComment()))).toBe("BAD_USER_INPUT");
    expect(codeOf(await uploadLogo(as.owner, home.id, "logo.png", files.plainJpeg()))).toBe("BAD_USER_INPUT");
    expect(codeOf(await uploadLogo(as.owner, home.id, "logo.png", "not an image"))).toBe("BAD_USER_INPUT");
    expect(codeOf(await uploadLogo(as.member, home.id, "logo.png", files.pngWithText()))).toBe("FORBIDDEN");
    expect(messageOf(await as.owner.gql(`mutation ($id: ID!) { organisationUpdateLogo(id: $id) { id } }`, { id: home.id }))).toBe("Upload Failed");
    expect(messageOf(await uploadLogo(as.owner, other.id, "logo.png", files.pngWithText()))).toBe("Organisation is not found");
    const tooLarge = new Uint8Array(10_000_000);
    tooLarge.set(files.plainJpeg());
    expect(codeOf(await uploadLogo(as.superAdmin, home.id, "big.jpg", tooLarge))).toBe("BAD_USER_INPUT");
    expect((await server.db.select().from(blobs)).length).toBe(before);
  });
});

describe("organisationArchive / organisationUnarchive", () => {
  test("denied for every role but the super admin, and for anonymous callers", async () => {
    for (const client of [as.owner, as.admin, as.member, as.guest]) {
      expect(codeOf(await client.gql<any>(ARCHIVE, { id: home.id }))).toBe("FORBIDDEN");
      expect(codeOf(await client.gql<any>(UNARCHIVE, { id: home.id }))).toBe("FORBIDDEN");
    }
    expect(codeOf(await anonymous(server).gql<any>(ARCHIVE, { id: home.id }))).toBe("UNAUTHENTICATED");
    expect(messageOf(await as.superAdmin.gql<any>(ARCHIVE, { id: crypto.randomUUID() }))).toBe("Organisation is not found");
  });

  test("archived: the public page says it is suspended, its staff are signed out and cannot sign in; unarchived: open again", async () => {
    const organisation = await createOrganisation(server.db, { name: "Closing Down" });
    const owner = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id });
    const client = await loginAs(server, owner.email, owner.password);
    expect((await client.gql<any>("{ viewer { email } }")).data?.viewer.email).toBe(owner.email);
    const archived = await as.superAdmin.gql<any>(ARCHIVE, { id: organisation.id });
    expect(archived.data?.organisationArchive.archived).toBe(true);
    expect((await client.gql<any>("{ viewer { email } }")).data?.viewer ?? null).toBeNull();
    const page = await server.fetch("/", { host: `${organisation.slug}.localhost` });
    expect(await page.text()).toContain("Organisation was not found or is currently suspended.");
    const login = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: owner.email, password: owner.password, verifyToken: "" }) });
    expect(login.status).not.toBe(200);
    const unarchived = await as.superAdmin.gql<any>(UNARCHIVE, { id: organisation.id });
    expect(unarchived.data?.organisationUnarchive.archived).toBe(false);
    expect(await (await server.fetch("/", { host: `${organisation.slug}.localhost` })).text()).toContain("Closing Down");
    const again = await loginAs(server, owner.email, owner.password);
    expect((await again.gql<any>("{ viewer { email } }")).data?.viewer.email).toBe(owner.email);
    const entries = await server.db.select({ action: userActivities.action }).from(userActivities).where(eq(userActivities.objectId, organisation.id));
    expect(entries.map((entry) => entry.action).sort()).toEqual(["Archive", "Unarchive"]);
  });
});
