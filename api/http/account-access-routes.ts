import { Hono } from "hono";
import type { Services } from "../context.ts";
import { ACCOUNT_VERIFIED } from "../shared/messages.ts";
import { verifyAccount } from "../modules/account-access/verification.ts";
import { errorResponse, readJsonObject } from "./auth-routes.ts";
import type { AppEnv } from "./types.ts";

/** The account-access REST calls of spec §7, mounted under /api/auth. */
export function accountAccessRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  app.post("/verify_account", async (c) => {
    try {
      await verifyAccount(services, await readJsonObject(c));
      return c.json({ verified: true, message: ACCOUNT_VERIFIED });
    } catch (error) {
      return errorResponse(c, error);
    }
  });

  return app;
}
