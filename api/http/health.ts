import { Hono } from "hono";
import { sql } from "drizzle-orm";
import type { Services } from "../context.ts";
import type { AppEnv } from "./types.ts";

/** /healthz: the process answers. /readyz: it can also reach its database. */
export function healthRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get("/healthz", (c) => c.text("ok"));
  app.get("/readyz", async (c) => {
    try {
      await services.database.db.execute(sql`select 1`);
      return c.text("ready");
    } catch {
      return c.text("database unavailable", 503);
    }
  });
  return app;
}
