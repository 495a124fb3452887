import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { blobs, reportForms, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import { DRAFT_STORAGE_FULL, DRAFTS_FULL, ENQUIRIES_CAP_PER_HOUR, ENQUIRIES_FREE_PER_HOUR, ENQUIRIES_FULL, FORM_DRAFTS_CAP, FORM_DRAFTS_FREE, ORGANISATION_DRAFT_BYTES_CAP } from "../../../api/modules/reporting/draft-limits.ts";
import { upload } from "../../fixtures/attachments.ts";
import { postSolving, solveChallenge, type ChallengeBody } from "../../helpers/proof-of-work.ts";
import { demoReportServer, ReporterClient } from "../../helpers/reporter.ts";

const demo = demoReportServer();

/** Unfinished drafts left by others (a flood), written straight to the database. */
async function leaveDrafts(count: number, formId = demo.main.form.id, buildId = demo.main.form.deployedBuildId) {
  const rows = Array.from({ length: count }, () => ({ organisationId: demo.demoId, formId, buildId, status: "Draft" as const }));
  for (let i = 0; i < rows.length; i += 500) await demo.server.db.insert(reportSubmissions).values(rows.slice(i, i + 500));
}

async function clearDrafts() {
  await demo.server.db.delete(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demo.demoId), eq(reportSubmissions.status, "Draft")));
}

function starter() {
  const reporter = new ReporterClient(demo.server, "demo.localhost");
  const send = (body: Record<string, unknown>) => reporter.fetch("/api/auth/report_start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { reporter, send };
}

describe("starting reports is bounded per form and organisation", () => {
  test("beyond the free level a new draft costs work, resuming one does not; at the cap it is refused with a clear message", async () => {
    await leaveDrafts(FORM_DRAFTS_FREE);
    const { send } = starter();
    const asked = await send({ reportFormID: demo.main.form.id });
    expect(asked.status).toBe(428);
    const body = (await asked.json()) as { code: string; challenge: ChallengeBody };
    expect(body.code).toBe("CHALLENGE_REQUIRED");
    expect(body.challenge.action).toBe("report_start");
    const started = await send({ reportFormID: demo.main.form.id, verifyToken: solveChallenge(body.challenge) });
    expect(started.status).toBe(200);
    const { submissionID } = (await started.json()) as { submissionID: string };
    // A reload resumes the same draft at no cost.
    const resumed = await send({ reportFormID: demo.main.form.id });
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as { submissionID: string }).submissionID).toBe(submissionID);

    await leaveDrafts(FORM_DRAFTS_CAP - FORM_DRAFTS_FREE);
    const { response } = await postSolving(starter().send, { reportFormID: demo.main.form.id });
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: string }).error).toBe(DRAFTS_FULL);
    // A replayed solution opens nothing either.
    expect((await starter().send({ reportFormID: demo.main.form.id, verifyToken: solveChallenge(body.challenge) })).status).toBe(429);
    await clearDrafts();
    expect((await starter().send({ reportFormID: demo.main.form.id })).status).toBe(200);
  });

  test("starts sent at the same moment cannot pass the cap together", async () => {
    await clearDrafts();
    await leaveDrafts(FORM_DRAFTS_CAP - 3);
    // Each reporter solves its own challenge first; then all ten send at once.
    const ready = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const { send } = starter();
        const asked = await send({ reportFormID: demo.main.form.id });
        expect(asked.status).toBe(428);
        const { challenge } = (await asked.json()) as { challenge: ChallengeBody };
        return { send, verifyToken: solveChallenge(challenge) };
      }),
    );
    const responses = await Promise.all(ready.map(({ send, verifyToken }) => send({ reportFormID: demo.main.form.id, verifyToken })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    const drafts = await demo.server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.formId, demo.main.form.id), eq(reportSubmissions.status, "Draft")));
    expect(drafts.length).toBe(FORM_DRAFTS_CAP);
    await clearDrafts();
    expect((await starter().send({ reportFormID: demo.main.form.id })).status).toBe(200);
  });

  test("files waiting in the organisation's unfinished drafts are bounded: past the cap an upload is refused", async () => {
    const [draft] = await demo.server.db.insert(reportSubmissions).values({ organisationId: demo.demoId, formId: demo.main.form.id, buildId: demo.main.form.deployedBuildId, status: "Draft" }).returning();
    const [blob] = await demo.server.db
      .insert(blobs)
      .values({ organisationId: demo.demoId, purpose: "Attachment", storageKey: "attachment/flood", fileName: "flood.bin", mimeType: "application/octet-stream", sizeBytes: ORGANISATION_DRAFT_BYTES_CAP - 3, sha256: "0" })
      .returning();
    await demo.server.db.insert(reportSubmissionAttachments).values({ submissionId: draft!.id, blobId: blob!.id, fileName: "flood.bin", fileSizeBytes: ORGANISATION_DRAFT_BYTES_CAP - 3, mimeType: "application/octet-stream" });

    const { reporter, send } = starter();
    // So much waiting makes starting cost work too.
    expect((await postSolving(send, { reportFormID: demo.main.form.id })).solved.length).toBe(1);
    // Uploading costs work too, past the drafts' free level (decision 060): asked for, then paid.
    const asked = await upload(reporter, "a.txt", "abc");
    expect(asked).toMatchObject({ status: 428, body: { code: "CHALLENGE_REQUIRED", challenge: { action: "report_upload" } } });
    const solution = solveChallenge(asked.body.challenge!);
    expect(await upload(reporter, "a.txt", "abc", "text/plain", solution)).toMatchObject({ status: 200, body: { fileName: "a.txt" } });
    expect(await upload(reporter, "b.txt", "more")).toMatchObject({ status: 400, body: { error: DRAFT_STORAGE_FULL } });
    await clearDrafts();
    await demo.server.db.delete(blobs).where(eq(blobs.id, blob!.id));
  });
});

