import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reportFormNotes, reportForms } from "../../../db/schema/index.ts";
import { code, message, Q, startFormsServer, type Data, type FormsServer } from "./form-api.ts";

let s: FormsServer;
let formId: string;
let nwFormId: string;

beforeAll(async () => {
  s = await startFormsServer();
  const forms = await s.server.db.select().from(reportForms);
  formId = forms.find((f) => f.name === "Workplace Misconduct Report")!.id;
  nwFormId = forms.find((f) => f.name === "Safety and Compliance Report")!.id;
}, 60_000);
afterAll(() => s.server.stop());

describe("form notes", () => {
  test("allowed: staff post notes, newest first; the form shows it has notes; only the author may edit or archive, audited", async () => {
    const { owner, admin } = s.people;
    const first = (await owner.gql<Data>(Q.noteCreate, { id: formId, n: "  Check the wording with legal  " })).data?.reportFormNoteCreate;
    expect(first).toMatchObject({ note: "Check the wording with legal", canEdit: true, archived: false, author: { firstName: expect.any(String) } });
    await admin.gql<Data>(Q.noteCreate, { id: formId, n: "Legal approved" });
    const listed = (await admin.gql<Data>(Q.notes, { id: formId })).data?.reportFormNotes;
    expect(listed.total).toBe(2);
    expect(listed.list.map((n: Data) => [n.note, n.canEdit])).toEqual([["Legal approved", true], ["Check the wording with legal", false]]);
    expect((await owner.gql<Data>(Q.get, { id: formId })).data?.reportFormGet).toMatchObject({ hasNotes: true, notesCount: 2 });
    expect((await owner.gql<Data>(Q.notes, { id: formId, l: 0, off: -3 })).data?.reportFormNotes.list).toHaveLength(2);

    expect((await owner.gql<Data>(Q.noteUpdate, { id: first.id, n: "Wording checked" })).data?.reportFormNoteUpdate.note).toBe("Wording checked");
    const refusedEdit = await admin.gql<Data>(Q.noteUpdate, { id: first.id, n: "Not mine" });
    expect([code(refusedEdit), message(refusedEdit)]).toEqual(["FORBIDDEN", "This item cannot be edited."]);
    expect(message(await admin.gql<Data>(Q.noteArchive, { id: first.id }))).toBe("This item cannot be deleted.");
    expect((await owner.gql<Data>(Q.noteArchive, { id: first.id })).data?.reportFormNoteArchive.archived).toBe(true);
    expect((await owner.gql<Data>(Q.notes, { id: formId })).data?.reportFormNotes.total).toBe(1);
    expect(message(await owner.gql<Data>(Q.noteUpdate, { id: first.id, n: "Again" }))).toBe("Note is not found");
    for (const action of ["NoteCreate", "NoteUpdate", "NoteArchive"]) expect((await s.audit(formId, action)).length).toBeGreaterThan(0);
  });

  test("denied: members, guests, anonymous callers; another organisation's form and notes are not found; bad notes are refused", async () => {
    const { member, guest, anonymous, nwOwner, owner } = s.people;
    const before = await s.server.db.select().from(reportFormNotes);
    expect(code(await member.gql<Data>(Q.notes, { id: formId }))).toBe("FORBIDDEN");
    expect(code(await guest.gql<Data>(Q.noteCreate, { id: formId, n: "x" }))).toBe("FORBIDDEN");
    expect(code(await anonymous.gql<Data>(Q.noteCreate, { id: formId, n: "x" }))).toBe("UNAUTHENTICATED");
    expect(message(await nwOwner.gql<Data>(Q.notes, { id: formId }))).toBe("Report Form is not found");
    expect(message(await nwOwner.gql<Data>(Q.noteCreate, { id: formId, n: "Planted" }))).toBe("Report Form is not found");
    const own = before.find((n) => !n.archived)!;
    expect(message(await nwOwner.gql<Data>(Q.noteUpdate, { id: own.id, n: "Rewritten" }))).toBe("Note is not found");
    expect(message(await nwOwner.gql<Data>(Q.noteArchive, { id: own.id }))).toBe("Note is not found");
    expect(message(await owner.gql<Data>(Q.noteCreate, { id: nwFormId, n: "Planted" }))).toBe("Report Form is not found");
    expect(message(await owner.gql<Data>(Q.noteCreate, { id: formId, n: "   " }))).toBe("Required");
    expect(code(await owner.gql<Data>(Q.noteCreate, { id: formId, n: "x".repeat(10_001) }))).toBe("BAD_USER_INPUT");
    expect(code(await owner.gql<Data>(Q.noteCreate, { id: formId, n: "a\u0000b" }))).toBe("BAD_USER_INPUT");
    expect(await s.server.db.select().from(reportFormNotes)).toEqual(before);
    expect((await s.server.db.select().from(reportFormNotes).where(eq(reportFormNotes.formId, nwFormId)))).toEqual([]);
  });
});
