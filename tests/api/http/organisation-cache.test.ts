import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organisations } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { DEAF_AFTER_MS } from "../../../api/lib/invalidation.ts";
import { findActiveOrganisation } from "../../../api/modules/organisations/public.ts";
import { OrganisationCache } from "../../../api/modules/organisations/organisation-cache.ts";
import { createOrganisation } from "../../factories/users.ts";
import { clockedInvalidator } from "../../helpers/clocked-invalidator.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";
import { loginAs } from "../../helpers/session.ts";

/**
 * Each instance keeps the organisations its hosts name (decision 027). A change to an organisation
 * must reach every instance before it answers: the other instance's next request on that host sees
 * the change, however often it served the old copy just before. Two instances need one Postgres
 * database; on PGlite the same promises are checked on one.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;

const NOT_FOUND = "Organisation was not found or is currently suspended.";
const UPDATE = `mutation ($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { id } }`;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
}, 60_000);
afterAll(() => pair.stop());

async function page(server: TestServer, slug: string): Promise<{ status: number; text: string }> {
  const response = await server.fetch("/", { host: `${slug}.localhost` });
  return { status: response.status, text: await response.text() };
}

describe("a cached organisation", () => {
  test("is served from the cache once its host has been asked", async () => {
    const organisation = await createOrganisation(first.db, { name: "Cached Org" });
    const before = second.lantern.services.organisationCache.size;
    expect((await page(second, organisation.slug)).status).toBe(200);
    expect(second.lantern.services.organisationCache.size).toBe(before + 1);
    expect((await page(second, organisation.slug)).text).toContain("Cached Org");
  });

  test("a settings change through the service shows at once on every instance", async () => {
    const [demo] = await first.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const superAdmin = await loginAs(first, "admin@lantern.test", DEMO_PASSWORD);
    for (let round = 0; round < 3; round += 1) {
      const name = `Demo renamed ${round}`;
      expect((await page(second, "demo")).text).not.toContain(name);
      const changed = await superAdmin.gql(UPDATE, { id: demo!.id, input: { name } });
      expect(changed.errors).toBeUndefined();
      expect((await page(second, "demo")).text).toContain(name);
      expect((await page(first, "demo")).text).toContain(name);
    }
  });

  test("a renamed organisation's old host is not found at once on every instance, and the new one is", async () => {
    const organisation = await createOrganisation(first.db, { name: "Renamed Org" });
    expect((await page(second, organisation.slug)).status).toBe(200);
    const newSlug = `${organisation.slug}-new`;
    await updateOrganisations(first, eq(organisations.id, organisation.id), { slug: newSlug });
    const old = await page(second, organisation.slug);
    expect(old.status).toBe(404);
    expect(old.text).toContain(NOT_FOUND);
    expect((await page(second, newSlug)).text).toContain("Renamed Org");
  });

  test("an archived organisation's host is not found at once on every instance", async () => {
    for (let round = 0; round < 3; round += 1) {
      const organisation = await createOrganisation(first.db);
      expect((await page(second, organisation.slug)).status).toBe(200);
      expect((await page(first, organisation.slug)).status).toBe(200);
      await updateOrganisations(first, eq(organisations.id, organisation.id), { archived: true });
      expect((await page(second, organisation.slug)).status).toBe(404);
      expect((await page(first, organisation.slug)).status).toBe(404);
    }
  });

  test("hosts that name no organisation are never kept, so a flood of them cannot push real ones out", async () => {
    const before = second.lantern.services.organisationCache.size;
    for (let index = 0; index < 20; index += 1) {
      expect((await page(second, `no-such-org-${index}`)).status).toBe(404);
    }
    expect(second.lantern.services.organisationCache.size).toBe(before);
  });
});

describe("an instance that cannot hear the invalidation channel", () => {
  test("serves no copy, and reads the organisation again", async () => {
    const { invalidator, now, advance } = await clockedInvalidator(first);
    try {
      const cache = new OrganisationCache(invalidator, { now });
      const organisation = await createOrganisation(first.db, { name: "Heard Org" });
      expect((await findActiveOrganisation(first.db, organisation.slug, cache))?.name).toBe("Heard Org");
      expect(cache.size).toBe(1);
      // A change no event announces (an operator's SQL): while the channel is heard, the copy answers.
      await first.db.update(organisations).set({ name: "Unheard Org" }).where(eq(organisations.id, organisation.id));
      expect((await findActiveOrganisation(first.db, organisation.slug, cache))?.name).toBe("Heard Org");
      // Silence for longer than the deaf limit (but not the backstop age): the copy is not served.
      advance(DEAF_AFTER_MS + 500);
      expect((await findActiveOrganisation(first.db, organisation.slug, cache))?.name).toBe("Unheard Org");
      expect(cache.size).toBe(0);
    } finally {
      await invalidator.close();
    }
  });
});
