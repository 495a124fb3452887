import { Hono } from "hono";
import type { Services } from "../context.ts";
import { exportUsers } from "../modules/users/export.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

/**
 * POST /api/admin/export/users {search: All | Active | Archived} (spec §7): a CSV named by
 * Content-Disposition. JSON only, like the report exports: a form post from another page could
 * otherwise carry the super admin's cookie without a preflight.
 */
export function userExportRoute(_services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/", async (c) => {
    try {
      if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) return c.json({ error: "Export requests must be sent as JSON." }, 415);
      const file = await exportUsers(requestCtx(c), await readJsonObject(c));
      return new Response(file.body, {
        headers: {
          "Content-Type": file.contentType,
          "Content-Length": String(file.body.length),
          "Content-Disposition": `attachment; filename="${file.fileName}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    } catch (error) {
      return errorResponse(c, error);
    }
  });
  return app;
}
