import { describe, expect, test } from "bun:test";
import { ANNOUNCEMENT_BURST_MS, CATCH_UP_PAGES, catchUpAfterReconnect, fetchBackUntilKnown, isLiveAnnouncement, knownAtDrop, UNANNOUNCED_CATCH_UP_MS, type HistoryPage } from "../../site/src/lib/live-catch-up.ts";

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

/** A chat of `total` messages, "m0" … ; pages of `size`, newest last, as the server answers them. */
function history(total: number, size: number) {
  const ids = Array.from({ length: total }, (_, i) => `m${i}`);
  const asked: (string | undefined)[] = [];
  const fetchPage = async (before: string | undefined): Promise<HistoryPage<{ id: string }>> => {
    asked.push(before);
    const end = before === undefined ? ids.length : ids.indexOf(before);
    const start = Math.max(0, end - size);
    return { ok: true, messages: ids.slice(start, end).map((id) => ({ id })), hasMore: start > 0 };
  };
  return { ids, asked, fetchPage };
}

describe("the chat's catch-up", () => {
  test("fetches back until a page meets a message already on screen, so a long drop leaves no hole", async () => {
    const chat = history(100, 10);
    const onScreen = new Set(chat.ids.slice(0, 75));
    const received = new Set<string>();
    const failure = await fetchBackUntilKnown(onScreen, chat.fetchPage, (messages) => messages.forEach((m) => received.add(m.id)));
    expect(failure).toBeUndefined();
    expect(chat.ids.slice(75).every((id) => received.has(id))).toBe(true);
    expect(chat.asked).toEqual([undefined, "m90", "m80"]);
  });

  test("a short drop costs one page; an empty or short chat stops where it ends", async () => {
    const recent = history(30, 10);
    await fetchBackUntilKnown(new Set(recent.ids.slice(0, 28)), recent.fetchPage, () => {});
    expect(recent.asked).toEqual([undefined]);
    const short = history(15, 10);
    await fetchBackUntilKnown(new Set(["elsewhere"]), short.fetchPage, () => {});
    expect(short.asked).toEqual([undefined, "m5"]);
    const empty = history(0, 10);
    await fetchBackUntilKnown(new Set(["elsewhere"]), empty.fetchPage, () => {});
    expect(empty.asked).toEqual([undefined]);
  });

  test(`stops after ${CATCH_UP_PAGES} pages, and says why a fetch failed`, async () => {
    const long = history(1_000, 10);
    await fetchBackUntilKnown(new Set(["m0"]), long.fetchPage, () => {});
    expect(long.asked).toHaveLength(CATCH_UP_PAGES);
    const failing = async (): Promise<HistoryPage<{ id: string }>> => ({ ok: false, message: "Unauthorized" });
    expect(await fetchBackUntilKnown(new Set(), failing, () => {})).toBe("Unauthorized");
  });

  test("reaches back to what was on screen at the drop, past the messages heard live since", async () => {
    // 50 on screen when the socket dropped; 51–54 were sent during the drop; 55–79 arrived live,
    // more than two pages, between the resubscription and the catch-up.
    const chat = history(80, 10);
    let onScreen = chat.ids.slice(0, 50).map((id) => ({ id }));
    const reachBack = knownAtDrop(() => onScreen);
    reachBack.dropped();
    onScreen = [...onScreen, ...chat.ids.slice(55).map((id) => ({ id }))];
    // A second drop before the catch-up has run does not move the mark past the first gap.
    reachBack.dropped();
    const received = new Set(onScreen.map((message) => message.id));
    expect(await fetchBackUntilKnown(reachBack.known(), chat.fetchPage, (messages) => messages.forEach((m) => received.add(m.id)))).toBeUndefined();
    expect(chat.ids.filter((id) => !received.has(id))).toEqual([]);
    // Once caught up, the next drop marks afresh; with no drop, the mark is what is on screen.
    reachBack.caughtUp();
    expect(reachBack.known().size).toBe(75);
  });
});
