import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions, userActivities, users } from "../../../db/schema/index.ts";
import { createUser } from "../../factories/users.ts";
import { anonymous, cookieFrom, clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";
import { authenticator, giveTwoFactor } from "../../helpers/two-factor.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { serverWithOrganisation } from "../../helpers/organisations.ts";

const env = serverWithOrganisation();

const SECRET_QUERY = "{ twoFactorAuthenticationSecret { secret qrCodeString } }";
const VIEWER = "{ viewer { email pass2FA twoFactorAuthenticationActivated twoFactorAuthenticationIsSet hasRecoveryCode organisation { name } } }";
type ViewerData = { viewer: { email: string; pass2FA: boolean; twoFactorAuthenticationActivated: boolean; twoFactorAuthenticationIsSet: boolean; hasRecoveryCode: boolean; organisation: { name: string } | null } };

const rowOf = async (id: string) => (await env.server.db.select().from(users).where(eq(users.id, id)))[0]!;
const auditOf = async (id: string) => (await env.server.db.select().from(userActivities).where(eq(userActivities.userId, id))).map((row) => row.action);

async function postJson(client: StaffClient, path: string, body: unknown): Promise<Response> {
  return client.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
}
const sendPasscode = (client: StaffClient, passcode: unknown) => postJson(client, "/api/auth/two_factor/verification", { passcode });

/** Settings' switch, with the password it asks for (decision 061). */
async function turnOn(client: StaffClient, user: { password: string }) {
  const answer = await client.gql("mutation ($password: String) { changeDetails(input: { twoFactorAuthenticationActivated: true, password: $password }) { id } }", { password: user.password });
  expect(answer.errors).toBeUndefined();
}

/** A signed-in owner who turned 2FA on and confirmed an authenticator; returns it and the recovery code. */
async function ownerWithTwoFactor() {
  const user = await createUser(env.server.db, { role: "ORGANISATION_OWNER", organisationId: env.organisationId });
  const client = await loginAs(env.server, user.email, user.password);
  await turnOn(client, user);
  const setup = await client.gql<{ twoFactorAuthenticationSecret: { secret: string } }>(SECRET_QUERY);
  const phone = authenticator(setup.data!.twoFactorAuthenticationSecret.secret);
  expect((await sendPasscode(client, phone.nextPasscode())).status).toBe(200);
  const recovery = await client.gql<{ twoFactorRecoveryCode: string[] }>("{ twoFactorRecoveryCode }");
  return { user, client, phone, recoveryCode: recovery.data!.twoFactorRecoveryCode[0]! };
}

async function signIn(user: { email: string; password: string }) {
  const response = await postJson(anonymous(env.server), "/api/auth/login", { email: user.email, password: user.password, verifyToken: "" });
  expect(response.status).toBe(200);
  return { body: (await response.json()) as { user: Record<string, unknown> }, client: clientWithCookie(env.server, `lantern_session=${cookieFrom(response, "lantern_session")}`) };
}

/** What a session owing its passcode must not get: data over GraphQL, REST and WebSocket. */
async function expectNoData(client: StaffClient) {
  const query = await client.gql("{ roles { name } users { total } }");
  expect(query.data ?? null).toBeNull();
  expect(query.errors?.length).toBeGreaterThan(0);
  const csv = await postJson(client, "/api/report-submissions/download-csv", {});
  expect(csv.status).toBe(401);
  const socket = wsClient(env.server, client.cookie);
  const subscription = collect(socket, "subscription { organisationUserDisconnect }", 1);
  await subscription.done;
  // Refused either way graphql-ws may say it: an error result without data, or an error message.
  const refusals = [...subscription.results, ...subscription.errors] as { data?: unknown; errors?: { message: string }[] }[];
  expect(refusals.length).toBeGreaterThan(0);
  for (const refusal of refusals) expect(refusal.data ?? null).toBeNull();
  expect(JSON.stringify(refusals)).toContain("permission");
  await socket.dispose();
}

describe("setting up two-factor authentication", () => {
  test("turning it on owes setup; the QR secret, a right passcode and a downloaded recovery code let the session in", async () => {
    const user = await createUser(env.server.db, { role: "ORGANISATION_OWNER", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    await turnOn(client, user);
    const pending = await client.gql<ViewerData>(VIEWER);
    expect(pending.data?.viewer).toMatchObject({ pass2FA: false, twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: false, organisation: null });
    await expectNoData(client);

    const setup = await client.gql<{ twoFactorAuthenticationSecret: { secret: string; qrCodeString: string } }>(SECRET_QUERY);
    const { secret, qrCodeString } = setup.data!.twoFactorAuthenticationSecret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrCodeString).toStartWith("otpauth://totp/");
    expect(qrCodeString).toContain(`secret=${secret}`);
    // Reloading the setup screen shows the key already scanned.
    expect((await client.gql<{ twoFactorAuthenticationSecret: { secret: string } }>(SECRET_QUERY)).data!.twoFactorAuthenticationSecret.secret).toBe(secret);

    const wrong = await sendPasscode(client, "000000");
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("The passcode is incorrect or has already been used. Please try again.");
    const phone = authenticator(secret);
    const right = await sendPasscode(client, phone.nextPasscode());
    expect(right.status).toBe(200);
    expect(((await right.json()) as { user: { pass2FA: boolean } }).user.pass2FA).toBe(true);

    const passed = await client.gql<ViewerData>(VIEWER);
    expect(passed.data?.viewer).toMatchObject({ pass2FA: true, twoFactorAuthenticationIsSet: true, hasRecoveryCode: false });
    expect(passed.data?.viewer.organisation?.name).toBeTruthy();
    const recovery = await client.gql<{ twoFactorRecoveryCode: string[] }>("{ twoFactorRecoveryCode }");
    const [code] = recovery.data!.twoFactorRecoveryCode;
    expect(code).toMatch(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);
    const row = await rowOf(user.id);
    expect(row.recoveryCodeHash).not.toBeNull();
    expect(row.recoveryCodeHash).not.toContain(code!.replaceAll("-", ""));
    expect((await client.gql<ViewerData>(VIEWER)).data?.viewer.hasRecoveryCode).toBe(true);
    expect(await auditOf(user.id)).toEqual(expect.arrayContaining(["TwoFactorActivated", "TwoFactorSetUp", "TwoFactorRecoveryCodeIssued"]));
  });

  test("the back arrow undoes setup; once a passcode is confirmed it cannot", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    await turnOn(client, user);
    const undo = await client.gql<{ twoFactorAuthenticationUndo: boolean }>("mutation { twoFactorAuthenticationUndo }");
    expect(undo.data?.twoFactorAuthenticationUndo).toBe(true);
    expect((await client.gql<ViewerData>(VIEWER)).data?.viewer).toMatchObject({ pass2FA: true, twoFactorAuthenticationActivated: false });
    expect(await rowOf(user.id)).toMatchObject({ twoFactorSecret: null, twoFactorAuthenticationActivated: false });

    const { client: setUp } = await ownerWithTwoFactor();
    const refused = await setUp.gql("mutation { twoFactorAuthenticationUndo }");
    expect(refused.errors?.[0]?.message).toBe("Two-Factor Authentication is not waiting for a passcode.");
  });

  test("a recovery code needs a confirmed authenticator and a session that passed", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    expect((await client.gql("{ twoFactorRecoveryCode }")).errors?.[0]?.message).toBe("Two-Factor Authentication is not set up, so there is no recovery code.");
    await turnOn(client, user);
    expect((await client.gql("{ twoFactorRecoveryCode }")).errors?.length).toBeGreaterThan(0);
    expect(await rowOf(user.id)).toMatchObject({ recoveryCodeHash: null });
  });
});

