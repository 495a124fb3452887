import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { createUser } from "../../factories/users.ts";
import { linkIn, mailsTo } from "../../helpers/mail-links.ts";

let server: TestServer;
let demoId: string;

const CHANGE_DETAILS = `mutation ($input: ChangeDetailsInput!) {
  changeDetails(input: $input) { id firstName lastName email verified twoFactorAuthenticationActivated avatar { fileURL } } }`;

type Answer = { data?: { changeDetails: { id: string; firstName: string; lastName: string; email: string; verified: boolean } } | null; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] };

/** A fresh Demo member, signed in: each test changes its own account. */
async function freshMember(email?: string) {
  const user = await createUser(server.db, { role: "MEMBER", organisationId: demoId, ...(email ? { email } : {}) });
  return { user, client: await loginAs(server, user.email, user.password) };
}

const rowOf = async (id: string) => (await server.db.select().from(users).where(eq(users.id, id)))[0]!;
const auditOf = (id: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, "ChangeDetails")));
const change = (client: StaffClient | ReporterClient, input: Record<string, unknown>) => client.gql(CHANGE_DETAILS, { input }) as Promise<Answer>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  ({ demoId } = await demoOrganisationIds(server));
});
afterAll(() => server.stop());

describe("changeDetails: allowed", () => {
  test("a member saves their own trimmed name; the viewer shows it and the audit log records it as Self", async () => {
    const { user, client } = await freshMember();
    const answer = await change(client, { firstName: "  Ada ", lastName: " Lovelace  ", email: user.email, twoFactorAuthenticationActivated: false });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.changeDetails).toMatchObject({ id: user.id, firstName: "Ada", lastName: "Lovelace", email: user.email, verified: true });
    const viewer = await client.gql<{ viewer: { firstName: string; lastName: string } }>(`{ viewer { firstName lastName } }`);
    expect(viewer.data?.viewer).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    const [entry] = await auditOf(user.id);
    expect(entry).toMatchObject({ userId: user.id, organisationId: demoId, objectType: "Self", metadata: { first_name: "Ada", last_name: "Lovelace", email_change_requested: false } });
  });

  test("every staff role may change their own details, the super admin included", async () => {
    for (const email of ["owner@demo.test", "guest@demo.test", "admin@lantern.test"]) {
      const client = await loginAs(server, email, DEMO_PASSWORD);
      const answer = await change(client, { lastName: "Renamed" });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.changeDetails).toMatchObject({ email, lastName: "Renamed" });
    }
  });

  test("a new email is stored lower-cased, waits for its link, and then signs in instead of the old one", async () => {
    const { user, client } = await freshMember();
    const answer = await change(client, { email: "  New.Address@Example.TEST ", password: user.password });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.changeDetails).toMatchObject({ email: user.email, verified: true });
    expect((await client.gql<{ viewer: { pendingEmail: string } }>("{ viewer { pendingEmail } }")).data?.viewer.pendingEmail).toBe("new.address@example.test");
    expect((await auditOf(user.id))[0]?.metadata).toMatchObject({ email_change_requested: true });
    const link = linkIn(mailsTo(server.dataDir, "new.address@example.test").at(-1)!, "/admin/confirm-email/");
    const confirmed = await anonymous(server).gql(`mutation ($token: String!) { confirmEmailChange(token: $token) }`, { token: link.pathname.split("/").at(-1) });
    expect(confirmed.errors).toBeUndefined();
    await loginAs(server, "new.address@example.test", user.password);
    const old = await server.fetch("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: user.email, password: user.password }) });
    expect(old.status).toBe(401);
  });

  test("the same email in other letter case is no change: the account stays verified", async () => {
    const { user, client } = await freshMember();
    const answer = await change(client, { email: user.email.toUpperCase() });
    expect(answer.data?.changeDetails).toMatchObject({ email: user.email, verified: true });
  });
});

