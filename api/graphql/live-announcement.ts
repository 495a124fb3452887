/**
 * graphql-ws has no message that says "your subscription now listens": a client that reconnects and
 * then fetches what it missed may fetch before the new instance has taken up the subscription, and an
 * event published in between reaches neither (decision 056). So once an operation's event stream is
 * listening, the server says so in a `pong` carrying `{ live: <operation id> }`. The protocol lets
 * either side send a pong unasked, and clients that do not look at its payload ignore it; the pages
 * fetch their catch-up when it arrives (site/src/lib/live-catch-up.ts).
 */

export const LIVE_ANNOUNCEMENT_KEY = "live";

export function liveAnnouncement(operationId: string): string {
  return JSON.stringify({ type: "pong", payload: { [LIVE_ANNOUNCEMENT_KEY]: operationId } });
}

/**
 * The same stream, announcing itself when graphql-ws first asks it for an event. Most streams start
 * listening when their resolver returns, and the rest (repeaters) on that first `next()`, which is
 * called before the announcement is sent: either way the listener is in place before the client can
 * hear of it.
 */
export function announcingWhenListening<T>(stream: AsyncIterable<T>, announce: () => void): AsyncIterableIterator<T> {
  const inner = stream[Symbol.asyncIterator]();
  let announced = false;
  const announcing: AsyncIterableIterator<T> = {
    next() {
      const next = inner.next();
      if (!announced) {
        announced = true;
        announce();
      }
      return next;
    },
    return(value?: unknown) {
      return inner.return ? inner.return(value) : Promise.resolve({ done: true, value: undefined });
    },
    throw(error?: unknown) {
      return inner.throw ? inner.throw(error) : Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return announcing;
    },
  };
  return announcing;
}
