import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { reportFormBuilds, reportForms, userActivities } from "../../../db/schema/index.ts";
import { code, formInput, message, Q, startFormsServer, widgets, type Data, type FormsServer } from "./form-api.ts";

/** Every kind of malformed save is refused with a clear message, and nothing is written. */

let s: FormsServer;
let formId: string;

beforeAll(async () => {
  s = await startFormsServer();
  formId = (await s.people.owner.gql<Data>(Q.create, { input: formInput("Target") })).data?.reportFormCreate.id;
}, 60_000);
afterAll(() => s.server.stop());

const written = async () => ({
  forms: (await s.server.db.select({ n: count() }).from(reportForms))[0]!.n,
  builds: (await s.server.db.select({ n: count() }).from(reportFormBuilds))[0]!.n,
  audit: (await s.server.db.select({ n: count() }).from(userActivities))[0]!.n,
});

/** The save is refused with this message as BAD_USER_INPUT, on create and on update, and nothing changes. */
async function refused(input: Record<string, unknown>, expected: string | RegExp) {
  const before = await written();
  for (const result of [await s.people.owner.gql<Data>(Q.create, { input }), await s.people.owner.gql<Data>(Q.update, { id: formId, input })]) {
    expect(code(result)).toBe("BAD_USER_INPUT");
    if (typeof expected === "string") expect(message(result)).toBe(expected);
    else expect(message(result)).toMatch(expected);
  }
  expect(await written()).toEqual(before);
}

const section = { type: "Section", title: "S" };
const question = (title: string, extra: Record<string, unknown> = {}) => ({ type: "ShortText", title, ...extra });

describe("refused texts", () => {
  test("NUL characters anywhere, and texts past their bounds (1 MB included)", async () => {
    await refused(formInput("Bad\u0000name"), "Text must not contain NUL characters.");
    await refused({ name: "Ok", widgets: widgets([question("Q\u0000")]) }, "Text must not contain NUL characters.");
    await refused(formInput("x".repeat(201)), "Must be at most 200 characters");
    await refused(formInput("Ok", { welcomeMessageContent: `<p>${"a".repeat(1_000_000)}</p>` }), "Messages can be at most 100000 characters");
    await refused({ name: "Ok", widgets: widgets([question("t".repeat(1001))]) }, "Must be at most 1000 characters");
    await refused({ name: "Ok", widgets: widgets([question("T", { tooltip: "t".repeat(2001) })]) }, "Must be at most 2000 characters");
    await refused(formInput("Ok", { welcomeMessageTitle: "t".repeat(201) }), "Must be at most 200 characters");
    await refused(formInput("Ok", { password: "p".repeat(201), secure: true }), "Must be at most 200 characters");
  });

  test("names and question texts are Required", async () => {
    await refused(formInput("   "), "Required");
    await refused({ name: "Ok", widgets: widgets([question("  ")]) }, "Required");
  });

  test("wrong types are refused by the schema, never a server fault", async () => {
    for (const input of [{ name: 5, widgets: [] }, { name: "Ok", widgets: "all of them" }, { name: "Ok", widgets: [{ type: "Video", title: "x" }] }, { name: "Ok", widgets: widgets(), locked: "yes" }]) {
      const response = await s.people.owner.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: Q.create, variables: { input } }) });
      expect(response.status).toBeLessThan(500);
      const body = (await response.json()) as Data;
      expect(body.errors?.length).toBeGreaterThan(0);
      expect(body.data ?? null).toBeNull();
    }
  });
});

describe("refused settings", () => {
  test("theme colours are hex only, and only the theme's own keys", async () => {
    await refused(formInput("Ok", { theme: { nextButtonBackground: "red" } }), "Colours must be hex, like #1a2b3c");
    await refused(formInput("Ok", { theme: { nextButtonBackground: "url(https://evil.test/x)" } }), "Colours must be hex, like #1a2b3c");
    await refused(formInput("Ok", { theme: { nextButtonBackground: "#12345" } }), "Colours must be hex, like #1a2b3c");
    const unknown = await s.people.owner.gql<Data>(Q.create, { input: formInput("Ok", { theme: { backgroundImage: "#fff" } }) });
    expect(unknown.errors?.length).toBe(1);
    expect(unknown.data ?? null).toBeNull();
  });

  test("file types only from the spec's list", async () => {
    await refused(formInput("Ok", { allowedFileTypes: [".pdf", ".exe"] }), /^Allowed file types are \.doc /);
    await refused(formInput("Ok", { allowedFileTypes: ["pdf"] }), /^Allowed file types are/);
  });

  test("secure needs a password on a form that has none", async () => {
    await refused(formInput("Ok", { secure: true }), "Password is required");
    await refused(formInput("Ok", { secure: true, password: "" }), "Password is required");
  });
});

