import type { TestServer } from "./server.ts";

/**
 * Waits until the server holds `count` live subscriptions on a topic, so an event sent next cannot
 * race the subscription it is meant for (a fixed sleep does, on a loaded machine).
 */
export async function untilListening(server: TestServer, topic: string, count = 1): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (server.lantern.services.pubsub.listenerCount(topic) < count) {
    if (Date.now() > deadline) throw new Error(`No live subscription on ${topic} after 20 s`);
    await Bun.sleep(20);
  }
}
