import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { reportFormTemplates } from "../../../db/schema/index.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import { asInput, BUILD, code, message, startFormsServer, widgets, type Data, type FormsServer } from "../forms/form-api.ts";

let s: FormsServer;
beforeAll(async () => {
  s = await startFormsServer();
}, 60_000);
afterAll(() => s.server.stop());

const TEMPLATE = `id name createdAt updatedAt archived currentBuild { ${BUILD} }`;
const T = {
  list: `query ($s: String, $f: ListFilter, $l: Int, $off: Int) { reportFormTemplates(search: $s, filter: $f, limit: $l, offset: $off) { total list { id name archived } } }`,
  get: `query ($id: ID!) { reportFormTemplateGet(id: $id) { ${TEMPLATE} } }`,
  create: `mutation ($input: ReportFormTemplateInput!) { reportFormTemplateCreate(input: $input) { ${TEMPLATE} } }`,
  update: `mutation ($id: ID!, $input: ReportFormTemplateInput!) { reportFormTemplateUpdate(id: $id, input: $input) { ${TEMPLATE} } }`,
  archive: `mutation ($id: ID!) { reportFormTemplateArchive(id: $id) { ${TEMPLATE} } }`,
  unarchive: `mutation ($id: ID!) { reportFormTemplateUnarchive(id: $id) { ${TEMPLATE} } }`,
};
const names = (result: Data) => result.data?.reportFormTemplates.list.map((t: { name: string }) => t.name);
const create = async (name: string) => (await s.people.superAdmin.gql<Data>(T.create, { input: { name, widgets: widgets() } })).data?.reportFormTemplateCreate;

describe("templates kept by super admins", () => {
  test("allowed: a super admin creates, saves (new builds, revision checked), archives and unarchives, audited", async () => {
    const template = await create("  Workplace basics  ");
    expect(template).toMatchObject({ name: "Workplace basics", archived: false, currentBuild: { revision: 1, author: { email: "admin@lantern.test" } } });
    expect(template.currentBuild.widgets[2].condition.rules[0].conditionWidgetID).toBe(template.currentBuild.widgets[1].id);
    const saved = (await s.people.superAdmin.gql<Data>(T.update, { id: template.id, input: { name: "Workplace basics v2", widgets: asInput(template.currentBuild), baseRevision: 1 } })).data?.reportFormTemplateUpdate;
    expect(saved).toMatchObject({ name: "Workplace basics v2", currentBuild: { revision: 2 } });
    expect(saved.currentBuild.widgets.map((w: Data) => w.id)).toEqual(template.currentBuild.widgets.map((w: Data) => w.id));
    const stale = await s.people.superAdmin.gql<Data>(T.update, { id: template.id, input: { name: "Lost", widgets: asInput(template.currentBuild), baseRevision: 1 } });
    expect([code(stale), message(stale)]).toEqual(["CONFLICT", "admin@lantern.test saved this template while you were editing. Reload it to see their changes; yours are not saved."]);
    expect((await s.people.superAdmin.gql<Data>(T.archive, { id: template.id })).data?.reportFormTemplateArchive.archived).toBe(true);
    expect(names(await s.people.superAdmin.gql<Data>(T.list, { f: "Archived" }))).toEqual(["Workplace basics v2"]);
    expect((await s.people.superAdmin.gql<Data>(T.unarchive, { id: template.id })).data?.reportFormTemplateUnarchive.archived).toBe(false);
    for (const action of ["TemplateCreate", "TemplateUpdate", "TemplateArchive", "TemplateUnarchive"]) {
      expect((await s.audit(template.id, action))[0]).toMatchObject({ objectType: "ReportForm", organisationId: null });
    }
  });

  test("denied: owners, admins, members, guests, anonymous callers and reporters cannot create, save or archive", async () => {
    const template = await create("Untouchable");
    const before = await s.server.db.select().from(reportFormTemplates);
    const reporter = new ReporterClient(s.server, "demo.localhost");
    for (const client of [s.people.owner, s.people.admin, s.people.member, s.people.guest, s.people.nwOwner]) {
      expect(code(await client.gql<Data>(T.create, { input: { name: "Mine", widgets: widgets() } }))).toBe("FORBIDDEN");
      expect(code(await client.gql<Data>(T.update, { id: template.id, input: { name: "Mine", widgets: widgets() } }))).toBe("FORBIDDEN");
      expect(code(await client.gql<Data>(T.archive, { id: template.id }))).toBe("FORBIDDEN");
      expect(code(await client.gql<Data>(T.unarchive, { id: template.id }))).toBe("FORBIDDEN");
    }
    expect(code(await s.people.anonymous.gql<Data>(T.create, { input: { name: "Mine", widgets: widgets() } }))).toBe("UNAUTHENTICATED");
    expect((await reporter.gql<Data>(T.archive, { id: template.id })).errors?.length).toBe(1);
    expect(await s.server.db.select().from(reportFormTemplates)).toEqual(before);
  });

  test("denied: malformed templates are refused and nothing is written", async () => {
    const before = await s.server.db.select().from(reportFormTemplates);
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: " ", widgets: widgets() }, "Required"],
      [{ name: "Ok", widgets: [{ type: "Section", title: "S" }] }, "A form needs at least two widgets"],
      [{ name: "Ok", widgets: [{ type: "Section", title: "S" }, ...Array.from({ length: 500 }, (_, i) => ({ type: "ShortText", title: `Q${i}` }))] }, "A form can have at most 500 widgets"],
      [{ name: "Bad\u0000", widgets: widgets() }, "Text must not contain NUL characters."],
      [{ name: "x".repeat(1_000_000), widgets: widgets() }, "Must be at most 200 characters"],
    ];
    for (const [input, expected] of refusals) {
      const result = await s.people.superAdmin.gql<Data>(T.create, { input });
      expect([code(result), message(result)]).toEqual(["BAD_USER_INPUT", expected]);
    }
    expect(message(await s.people.superAdmin.gql<Data>(T.update, { id: "nope", input: { name: "Ok", widgets: widgets() } }))).toBe("Form Template is not found");
    expect(await s.server.db.select().from(reportFormTemplates)).toEqual(before);
  });
});

