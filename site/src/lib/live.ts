import { createClient, type Client } from 'graphql-ws/client';
import { catchUpAfterReconnect } from './live-catch-up';

// Live GraphQL subscriptions over one graphql-ws socket per page (protocol graphql-transport-ws on
// /api/gql/query). The socket opens with the first subscription and closes with the last (lazy);
// it is same-origin, so the session cookie goes with the upgrade request and nothing else is sent.
// Shared by the reporter's follow-up area and the admin console, so it stays framework-free:
// React reads the state with useSyncExternalStore(onLiveState, liveState).

const ENDPOINT = '/api/gql/query';
/** The spec's keep-alive: the server pings every 10 s, and so does the client. */
const KEEP_ALIVE_MS = 10_000;
/** No pong this long after our ping: the socket is dead even if the browser has not noticed. */
const PONG_TIMEOUT_MS = 5_000;
const MAX_RETRY_WAIT_MS = 30_000;
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

/** idle: nothing subscribed; reconnecting: something is, but the socket is down (or not up yet after a drop). */
export type LiveState = 'idle' | 'connecting' | 'connected' | 'reconnecting';
/** `closeCode` is set when the server ended the socket for good (4401: the staff session is gone). */
export type LiveError = { message: string; closeCode?: number };

let client: Client | undefined;
/** The client's socket once open: disposeLive() closes it at once, before whatever the caller does next. */
let socket: { close(code?: number, reason?: string): void } | undefined;
let state: LiveState = 'idle';
/** Whether the last socket went away while something was still subscribed. */
let dropped = false;
const active = new Set<() => void>();
const stateListeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();
const dropListeners = new Set<() => void>();

function setState(next: LiveState): void {
  if (next === state) return;
  state = next;
  for (const listener of [...stateListeners]) listener();
}

/** 1 s, 2 s, 4 s … at most 30 s, with up to 10 % jitter so clients do not return in step after a restart. */
function retryDelay(retries: number): number {
  const base = Math.min(1000 * 2 ** retries, MAX_RETRY_WAIT_MS);
  return base + Math.floor(Math.random() * base * 0.1);
}

function notifyReconnected(): void {
  for (const listener of [...reconnectListeners]) listener();
}

function liveClient(): Client {
  if (client) return client;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  // Pages fetch what they missed once the server listens again (live-catch-up.ts).
  const catchUp = catchUpAfterReconnect(() => {
    if (client === created && state === 'connected') notifyReconnected();
  });
  const created = createClient({
    url: () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${ENDPOINT}`,
    lazy: true,
    keepAlive: KEEP_ALIVE_MS,
    retryAttempts: Infinity,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, retryDelay(retries))),
    // Browsers report a refused connection as an `error` event before the close; retry those too
    // (the library still gives up on the protocol's fatal close codes, such as 4401).
    shouldRetry: () => true,
    // Events of a client disposeLive() has let go of no longer speak for the page.
    on: {
      opened: (opened) => {
        if (client === created) socket = opened as typeof socket;
      },
      connecting: () => {
        if (client === created) setState(dropped ? 'reconnecting' : 'connecting');
      },
      connected: () => {
        if (client !== created) return;
        setState('connected');
        if (!dropped) return;
        dropped = false;
        catchUp.reconnected();
      },
      closed: () => {
        clearTimeout(pongTimer);
        catchUp.cancel();
        if (client !== created) return;
        socket = undefined;
        dropped = active.size > 0;
        setState(dropped ? 'reconnecting' : 'idle');
        if (dropped) for (const listener of [...dropListeners]) listener();
      },
      ping: (received) => {
        if (received) return;
        clearTimeout(pongTimer);
        pongTimer = setTimeout(() => created.terminate(), PONG_TIMEOUT_MS);
      },
      pong: (received, payload) => {
        if (!received) return;
        // Any frame from the server shows the socket is alive, a live announcement too.
        clearTimeout(pongTimer);
        catchUp.pong(payload);
      },
    },
  });
  client = created;
  return created;
}

function errorOf(error: unknown): LiveError {
  if (Array.isArray(error)) return { message: messageOf(error[0]) };
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number') {
    const reason = 'reason' in error && typeof error.reason === 'string' ? error.reason : '';
    return { message: reason || FALLBACK_MESSAGE, closeCode: error.code };
  }
  return { message: messageOf(error) };
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message !== '') return error.message;
  return FALLBACK_MESSAGE;
}

/**
 * Starts a subscription; answers its unsubscribe. `onData` gets each result's `data`; a result
 * with errors (the server refusing the subscription, e.g. the session is gone) or a fatal close
 * goes to `onError` once and ends it. A dropped socket does not: it is retried and resubscribed.
 */
export function subscribe<T>(query: string, variables: Record<string, unknown> | undefined, onData: (data: T) => void, onError?: (error: LiveError) => void): () => void {
  let ended = false;
  const end = () => {
    if (ended) return false;
    ended = true;
    active.delete(stop);
    // The last subscription gone while the socket was down: nothing will reconnect it.
    if (active.size === 0 && state === 'reconnecting') {
      dropped = false;
      setState('idle');
    }
    return true;
  };
  const stop = () => {
    if (end()) release();
  };
  active.add(stop);
  const release = liveClient().subscribe<T>(variables ? { query, variables } : { query }, {
    next: (result) => {
      if (ended) return;
      if (result.errors?.length || !result.data) {
        if (end()) onError?.({ message: messageOf(result.errors?.[0]) });
        release();
        return;
      }
      onData(result.data);
    },
    error: (error) => {
      if (end()) onError?.(errorOf(error));
    },
    complete: () => {
      end();
    },
  });
  return stop;
}

/** The socket's state now; with onLiveState, the pair useSyncExternalStore takes. */
export function liveState(): LiveState {
  return state;
}

export function onLiveState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Called each time the socket is back after a drop, once the server listens again: refetch what may have been missed. */
export function onLiveReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Called when the socket goes away while something is subscribed: what a page shows then is what its catch-up must reach (live-catch-up.ts). */
export function onLiveDrop(listener: () => void): () => void {
  dropListeners.add(listener);
  return () => dropListeners.delete(listener);
}

/**
 * Ends every subscription and closes the socket, with no reconnect. Call it before signing out, so no
 * retry loop runs against a dead session. A later subscribe() starts a fresh client.
 */
export function disposeLive(): void {
  for (const stop of [...active]) stop();
  const closing = client;
  client = undefined;
  socket?.close(1000, 'Normal Closure');
  socket = undefined;
  dropped = false;
  setState('idle');
  void closing?.dispose();
}
