import { organisations } from "../../db/schema/index.ts";
import type { TestServer } from "./server.ts";

/** The seeded demo organisations' ids. */
export async function demoOrganisationIds(server: TestServer): Promise<{ demoId: string; northwindId: string }> {
  const orgs = await server.db.select().from(organisations);
  return { demoId: orgs.find((o) => o.slug === "demo")!.id, northwindId: orgs.find((o) => o.slug === "northwind")!.id };
}
