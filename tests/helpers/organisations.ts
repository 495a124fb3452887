import type { SQL } from "drizzle-orm";
import { organisations } from "../../db/schema/index.ts";
import type { TestServer } from "./server.ts";

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
