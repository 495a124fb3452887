import { ensureSiteBuilt } from "./site-build.ts";

// `bun run start`: build the site if needed, then migrate and serve (api/main.ts does both).
await ensureSiteBuilt();
await import("../api/main.ts");
