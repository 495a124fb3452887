import { useCallback, useEffect, useState } from 'react';
import { LOGIN_PATH, loadUnreadCount } from './area-api';

const POLL_INTERVAL_MS = 15_000;

/**
 * The Messages badge. For now it polls; the `reportConversationTotalUnreadMessages`
 * subscription replaces the body of this hook without changing its callers.
 */
export function useUnreadCount(initial: number, enabled: boolean): { unread: number; refresh: () => Promise<void> } {
  const [unread, setUnread] = useState(initial);
  useEffect(() => setUnread(initial), [initial]);

  const refresh = useCallback(async () => {
    const result = await loadUnreadCount();
    if (!result.ok) return;
    // The session ended (idle or absolute timeout): back to the login page.
    if (result.unread === null) window.location.assign(LOGIN_PATH);
    else setUnread(result.unread);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => void refresh(), POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, refresh]);

  return { unread, refresh };
}