describe("templates read by organisations", () => {
  test("allowed: owners and admins list and read active templates only; a super admin sees archived ones too", async () => {
    const active = await create("Tile one");
    const archived = await create("Tile retired");
    await s.people.superAdmin.gql<Data>(T.archive, { id: archived.id });
    for (const client of [s.people.owner, s.people.admin, s.people.nwOwner]) {
      const listed = names(await client.gql<Data>(T.list, { f: "All", s: "Tile" }));
      expect(listed).toEqual(["Tile one"]);
      expect(names(await client.gql<Data>(T.list, { f: "Archived", s: "Tile" }))).toEqual(["Tile one"]);
      expect((await client.gql<Data>(T.get, { id: active.id })).data?.reportFormTemplateGet.currentBuild.widgets).toHaveLength(3);
      expect(message(await client.gql<Data>(T.get, { id: archived.id }))).toBe("Form Template is not found");
    }
    expect(names(await s.people.superAdmin.gql<Data>(T.list, { f: "All", s: "Tile" }))).toEqual(["Tile one", "Tile retired"]);
    expect((await s.people.superAdmin.gql<Data>(T.get, { id: archived.id })).data?.reportFormTemplateGet.archived).toBe(true);
    expect(names(await s.people.owner.gql<Data>(T.list, { l: 1000, off: -1, s: "Tile" }))).toEqual(["Tile one"]);
  });

  test("denied: members, guests, anonymous callers and reporters cannot list or read templates; unknown ids are not found", async () => {
    const template = await create("Hidden from members");
    expect(code(await s.people.member.gql<Data>(T.list, {}))).toBe("FORBIDDEN");
    expect(code(await s.people.guest.gql<Data>(T.get, { id: template.id }))).toBe("FORBIDDEN");
    expect(code(await s.people.anonymous.gql<Data>(T.list, {}))).toBe("UNAUTHENTICATED");
    expect((await new ReporterClient(s.server, "demo.localhost").gql<Data>(T.get, { id: template.id })).errors?.length).toBe(1);
    expect(message(await s.people.owner.gql<Data>(T.get, { id: crypto.randomUUID() }))).toBe("Form Template is not found");
    expect(message(await s.people.owner.gql<Data>(T.get, { id: "x" }))).toBe("Form Template is not found");
  });
});
