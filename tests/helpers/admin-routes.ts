import { afterAll, beforeAll } from "bun:test";

type Routes = typeof import("../../site/src/admin/routes.tsx");

/**
 * Loads the console's route table for a test file. routes.tsx reaches the browser's location when
 * the router loads; a bare stand-in is enough here. Returns a getter, valid once beforeAll has run.
 */
export function useAdminRoutes(): () => Routes {
  const globals = globalThis as unknown as { window?: unknown };
  const hadWindow = "window" in globals;
  let routes: Routes | undefined;
  beforeAll(async () => {
    if (!hadWindow) globals.window = { location: { pathname: "/admin", search: "" }, addEventListener() {} };
    routes = await import("../../site/src/admin/routes.tsx");
  });
  afterAll(() => {
    if (!hadWindow) delete globals.window;
  });
  return () => routes!;
}
