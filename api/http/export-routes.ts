import { Hono, type Context } from "hono";
import type { Services } from "../context.ts";
import { attachmentDisposition } from "../modules/files/file-name.ts";
import { EXPORT_CSP } from "../modules/exports/html.ts";
import { exportAllReports, exportReport, exportReportsCsv, type ExportFile } from "../modules/exports/service.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

/**
 * The console's report exports (spec, admin console §7 REST), mounted at /api/report-submissions.
 * Access rules and the audit entries live in modules/exports/service.ts.
 */

export function download(file: Pick<ExportFile, "body" | "contentType">, disposition: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.body.length),
      "Content-Disposition": disposition,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...extraHeaders,
    },
  });
}

/** The file names of the bulk exports are ASCII by construction, so the plain quoted form suffices (and every client reads it). */
export const plainDisposition = (fileName: string) => `attachment; filename="${fileName}"`;

/**
 * The POSTs take JSON only. A form or text/plain body is what a page on another (same-site)
 * host could make a browser send with the staff cookie, without a CORS preflight.
 */
export async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown> | Response> {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) return c.json({ error: "Export requests must be sent as JSON." }, 415);
  return readJsonObject(c);
}

export function exportRoutes(_services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/export/:id", async (c) => {
    try {
      const file = await exportReport(requestCtx(c), c.req.param("id"));
      // A download, but should a browser ever render it on our origin, it can run and load nothing.
      return download(file, attachmentDisposition(file.fileName), { "Content-Security-Policy": EXPORT_CSP });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/export-all", async (c) => {
    try {
      const body = await jsonBody(c);
      if (body instanceof Response) return body;
      const file = await exportAllReports(requestCtx(c), body);
      return download(file, plainDisposition(file.fileName));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/download-csv", async (c) => {
    try {
      const body = await jsonBody(c);
      if (body instanceof Response) return body;
      const file = await exportReportsCsv(requestCtx(c), body);
      return download(file, plainDisposition(file.fileName));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
