import { Hono } from "hono";
import type { Services } from "../context.ts";
import { exportOrganisationsCsv } from "../modules/organisations/export.ts";
import { errorResponse } from "./auth-routes.ts";
import { download, jsonBody, plainDisposition } from "./export-routes.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

/** POST /api/admin/export/organisations (spec §7 REST); the rules are modules/organisations/export.ts's. */
export function organisationExportRoutes(_services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/organisations", async (c) => {
    try {
      const body = await jsonBody(c);
      if (body instanceof Response) return body;
      const file = await exportOrganisationsCsv(requestCtx(c), body);
      return download(file, plainDisposition(file.fileName));
    } catch (error) {
      return errorResponse(c, error);
    }
  });
  return app;
}
