import { Hono } from "hono";
import * as v from "valibot";
import type { Services } from "../context.ts";
import { isUuid } from "../lib/ids.ts";
import { logInfo } from "../lib/log.ts";
import { parseWith } from "../lib/validation.ts";
import { AnswersInput } from "../modules/reporting/answers.ts";
import { startReport } from "../modules/reporting/draft.ts";
import { redeemHandoff, reportLogin } from "../modules/reporting/login.ts";
import { deleteReporterSession } from "../modules/reporting/sessions.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS, REPORTER_COOKIE } from "../modules/reporting/session-policy.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import { cookieCollector } from "./cookies.ts";
import { requestCtx } from "./request-context.ts";
import type { AppEnv } from "./types.ts";

const required = v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(200, "Too long"));
/** A solved proof-of-work challenge, when the server asked for one (docs/decisions/016-proof-of-work.md). */
const VerifyToken = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, "Too long"))), null);
const StartInput = v.object({ reportFormID: required, answers: v.optional(AnswersInput, []), verifyToken: VerifyToken });
const LoginInput = v.object({ reportID: required, password: v.pipe(v.string("Required"), v.nonEmpty("Required"), v.maxLength(200, "Too long")), verifyToken: VerifyToken });
const HandoffInput = v.object({ handoff: required });

/** The reporter's REST calls (docs/decisions/008-reporter-api.md). */
export function reportRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const maxAge = Math.floor(REPORTER_ABSOLUTE_TIMEOUT_MS / 1000);
  const secure = services.config.protocol === "https";
  let lastMissingFormLog = 0;

  app.post("/report_start", async (c) => {
    const collector = cookieCollector(secure);
    try {
      const input = parseWith(StartInput, await readJsonObject(c));
      const result = await startReport(requestCtx(c, collector.cookies), input.reportFormID, input.answers, input.verifyToken);
      return collector.apply(c.json(result));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/report_finish", async (c) => {
    const body = await readJsonObject(c).catch(() => ({}) as Record<string, unknown>);
    if (!isUuid(body.reportFormID)) {
      // The spec's guard: without a form id, log and do nothing. Quick Exit outside a form sends none,
      // so this is normal use, not an error. Anyone can call this, so the line is written at most
      // once a minute: a flood of such calls must not fill the log.
      if (Date.now() - lastMissingFormLog > 60_000) {
        lastMissingFormLog = Date.now();
        logInfo("report_finish called without a reportFormID (Quick Exit outside a form)");
      }
      return c.json({ ok: false });
    }
    const actor = c.get("state").actor;
    if (actor.kind === "reporter") await deleteReporterSession(services.database.db, services.invalidator, actor.sessionTokenHash);
    const collector = cookieCollector(secure);
    collector.cookies.clear(REPORTER_COOKIE);
    return collector.apply(c.json({ ok: true }));
  });

  app.post("/report_login", async (c) => {
    const collector = cookieCollector(secure);
    try {
      const input = parseWith(LoginInput, await readJsonObject(c));
      const result = await reportLogin(requestCtx(c), input.reportID, input.password, input.verifyToken);
      if (result.token) collector.cookies.set(REPORTER_COOKIE, result.token, maxAge);
      return collector.apply(c.json({ organisationSlug: result.organisationSlug, ...(result.handoff ? { handoff: result.handoff } : {}) }));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  app.post("/report_handoff", async (c) => {
    const collector = cookieCollector(secure);
    try {
      const input = parseWith(HandoffInput, await readJsonObject(c));
      collector.cookies.set(REPORTER_COOKIE, await redeemHandoff(requestCtx(c), input.handoff), maxAge);
      return collector.apply(c.json({ ok: true }));
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
