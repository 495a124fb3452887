import { createInvalidator, type Invalidator } from "../../api/lib/invalidation.ts";
import type { TestServer } from "./server.ts";

/**
 * A further instance's invalidator on a server's event channel, with a clock the test can move on:
 * moving it past the deaf limit makes the instance one that has not heard the channel lately.
 */
export interface ClockedInvalidator {
  invalidator: Invalidator;
  now: () => number;
  advance(ms: number): void;
}

export async function clockedInvalidator(server: TestServer): Promise<ClockedInvalidator> {
  let offset = 0;
  const now = () => Date.now() + offset;
  const invalidator = createInvalidator(server.lantern.services.pubsub, { now });
  const end = Date.now() + 10_000;
  while (!invalidator.hearing() && Date.now() < end) await Bun.sleep(10);
  if (!invalidator.hearing()) throw new Error("the invalidator never heard its own heartbeat");
  return { invalidator, now, advance: (ms) => (offset += ms) };
}
