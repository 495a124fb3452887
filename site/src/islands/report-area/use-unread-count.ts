import { useEffect, useState } from 'react';
import { subscribe } from '../../lib/live';
import { leaveIfSignedOut } from './area-api';

const UNREAD_SUBSCRIPTION = 'subscription ReporterUnreadMessages { reportConversationTotalUnreadMessages }';

/**
 * The Messages badge, live: the subscription answers the current count at once and again on every
 * change (new messages, read receipts), on whichever tab is open. `initial` (the submission's
 * `unreadMessages`, fetched with the page) shows until the socket answers.
 */
export function useUnreadCount(initial: number, enabled: boolean): number {
  const [unread, setUnread] = useState(initial);
  useEffect(() => setUnread(initial), [initial]);

  useEffect(() => {
    if (!enabled) return;
    return subscribe<{ reportConversationTotalUnreadMessages: number }>(
      UNREAD_SUBSCRIPTION,
      undefined,
      (data) => setUnread(data.reportConversationTotalUnreadMessages),
      // Only a gone session matters here; otherwise the last known count stays.
      (error) => void leaveIfSignedOut(error.message),
    );
  }, [enabled]);

  return unread;
}
