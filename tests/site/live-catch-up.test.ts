import { describe, expect, test } from "bun:test";
import { ANNOUNCEMENT_BURST_MS, catchUpAfterReconnect, isLiveAnnouncement, UNANNOUNCED_CATCH_UP_MS } from "../../site/src/lib/live-catch-up.ts";

/**
 * When a reconnected page fetches what it missed: after the server says its subscriptions listen
 * again, once per burst of announcements; without any announcement (an older server), a moment later.
 * The waits below only let the rules' own timers run; nothing here measures time.
 */

const announcement = (id: string) => ({ live: id });
const settle = (ms: number) => Bun.sleep(ms + 100);

function counted() {
  let runs = 0;
  const catchUp = catchUpAfterReconnect(() => (runs += 1));
  return { catchUp, runs: () => runs };
}

describe("the catch-up after a reconnect", () => {
  test("waits for the server's announcements and runs once after the burst of them", async () => {
    const { catchUp, runs } = counted();
    catchUp.reconnected();
    expect(runs()).toBe(0);
    for (const id of ["1", "2", "3"]) {
      catchUp.pong(announcement(id));
      expect(runs()).toBe(0);
    }
    await settle(ANNOUNCEMENT_BURST_MS);
    expect(runs()).toBe(1);
    // The fallback was called off by the first announcement.
    await settle(UNANNOUNCED_CATCH_UP_MS);
    expect(runs()).toBe(1);
  });

  test("a keep-alive pong is no announcement: with none, the catch-up still runs, once", async () => {
    const { catchUp, runs } = counted();
    catchUp.reconnected();
    catchUp.pong(undefined);
    catchUp.pong({ live: 7 });
    await settle(ANNOUNCEMENT_BURST_MS);
    expect(runs()).toBe(0);
    await settle(UNANNOUNCED_CATCH_UP_MS);
    expect(runs()).toBe(1);
  });

  test("announcements with no reconnect before them (a page's first subscriptions) fetch nothing", async () => {
    const { catchUp, runs } = counted();
    catchUp.pong(announcement("1"));
    await settle(ANNOUNCEMENT_BURST_MS);
    expect(runs()).toBe(0);
  });

  test("a socket that closes again before the catch-up runs cancels it", async () => {
    const { catchUp, runs } = counted();
    catchUp.reconnected();
    catchUp.pong(announcement("1"));
    catchUp.cancel();
    catchUp.pong(announcement("2"));
    await settle(UNANNOUNCED_CATCH_UP_MS);
    expect(runs()).toBe(0);
  });

  test("only a pong payload naming an operation counts", () => {
    expect(isLiveAnnouncement({ live: "abc" })).toBe(true);
    for (const payload of [undefined, null, "live", { live: 1 }, { live: null }, { other: "abc" }, []]) expect(isLiveAnnouncement(payload)).toBe(false);
  });
});