describe("refused widgets", () => {
  test("conditions must point at an earlier question and at one of its real options", async () => {
    const forward = [section, question("A", { condition: { matchType: "All", rules: [{ conditionWidgetIndex: 2, conditionAnswer: "x" }] } }), question("B")];
    await refused({ name: "Ok", widgets: forward }, '"A": the condition must refer to an earlier question');
    const atNote = [section, { type: "Note", title: "Read me" }, question("A", { condition: { matchType: "All", rules: [{ conditionWidgetIndex: 1, conditionAnswer: "x" }] } })];
    await refused({ name: "Ok", widgets: atNote }, '"A": the condition must refer to an earlier question');
    const notOption = [section, { type: "Select", title: "Pick", answers: ["Red", "Blue"] }, question("A", { condition: { matchType: "Any", rules: [{ conditionWidgetIndex: 1, conditionAnswer: "Green" }] } })];
    await refused({ name: "Ok", widgets: notOption }, '"A": "Green" is not an option of "Pick"');
    const unknownId = [section, question("A", { condition: { matchType: "Any", rules: [{ conditionWidgetID: "nobody", conditionAnswer: "x" }] } }), question("B")];
    await refused({ name: "Ok", widgets: unknownId }, '"A": the condition must refer to an earlier question');
    const both = [section, question("A"), question("B", { condition: { matchType: "Any", rules: [{ conditionWidgetIndex: 1, conditionWidgetID: "x", conditionAnswer: "x" }] } })];
    await refused({ name: "Ok", widgets: both }, "Each rule names its widget either by id or by position");
    const neither = [section, question("A"), question("B", { condition: { matchType: "Any", rules: [{ conditionAnswer: "x" }] } })];
    await refused({ name: "Ok", widgets: neither }, "Each rule names its widget either by id or by position");
    const rules = Array.from({ length: 21 }, () => ({ conditionWidgetIndex: 1, conditionAnswer: "a" }));
    await refused({ name: "Ok", widgets: [section, question("A"), question("B", { condition: { matchType: "Any", rules } })] }, "A condition can have at most 20 rules");
  });

  test("the builder's rules: two widgets, no adjacent sections, no trailing section, options for choices, unique ids", async () => {
    await refused({ name: "Ok", widgets: [question("Only")] }, "A form needs at least two widgets");
    await refused({ name: "Ok", widgets: [section, section, question("A")] }, "Two sections cannot be next to each other");
    await refused({ name: "Ok", widgets: [question("A"), section] }, "The last widget cannot be a section");
    await refused({ name: "Ok", widgets: [section, { type: "Radio", title: "Pick" }] }, '"Pick" needs options');
    await refused({ name: "Ok", widgets: [section, question("A", { id: "same" }), question("B", { id: "same" })] }, "Widget ids must be unique");
    await refused({ name: "Ok", widgets: [section, question("A", { id: "has space" })] }, "Widget ids may only hold letters, digits, '-' and '_', at most 64");
  });

  test("options are bounded and unique; widgets at most 500", async () => {
    await refused({ name: "Ok", widgets: [section, { type: "Select", title: "Pick", answers: ["A", "A"] }] }, "Options must be unique");
    await refused({ name: "Ok", widgets: [section, { type: "Select", title: "Pick", answers: Array.from({ length: 101 }, (_, i) => `O${i}`) }] }, "A widget can have at most 100 options");
    await refused({ name: "Ok", widgets: [section, { type: "Select", title: "Pick", answers: ["o".repeat(201)] }] }, "Options must be at most 200 characters");
    const many = [section, ...Array.from({ length: 500 }, (_, i) => question(`Q${i}`))];
    await refused({ name: "Ok", widgets: many }, "A form can have at most 500 widgets");
  });

  test("allowed: exactly 500 widgets save", async () => {
    const most = [section, ...Array.from({ length: 499 }, (_, i) => question(`Q${i}`))];
    const saved = await s.people.owner.gql<Data>(Q.update, { id: formId, input: { name: "Large", widgets: most } });
    expect(saved.data?.reportFormUpdate.currentBuild.widgets).toHaveLength(500);
  });
});

describe("rich-text messages", () => {
  test("messages are sanitised on every save; an empty editor document is stored as ''", async () => {
    const saved = await s.people.owner.gql<Data>(Q.update, {
      id: formId,
      input: formInput("Messages", {
        welcomeMessageContent: '  <p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:alert(1)">x</a> <a href="https://example.test">site</a></p>  ',
        finishMessageContent: "<p></p>",
        uploadFilesMessage: '<p style="color:#ff0000;background-image:url(https://evil.test)">Upload</p>',
        reportClosedMessage: "   ",
      }),
    });
    const form = saved.data?.reportFormUpdate;
    expect(form.welcomeMessageContent).toBe('<p>Hello <a>x</a> <a href="https://example.test" rel="noopener noreferrer" target="_blank">site</a></p>');
    expect(form.finishMessageContent).toBe("");
    expect(form.uploadFilesMessage).toBe('<p style="color:#ff0000">Upload</p>');
    expect(form.reportClosedMessage).toBe("");
  });
});
