export {};

/**
 * `bun run dev`: the API under `bun --watch` and Astro's dev server side by side. The API serves the
 * last site build; Astro's dev server (port 4321) hot-reloads the islands while you work on them.
 */
const api = Bun.spawn(["bun", "--watch", "api/main.ts"], { stdout: "inherit", stderr: "inherit", env: { ...process.env, NODE_ENV: "development" } });
const astro = Bun.spawn(["bun", "--bun", "astro", "dev", "--root", "site"], {
  stdout: "inherit",
  stderr: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
const stop = () => {
  api.kill();
  astro.kill();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
await Promise.race([api.exited, astro.exited]);
stop();
