import { afterAll, beforeAll } from "bun:test";
import type { SQL } from "drizzle-orm";
import { organisations } from "../../db/schema/index.ts";
import { createOrganisation } from "../factories/users.ts";
import { startTestServer, type TestServer } from "./server.ts";

/**
 * Changes organisation rows directly, for settings no mutation offers a test, and ends every
 * instance's cached copy of them as the organisation service does (decision 027): without the
 * announcement, a host would keep answering from its copy for up to the cache's backstop age.
 */
export async function updateOrganisations(server: TestServer, where: SQL, changes: Partial<typeof organisations.$inferInsert>): Promise<void> {
  const { invalidator } = server.lantern.services;
  const applied = await server.db.transaction(async (tx) => {
    const changed = await tx.update(organisations).set(changes).where(where).returning({ id: organisations.id });
    return invalidator.announce(tx, { organisationIds: changed.map((row) => row.id) });
  });
  await applied();
}

/**
 * A server and one organisation for this test file: started before its tests, stopped after.
 * Read `server` and `organisationId` inside tests, once they are set.
 */
export function serverWithOrganisation(): { readonly server: TestServer; readonly organisationId: string } {
  const state = {} as { server: TestServer; organisationId: string };
  beforeAll(async () => {
    state.server = await startTestServer();
    state.organisationId = (await createOrganisation(state.server.db)).id;
  });
  afterAll(() => state.server.stop());
  return state;
}
