import { organisations } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { demoStaff, loginAs } from "./session.ts";

/** The seeded demo organisations' ids. */
export async function demoOrganisationIds(server: TestServer): Promise<{ demoId: string; northwindId: string }> {
  const orgs = await server.db.select().from(organisations);
  return { demoId: orgs.find((o) => o.slug === "demo")!.id, northwindId: orgs.find((o) => o.slug === "northwind")!.id };
}

/** A server with the demo data, Demo's staff signed in, Northwind's owner, and both organisations' ids. */
export async function startDemoWithStaff() {
  const server = await startTestServer();
  await seedDemo(server.db);
  const [as, northwind, ids] = await Promise.all([demoStaff(server), loginAs(server, "owner@northwind.test", DEMO_PASSWORD), demoOrganisationIds(server)]);
  return { server, as, northwind, ...ids };
}