describe("changeDetails: refused, and nothing changes", () => {
  test("an email another account uses, in any organisation and any letter case, is refused clearly", async () => {
    const { user, client } = await freshMember();
    for (const taken of ["OWNER@northwind.test", "owner@demo.test"]) {
      const answer = await change(client, { firstName: "Changed", email: taken, password: user.password });
      expect(answer.errors?.[0]).toMatchObject({ message: "This email address is already in use.", extensions: { code: "CONFLICT", fields: [{ field: "email", message: "This email address is already in use." }] } });
      expect(answer.data).toBeNull();
    }
    expect(await rowOf(user.id)).toMatchObject({ email: user.email, firstName: "Test", verified: true });
    expect(await auditOf(user.id)).toEqual([]);
  });

  test("bad input gives the field's message and changes nothing", async () => {
    const { user, client } = await freshMember();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ firstName: "   " }, "firstName", "Required"],
      [{ lastName: "" }, "lastName", "Required"],
      [{ email: "" }, "email", "Required"],
      [{ email: "not-an-email" }, "email", "Invalid email address"],
      [{ email: `${"a".repeat(250)}@example.test` }, "email", "Invalid email address"],
      [{ firstName: "x".repeat(101) }, "firstName", "Must be at most 100 characters"],
      [{ lastName: "Smith\nAdmin" }, "lastName", "Must not contain control characters"],
      [{ firstName: 42 }, "input.firstName", ""],
    ];
    for (const [input, field, message] of cases) {
      const answer = await change(client, { firstName: "Should", lastName: "NotSave", ...input });
      expect(answer.data ?? null).toBeNull();
      const error = answer.errors?.[0];
      expect(error).toBeDefined();
      // A wrongly typed value is GraphQL's own validation; the rest are the server's messages.
      if (message) {
        expect(error).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT" } });
        expect(error?.extensions?.fields?.[0]).toEqual({ field, message });
      }
    }
    expect(await rowOf(user.id)).toMatchObject({ firstName: "Test", lastName: user.lastName, email: user.email });
    expect(await auditOf(user.id)).toEqual([]);
  });

  test("turning two-factor authentication on makes this session owe its setup before anything else", async () => {
    const { user, client } = await freshMember();
    const answer = await change(client, { firstName: "Changed", twoFactorAuthenticationActivated: true, password: user.password });
    expect(answer.errors).toBeUndefined();
    expect(await rowOf(user.id)).toMatchObject({ firstName: "Changed", twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: false });
    // The same cookie now reaches only the two-factor screens (tests/api/auth/two-factor.test.ts has the rest).
    expect((await client.fetch("/api/auth/check").then((r) => r.text()))).toBe("two_factor_required");
  });

  test("a single-sign-on account keeps the email its Microsoft account gives it", async () => {
    const { user, client } = await freshMember();
    await server.db.update(users).set({ isSSO: true }).where(eq(users.id, user.id));
    const answer = await change(client, { email: "elsewhere@example.test" });
    expect(answer.errors?.[0]?.extensions?.fields?.[0]?.field).toBe("email");
    expect((await rowOf(user.id)).email).toBe(user.email);
    expect((await change(client, { firstName: "Still", email: user.email })).data?.changeDetails.firstName).toBe("Still");
  });

  test("denied: without a staff session there is nothing to change", async () => {
    const answer = await change(anonymous(server), { firstName: "Nobody" });
    expect(answer.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  test("denied: a reporter's session cannot call it", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    // Opening a report session the way the report flow does.
    const form = await server.db.query.reportForms.findFirst({ where: { organisationId: demoId, type: "Custom", status: "Active" } });
    await reporter.post("/api/auth/report_start", { reportFormID: form!.id });
    expect(reporter.cookie).toStartWith("lantern_report=");
    const answer = await change(reporter, { firstName: "Reporter" });
    expect(answer.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(answer.data ?? null).toBeNull();
  });
});
