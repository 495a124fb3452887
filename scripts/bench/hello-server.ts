/**
 * The baseline: the smallest Bun.serve there is, answering "hello" on loopback. Run as its own
 * process (like Lantern) so both figures include the same process and socket overheads.
 * Usage: PORT=1234 bun scripts/bench/hello-server.ts
 */
const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("hello-server: PORT must be set to a port number");
  process.exit(78);
}

const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response("hello") });

// Stops like Lantern's main.ts does, so the bench's SIGTERM ends it cleanly.
process.on("SIGTERM", () => {
  void server.stop(true).then(() => process.exit(0));
});
