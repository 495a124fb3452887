import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { reportSubmissions, users } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { NUL_NOT_ALLOWED } from "../../../api/shared/limits.ts";
import { storedBytes, upload } from "../../fixtures/attachments.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { demoForm, ReporterClient } from "../../helpers/reporter.ts";
import { anonymous } from "../../helpers/session.ts";

/**
 * A NUL character sent to any REST route (JSON bodies, multipart uploads, path parameters,
 * cookies) is the client's mistake: a 4xx with a clear message, nothing stored, never a 500.
 */

let demo: Awaited<ReturnType<typeof startDemoWithStaff>>;
let form: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  demo = await startDemoWithStaff();
  form = await demoForm(demo.server, "demo", "Workplace Misconduct Report");
}, 60_000);
afterAll(() => demo.server.stop());

const postJson = (path: string, body: unknown, host = "localhost", cookie = "") =>
  demo.server.fetch(path, { method: "POST", host, headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body) });

async function expectNulRefused(response: Response) {
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: NUL_NOT_ALLOWED, code: "BAD_USER_INPUT" });
}

const draftCount = async () => (await demo.server.db.select({ n: count() }).from(reportSubmissions))[0]!.n;

describe("JSON bodies", () => {
  test("staff login with NUL in the email or the password is a 400, and no failed attempt is counted", async () => {
    const before = (await demo.server.db.select().from(users).where(eq(users.email, "owner@demo.test")))[0]!;
    await expectNulRefused(await postJson("/api/auth/login", { email: "owner@demo.test\u0000", password: DEMO_PASSWORD }));
    await expectNulRefused(await postJson("/api/auth/login", { email: "owner@demo.test", password: `${DEMO_PASSWORD}\u0000` }));
    await expectNulRefused(await postJson("/api/auth/login", { "email\u0000": "owner@demo.test", password: DEMO_PASSWORD }));
    const after = (await demo.server.db.select().from(users).where(eq(users.email, "owner@demo.test")))[0]!;
    expect(after.failedLoginCount).toBe(before.failedLoginCount);
  });

  test("report_start with NUL in the form id or an answer is a 400; no Draft and no session", async () => {
    const before = await draftCount();
    const widget = form.widgets.find((w) => w.type !== "Section" && w.type !== "Note")!;
    for (const body of [{ reportFormID: `${form.form.id}\u0000` }, { reportFormID: form.form.id, answers: [{ widgetID: widget.id, answer: ["a\u0000b"] }] }]) {
      const response = await postJson("/api/auth/report_start", body, "demo.localhost");
      expect(response.headers.getSetCookie()).toEqual([]);
      await expectNulRefused(response);
    }
    expect(await draftCount()).toBe(before);
  });

  test("the reporter's login, handoff and finish refuse NUL without a server error", async () => {
    await expectNulRefused(await postJson("/api/auth/report_login", { reportID: "ABCDE-\u0000FGHJ", password: "x" }, "demo.localhost"));
    await expectNulRefused(await postJson("/api/auth/report_login", { reportID: "ABCDE-FGHJK", password: "x\u0000" }, "login.localhost"));
    await expectNulRefused(await postJson("/api/auth/report_handoff", { handoff: "\u0000" }, "demo.localhost"));
    const finish = await postJson("/api/auth/report_finish", { reportFormID: "\u0000" }, "demo.localhost");
    expect(finish.status).toBe(200);
    expect(await finish.json()).toEqual({ ok: false });
  });

  test("an export's search with NUL is a 400", async () => {
    for (const path of ["/api/report-submissions/export-all", "/api/report-submissions/download-csv"]) {
      await expectNulRefused(await postJson(path, { search: { text: "a\u0000" } }, "localhost", demo.as.owner.cookie));
    }
  });
});

describe("path parameters, file names and cookies", () => {
  test("an id holding NUL names nothing: 404 on every file and export route", async () => {
    const paths = [
      "/api/files/report-attachments/%00",
      `/api/files/organisation-logo/${demo.demoId.slice(0, -1)}%00`,
      "/api/files/avatars/%00",
      "/api/files/chat-images/%00",
      "/api/report-submissions/export/%00",
    ];
    for (const path of paths) {
      const response = await demo.as.owner.fetch(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    const deleted = await new ReporterClient(demo.server, "demo.localhost").fetch("/api/files/report-attachments/%00", { method: "DELETE" });
    expect(deleted.status).toBeLessThan(500);
  });

  test("NUL in an uploaded file's name is dropped from the stored name (names are display text)", async () => {
    const reporter = new ReporterClient(demo.server, "demo.localhost");
    expect((await reporter.post("/api/auth/report_start", { reportFormID: form.form.id })).status).toBe(200);
    const uploaded = await upload(reporter, "evi\u0000dence.txt", "hello");
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.fileName).not.toContain("\u0000");
    expect((await storedBytes(demo.server, uploaded.body.id)).fileName).toBe(uploaded.body.fileName);
    // A name of nothing but NUL keeps no extension, so no allowed type: refused as such.
    const nameless = await upload(reporter, "\u0000\u0000", "hello");
    expect(nameless.status).toBe(400);
  });

  test("a multipart GraphQL request with NUL in its operations or map is the client's error", async () => {
    const operations = JSON.stringify({
      query: `mutation ($id: ID, $input: ReportConversationMessageInput!) { reportConversationSendMessage(reportSubmissionID: $id, input: $input) { id } }`,
      variables: { id: null, input: { type: "Image", message: "caption\u0000", imageFile: null } },
    });
    for (const map of [JSON.stringify({ 0: ["variables.input.imageFile"] }), JSON.stringify({ "0\u0000": ["variables.input.image\u0000File"] })]) {
      const body = new FormData();
      body.append("operations", operations);
      body.append("map", map);
      body.append("0", new Blob(["GIF89a"], { type: "image/gif" }), "a\u0000.gif");
      const response = await demo.as.owner.fetch("/api/gql/query", { method: "POST", body });
      expect(response.status).toBeLessThan(500);
      const answer = (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
      expect(answer.errors?.[0]?.extensions?.code).not.toBe("INTERNAL_SERVER_ERROR");
    }
  });

  test("an avatar whose file name is only NUL is refused as a file without a name, not an unexpected error", async () => {
    const body = new FormData();
    body.append("operations", JSON.stringify({ query: `mutation ($file: File!) { changeAvatar(file: $file) { id } }`, variables: { file: null } }));
    body.append("map", JSON.stringify({ 0: ["variables.file"] }));
    body.append("0", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" }), "\u0000\u0000");
    const response = await demo.as.member.fetch("/api/gql/query", { method: "POST", body });
    // The multipart check reads the name as Bun does (NULs dropped, nothing left) before GraphQL runs.
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(answer.errors?.[0]?.message).toBe('The file part "0" has no file name.');
  });

  test("a session cookie holding NUL is no session, never a server error", async () => {
    const staff = await demo.server.fetch("/api/auth/check", { headers: { Cookie: "lantern_session=abc%00def" } });
    expect(await staff.text()).toBe("unauthorised");
    const viewer = await demo.server.fetch("/api/gql/query", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: "lantern_session=%00" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    expect(viewer.status).toBeLessThan(500);
    const reporter = await demo.server.fetch("/api/gql/query", {
      method: "POST",
      host: "demo.localhost",
      headers: { "Content-Type": "application/json", Cookie: "lantern_report=%00" },
      body: JSON.stringify({ query: "{ reporterSubmission { id } }" }),
    });
    expect(reporter.status).toBeLessThan(500);
    expect((await anonymous(demo.server).gql("{ __typename }")).errors).toBeUndefined();
  });
});
