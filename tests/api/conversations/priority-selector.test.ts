import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { CONVERSATIONS_QUERY, PRIORITY_MUTATION, type ConversationList } from "../../../site/src/admin/features/conversations/conversations-api.ts";
import { canSetPriority } from "../../../site/src/admin/features/conversations/conversation-rules.ts";
import { parseViewerData, VIEWER_QUERY } from "../../../site/src/admin/viewer.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

/**
 * The Conversations page offers its urgency selector only where the server's priority mutation
 * accepts the change: the console's documents, run as each demo role, against the real server.
 */

let server: TestServer;
let as: DemoStaff;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  as = await demoStaff(server);
  // The demo guest is on no team; put them on one report's, as an accepted invite would.
  const { demoId } = await demoOrganisationIds(server);
  const [guest] = await server.db.select().from(users).where(eq(users.email, "guest@demo.test"));
  const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Assigned")));
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: guest!.id, isOwner: false });
}, 30_000);
afterAll(async () => {
  await server.stop();
});

async function offeredAndAccepted(client: StaffClient) {
  const viewer = parseViewerData((await client.gql(VIEWER_QUERY)).data);
  if (!viewer) throw new Error("no viewer");
  const listed = await client.gql<{ reportConversations: ConversationList }>(CONVERSATIONS_QUERY, { limit: 100 });
  if (listed.errors) throw new Error(JSON.stringify(listed.errors));
  const rows = listed.data!.reportConversations.list;
  const outcomes: { offered: boolean; accepted: boolean }[] = [];
  for (const row of rows) {
    // The same priority again: the rule is tested, the demo's data stays as it was.
    const result = await client.gql(PRIORITY_MUTATION, { id: row.submission.id, priority: row.submission.priority });
    outcomes.push({ offered: canSetPriority(viewer, row), accepted: result.errors === undefined });
  }
  return outcomes;
}

describe("the urgency selector agrees with the priority mutation", () => {
  for (const role of ["owner", "admin", "member", "guest", "superAdmin"] as const) {
    test(`for the demo ${role}`, async () => {
      // A guest reaches reports only with two-factor authentication active (decision 032).
      if (role === "guest") await setTwoFactorActivated(server, "guest@demo.test", true);
      const outcomes = await offeredAndAccepted(as[role]).finally(() => role === "guest" && setTwoFactorActivated(server, "guest@demo.test", false));
      expect(outcomes.length).toBeGreaterThan(0);
      for (const outcome of outcomes) expect(outcome.offered).toBe(outcome.accepted);
      // Owners and admins may set every priority of their organisation; guests and the super admin none here.
      if (role === "owner" || role === "admin") expect(outcomes.every((outcome) => outcome.offered)).toBe(true);
      if (role === "guest" || role === "superAdmin") expect(outcomes.some((outcome) => outcome.offered)).toBe(false);
    });
  }
});
