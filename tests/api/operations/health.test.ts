import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server.stop());

const answer = async (path: string, host?: string) => {
  const response = await server.fetch(path, host ? { host } : {});
  return { status: response.status, text: await response.text() };
};

describe("health", () => {
  test("/healthz says the process is alive, on any host", async () => {
    expect(await answer("/healthz")).toEqual({ status: 200, text: "ok" });
    expect(await answer("/healthz", "demo.localhost")).toEqual({ status: 200, text: "ok" });
  });

  test("/readyz is ready on a migrated database", async () => {
    expect(await answer("/readyz")).toEqual({ status: 200, text: "ready" });
  });

  test("/readyz is not ready while a migration this build ships is missing from the database, and says so in one line", async () => {
    await server.db.execute(sql`create table lantern_removed_migration as select * from __lantern_migrations where id = (select max(id) from __lantern_migrations)`);
    await server.db.execute(sql`delete from __lantern_migrations where id = (select max(id) from __lantern_migrations)`);
    const unready = await answer("/readyz");
    expect(unready).toEqual({ status: 503, text: "not ready: 1 migration is not applied" });
    expect(await answer("/healthz")).toEqual({ status: 200, text: "ok" });
    // Put back, it is ready again: nothing about readiness is cached.
    await server.db.execute(sql`insert into __lantern_migrations select * from lantern_removed_migration`);
    expect(await answer("/readyz")).toEqual({ status: 200, text: "ready" });
  });

  test("/readyz is not ready on a database that was never migrated", async () => {
    await server.db.execute(sql`alter table __lantern_migrations rename to lantern_migrations_aside`);
    try {
      expect(await answer("/readyz")).toEqual({ status: 503, text: "not ready: the database has not been migrated" });
    } finally {
      await server.db.execute(sql`alter table lantern_migrations_aside rename to __lantern_migrations`);
    }
    expect(await answer("/readyz")).toEqual({ status: 200, text: "ready" });
  });
});