describe("signing in with two-factor authentication", () => {
  test("the password alone opens a session that gets nothing until the passcode; a passcode works once", async () => {
    const { user, phone } = await ownerWithTwoFactor();
    const { body, client } = await signIn(user);
    expect(body.user).toEqual({ twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: true, pass2FA: false });
    expect(await client.fetch("/api/auth/check").then((r) => r.text())).toBe("two_factor_required");
    await expectNoData(client);
    // The key is never shown again once confirmed, and the password alone cannot undo it.
    expect((await client.gql(SECRET_QUERY)).errors?.[0]?.message).toContain("already set up");
    expect((await client.gql("mutation { twoFactorAuthenticationUndo }")).errors?.[0]?.message).toContain("already set up");
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(true);

    const code = phone.nextPasscode();
    expect((await sendPasscode(client, code)).status).toBe(200);
    expect((await client.gql<{ roles: unknown[] }>("{ roles { name } }")).data?.roles.length).toBeGreaterThan(0);

    // The same passcode on another new session is refused: it was used.
    const { client: second } = await signIn(user);
    const replay = await sendPasscode(second, code);
    expect(replay.status).toBe(400);
    expect(((await second.gql<ViewerData>(VIEWER)).data?.viewer.pass2FA)).toBe(false);
    // Sign Out on the passcode screen ends the session that owed it.
    expect((await postJson(second, "/api/auth/logout", {})).status).toBe(200);
    expect(await second.fetch("/api/auth/check").then((r) => r.text())).toBe("unauthorised");
  });

  test("too many wrong passcodes end the session", async () => {
    const { user } = await ownerWithTwoFactor();
    const { client } = await signIn(user);
    for (let attempt = 1; attempt < 5; attempt += 1) expect((await sendPasscode(client, "123456")).status).toBe(400);
    const last = await sendPasscode(client, "123456");
    expect(last.status).toBe(401);
    expect(((await last.json()) as { error: string }).error).toBe("Too many incorrect codes. Please sign in again.");
    expect(await client.fetch("/api/auth/check").then((r) => r.text())).toBe("unauthorised");
  });

  test("lost device: the recovery code passes once, ends the other sessions and asks for a new authenticator", async () => {
    const { user, client: earlier, recoveryCode } = await ownerWithTwoFactor();
    const { client } = await signIn(user);
    const wrong = await client.gql("mutation { twoFactorAuthenticationRecover(recoveryCode: \"AAAA-BBBB\") }");
    expect(wrong.errors?.[0]?.message).toBe("The recovery code is incorrect. Please try again.");
    const recovered = await client.gql<{ twoFactorAuthenticationRecover: boolean }>(`mutation { twoFactorAuthenticationRecover(recoveryCode: "${recoveryCode.toLowerCase()}") }`);
    expect(recovered.data?.twoFactorAuthenticationRecover).toBe(true);
    expect(await earlier.fetch("/api/auth/check").then((r) => r.text())).toBe("unauthorised");
    expect((await client.gql<ViewerData>(VIEWER)).data?.viewer).toMatchObject({ twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: false, hasRecoveryCode: false });
    await expectNoData(client);
    const fresh = await client.gql<{ twoFactorAuthenticationSecret: { secret: string } }>(SECRET_QUERY);
    expect(fresh.data?.twoFactorAuthenticationSecret.secret).toMatch(/^[A-Z2-7]{32}$/);

    // The used code opens nothing any more.
    const { client: again } = await signIn(user);
    expect((await again.gql(`mutation { twoFactorAuthenticationRecover(recoveryCode: "${recoveryCode}") }`)).errors?.length).toBeGreaterThan(0);
  });

  test("without a session the two-factor calls are refused, and malformed codes are a clear 400", async () => {
    const stranger = anonymous(env.server);
    expect((await sendPasscode(stranger, "123456")).status).toBe(401);
    expect((await stranger.gql(SECRET_QUERY)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect((await stranger.gql("mutation { twoFactorAuthenticationUndo }")).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");

    const { user } = await ownerWithTwoFactor();
    const { client } = await signIn(user);
    for (const body of [{}, { passcode: 123456 }, { passcode: ["1"] }, { passcode: "12\u00003456" }, { passcode: "9".repeat(100_000) }, "[]"]) {
      const response = await postJson(client, "/api/auth/two_factor/verification", body);
      expect(response.status).toBe(400);
    }
    const [session] = await env.server.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session).toBeDefined();
  });
});

describe("an open console socket", () => {
  test("is closed at the next keep-alive once its session owes a two-factor step", async () => {
    const user = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    const socket = new WebSocket(`ws://127.0.0.1:${env.server.port}/api/gql/query`, { protocols: ["graphql-transport-ws"], headers: { Cookie: client.cookie, Host: `localhost:${env.server.port}`, Origin: `http://localhost:${env.server.port}` } } as unknown as string[]);
    const closed = new Promise<number>((resolve) => (socket.onclose = (event) => resolve(event.code)));
    await new Promise((resolve) => (socket.onopen = resolve));
    socket.send(JSON.stringify({ type: "connection_init" }));
    await turnOn(client, user);
    expect(await closed).toBe(4401);
  }, 20_000);
});

describe("turning two-factor authentication off", () => {
  test("the user turns it off from Settings: the other sessions end", async () => {
    const { user, client, phone } = await ownerWithTwoFactor();
    const { client: other } = await signIn(user);
    const off = await client.gql("mutation ($password: String, $passcode: String) { changeDetails(input: { twoFactorAuthenticationActivated: false, password: $password, passcode: $passcode }) { twoFactorAuthenticationActivated } }", {
      password: user.password,
      passcode: phone.nextPasscode(),
    });
    expect(off.errors).toBeUndefined();
    expect(await rowOf(user.id)).toMatchObject({ twoFactorAuthenticationActivated: false, twoFactorSecret: null, recoveryCodeHash: null });
    expect(await other.fetch("/api/auth/check").then((r) => r.text())).toBe("unauthorised");
    expect(await client.fetch("/api/auth/check").then((r) => r.text())).toBe("authorised");
  });

  test("a super admin may turn another user's 2FA off but never on; nobody else may", async () => {
    const superAdmin = await createUser(env.server.db, { role: "SUPER_ADMIN", organisationId: null });
    const admin = await loginAs(env.server, superAdmin.email, superAdmin.password);
    const plain = await createUser(env.server.db, { role: "MEMBER", organisationId: env.organisationId });
    const enable = await admin.gql(`mutation { userTwoFactorAuthenticationUpdate(userID: "${plain.id}", activated: true, password: "${superAdmin.password}") }`);
    expect(enable.errors?.[0]?.message).toBe("Super Admins cannot enable Two-Factor Authentication.");
    expect((await admin.gql(`mutation { userTwoFactorAuthenticationUpdate(userID: "${plain.id}", activated: false, password: "${superAdmin.password}") }`)).errors?.[0]?.message).toBe(
      "Super Admins cannot enable Two-Factor Authentication.",
    );
    expect((await rowOf(plain.id)).twoFactorAuthenticationActivated).toBe(false);

    const { user, client } = await ownerWithTwoFactor();
    const owner = await loginAs(env.server, (await createUser(env.server.db, { role: "ORGANISATION_OWNER", organisationId: env.organisationId })).email, "correct-horse-1");
    const denied = await owner.gql(`mutation { userTwoFactorAuthenticationUpdate(userID: "${user.id}", activated: false) }`);
    expect(denied.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await rowOf(user.id)).twoFactorAuthenticationActivated).toBe(true);

    const off = await admin.gql<{ userTwoFactorAuthenticationUpdate: boolean }>(`mutation { userTwoFactorAuthenticationUpdate(userID: "${user.id}", activated: false, password: "${superAdmin.password}") }`);
    expect(off.data?.userTwoFactorAuthenticationUpdate).toBe(true);
    expect(await rowOf(user.id)).toMatchObject({ twoFactorAuthenticationActivated: false, twoFactorSecret: null });
    expect(await client.fetch("/api/auth/check").then((r) => r.text())).toBe("unauthorised");
    const unknown = await admin.gql(`mutation { userTwoFactorAuthenticationUpdate(userID: "not-an-id", activated: false) }`);
    expect(unknown.errors?.[0]?.message).toBe("User is not found");
  });
});

describe("the test helper other suites use", () => {
  test("giveTwoFactor leaves a signed-in session in, with 2FA active, and a new sign-in owing its passcode", async () => {
    const user = await createUser(env.server.db, { role: "GUEST_MEMBER", organisationId: env.organisationId });
    const client = await loginAs(env.server, user.email, user.password);
    await giveTwoFactor(env.server.db, user.id);
    const viewer = await client.gql<ViewerData>(VIEWER);
    expect(viewer.data?.viewer).toMatchObject({ pass2FA: true, twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: true });
    const { body } = await signIn(user);
    expect(body.user.pass2FA).toBe(false);
  });
});
