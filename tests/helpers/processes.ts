import { createServer } from "node:net";

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Polls /readyz until it answers 200 or the time is up. */
export async function waitForReady(origin: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${origin}/readyz`);
      if (response.status === 200) return true;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  return false;
}

/**
 * A port that answers no request: every connection is closed as it arrives. Held until `close`, so
 * unlike a port found free and let go (freePort), no server started meanwhile can be given it.
 */
export function unansweringPort(): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (typeof address !== "object" || !address) return reject(new Error("no port"));
      resolve({ port: address.port, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
