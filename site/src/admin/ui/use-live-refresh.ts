import { useEffect, useRef } from 'react';
import { useSubscription } from 'urql';
import { onLiveReconnect } from '../../lib/live';

/** How often numbers are fetched again when the server offers no subscription for them. */
export const FALLBACK_REFRESH_MS = 30_000;

type LiveRefreshOptions<Data> = {
  /** A subscription document; each event it sends calls onEvent. */
  subscription: string;
  variables?: Record<string, unknown>;
  pause?: boolean;
  onEvent: (data?: Data) => void;
};

export type LiveMode = 'off' | 'live' | 'polling';

/**
 * Keeps a screen's numbers fresh: live while the subscription runs, and after a dropped socket comes
 * back. If the server refuses the subscription (an older server without the field, say), it falls
 * back to fetching again every 30 seconds.
 */
export function useLiveRefresh<Data = unknown>({ subscription, variables, pause = false, onEvent }: LiveRefreshOptions<Data>): LiveMode {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  const [result] = useSubscription<Data, Data>({ query: subscription, variables, pause }, (_previous, data) => {
    latest.current(data);
    return data;
  });
  const failed = !pause && result.error !== undefined;

  useEffect(() => {
    if (pause) return;
    return onLiveReconnect(() => latest.current());
  }, [pause]);

  useEffect(() => {
    if (!failed) return;
    const timer = window.setInterval(() => latest.current(), FALLBACK_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [failed]);

  if (pause) return 'off';
  return failed ? 'polling' : 'live';
}
