import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { reportSubmissionNotes, reportSubmissions } from "../../../db/schema/index.ts";
import { startMailingDemo } from "../../helpers/notification-mail.ts";
import { closeAsOwner, OPEN, reportWithFile, stored } from "../../helpers/retention.ts";
import type { TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff } from "../../helpers/session.ts";
import type { TestSmtpServer } from "../../helpers/smtp-server.ts";

/** Reports closed before closed_at existed: the migration dates them from their last closing note (decision 052). */

const MIGRATIONS = join(import.meta.dir, "..", "..", "..", "db", "migrations");
/** The migration's last statement: the backfill, run again over rows as an older release left them. */
const backfillSql = () => {
  const folder = readdirSync(MIGRATIONS).find((name) => name.endsWith("_retention"))!;
  return readFileSync(join(MIGRATIONS, folder, "migration.sql"), "utf8").split("--> statement-breakpoint").at(-1)!;
};

let smtp: TestSmtpServer;
let server: TestServer;
let main: Awaited<ReturnType<typeof startMailingDemo>>["main"];
let as: DemoStaff;
beforeAll(async () => {
  ({ smtp, server, main } = await startMailingDemo());
  as = await demoStaff(server);
}, 60_000);
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

test("a closed report gets its last closing note's time, one closed without a note its last change; an open one none", async () => {
  const closedTwice = await closeAsOwner(server, as.owner, await reportWithFile(server, main, "Backfill one"));
  await as.owner.gql(OPEN, { id: closedTwice.id });
  await as.owner.gql(`mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Rejected) { id } }`, { id: closedTwice.id });
  const notes = await server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, closedTwice.id));
  const closings = notes.filter((note) => note.newStatus === "Completed" || note.newStatus === "Rejected");
  // Spread out, so "the last" is unambiguous.
  await server.db.update(reportSubmissionNotes).set({ createdAt: new Date(Date.UTC(2026, 0, 5)) }).where(eq(reportSubmissionNotes.id, closings.find((n) => n.newStatus === "Completed")!.id));
  await server.db.update(reportSubmissionNotes).set({ createdAt: new Date(Date.UTC(2026, 1, 9)) }).where(eq(reportSubmissionNotes.id, closings.find((n) => n.newStatus === "Rejected")!.id));

  const noNote = await reportWithFile(server, main, "Backfill two");
  const changedAt = new Date(Date.UTC(2026, 2, 1));
  const open = await reportWithFile(server, main, "Backfill three");

  const ids = [closedTwice.id, noNote.id, open.id];
  await server.db.update(reportSubmissions).set({ closedAt: null }).where(inArray(reportSubmissions.id, ids));
  await server.db.update(reportSubmissions).set({ status: "Closed", updatedAt: changedAt }).where(eq(reportSubmissions.id, noNote.id));
  await server.db.execute(sql.raw(backfillSql()));

  expect((await stored(server, closedTwice.id)).closedAt).toEqual(new Date(Date.UTC(2026, 1, 9)));
  expect((await stored(server, noNote.id)).closedAt).toEqual(changedAt);
  expect((await stored(server, open.id)).closedAt).toBeNull();
});
