// When a page fetches what it missed while its live socket was down. The fetch must come after the
// server listens again: an event published between the fetch and the moment the new instance took up
// the subscription would reach neither (decision 056). The server says when each resubscribed
// operation listens, in a pong carrying { live: <operation id> } (api/graphql/live-announcement.ts);
// the catch-up runs just after the last of that burst. A server that never says so (an older release
// during a rolling upgrade) still gets a catch-up, a moment after the reconnect.
// Framework-free, so the pages' client (live.ts) and the tests drive the same rules.

/** Announcements closer together than this are one burst: the resubscriptions of one reconnect. */
export const ANNOUNCEMENT_BURST_MS = 50;
/** With no announcement this long after the reconnect, the catch-up runs anyway. */
export const UNANNOUNCED_CATCH_UP_MS = 1_000;
/** Announcements this long after a reconnect belong to a page's new subscriptions, not to it. */
const RECONNECT_WINDOW_MS = 10_000;

export function isLiveAnnouncement(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && typeof (payload as { live?: unknown }).live === 'string';
}

export interface CatchUpAfterReconnect {
  /** The socket is back after a drop; its subscriptions are being sent again. */
  reconnected(): void;
  /** A pong arrived with this payload. */
  pong(payload: unknown): void;
  /** The socket closed, or the client is being let go of: nothing pending runs. */
  cancel(): void;
}

export function catchUpAfterReconnect(run: () => void): CatchUpAfterReconnect {
  let burstTimer: ReturnType<typeof setTimeout> | undefined;
  let fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  let windowEnds = 0;
  const cancel = () => {
    clearTimeout(burstTimer);
    clearTimeout(fallbackTimer);
    windowEnds = 0;
  };
  return {
    reconnected() {
      cancel();
      windowEnds = Date.now() + RECONNECT_WINDOW_MS;
      fallbackTimer = setTimeout(run, UNANNOUNCED_CATCH_UP_MS);
    },
    pong(payload) {
      if (!isLiveAnnouncement(payload) || Date.now() > windowEnds) return;
      clearTimeout(fallbackTimer);
      clearTimeout(burstTimer);
      burstTimer = setTimeout(run, ANNOUNCEMENT_BURST_MS);
    },
    cancel,
  };
}

/** One page of a chat's history, newest last, as both sides' pages fetch it. */
export type HistoryPage<M extends { id: string }> = { ok: true; messages: readonly M[]; hasMore: boolean } | { ok: false; message: string };

/** Pages fetched back at most, after a drop, to find where the list on screen left off. */
export const CATCH_UP_PAGES = 5;

/**
 * The catch-up of a chat: the newest page, then the ones before it, until a page meets a message
 * already on screen (or none is older). A long drop in a busy chat can leave more than one page
 * unseen; fetching only the newest would leave a hole in the middle of the list. Answers the failure
 * message when a fetch failed, otherwise undefined.
 */
export async function fetchBackUntilKnown<M extends { id: string }>(
  known: ReadonlySet<string>,
  fetchPage: (before: string | undefined) => Promise<HistoryPage<M>>,
  receive: (messages: readonly M[]) => void,
): Promise<string | undefined> {
  let before: string | undefined;
  for (let page = 0; page < CATCH_UP_PAGES; page += 1) {
    const result = await fetchPage(before);
    if (!result.ok) return result.message;
    receive(result.messages);
    const oldest = result.messages[0];
    if (!result.hasMore || !oldest || result.messages.some((message) => known.has(message.id))) return undefined;
    before = oldest.id;
  }
  return undefined;
}

/**
 * Where a chat's catch-up must reach back to: the messages on screen when the socket dropped. Those
 * added since, heard live once the socket was back or sent from this page, are newer than anything
 * the drop hid, so a page made only of them says nothing about where the gap ends: stopping at them
 * left the messages sent during the drop unfetched whenever more than a page arrived before the
 * catch-up ran. The first drop counts until a catch-up succeeds, so a second drop before then does
 * not move the mark past the first gap.
 */
export function knownAtDrop(onScreen: () => readonly { id: string }[]) {
  let atDrop: Set<string> | undefined;
  const current = () => new Set(onScreen().map((message) => message.id));
  return {
    dropped(): void {
      atDrop ??= current();
    },
    /** What the catch-up stops at: the mark if the socket dropped, else what is on screen. */
    known(): Set<string> {
      return atDrop ?? current();
    },
    caughtUp(): void {
      atDrop = undefined;
    },
  };
}