describe("enquiries are bounded per organisation", () => {
  const ENQUIRY = `mutation ($org: ID!, $message: String!, $verifyToken: String) { guestSendEnquiry(organisationID: $org, message: $message, verifyToken: $verifyToken) { reportID pin } }`;
  type Answer = { data?: { guestSendEnquiry: { reportID: string } }; errors?: { message: string; extensions?: { code?: string; challenge?: ChallengeBody } }[] };

  test("past a few an hour each costs work; at the cap they are refused", async () => {
    const visitor = new ReporterClient(demo.server, "demo.localhost");
    const first = await visitor.gql<Answer["data"]>(ENQUIRY, { org: demo.demoId, message: "First question" });
    expect(first.data?.guestSendEnquiry.reportID).toBeTruthy();
    const [enquiry] = await demo.server.db.select().from(reportForms).where(and(eq(reportForms.organisationId, demo.demoId), eq(reportForms.type, "Enquiry")));
    const others = Array.from({ length: ENQUIRIES_FREE_PER_HOUR - 1 }, () => ({ organisationId: demo.demoId, formId: enquiry!.id, buildId: enquiry!.deployedBuildId, status: "New" as const, completed: true }));
    await demo.server.db.insert(reportSubmissions).values(others);

    const asked = (await visitor.gql(ENQUIRY, { org: demo.demoId, message: "Another question" })) as Answer;
    expect(asked.errors?.[0]?.extensions?.code).toBe("CHALLENGE_REQUIRED");
    const challenge = asked.errors![0]!.extensions!.challenge!;
    expect(challenge.action).toBe("enquiry");
    const paid = (await visitor.gql(ENQUIRY, { org: demo.demoId, message: "Another question", verifyToken: solveChallenge(challenge) })) as Answer;
    expect(paid.data?.guestSendEnquiry.reportID).toBeTruthy();

    const more = Array.from({ length: ENQUIRIES_CAP_PER_HOUR }, () => others[0]!);
    await demo.server.db.insert(reportSubmissions).values(more);
    const refused = (await visitor.gql(ENQUIRY, { org: demo.demoId, message: "One more" })) as Answer;
    expect(refused.errors?.[0]?.message).toBe(ENQUIRIES_FULL);
  });
});
