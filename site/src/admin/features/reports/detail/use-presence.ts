import { useCallback, useEffect, useRef } from 'react';
import { useClient, useSubscription } from 'urql';

// Chat presence (spec section 4): the reporter's status shown to staff, and the team's own status
// (online, typing while a reply is written, offline on leaving) sent for the reporter to see.

const PRESENCE_SUBSCRIPTION = `subscription ReportChatPresence($id: ID) {
  reportConversation(reportSubmissionID: $id) { otherUserStatus lastSeenAt lastTypedAt } }`;
const STATUS_MUTATION = `mutation ReportChatStatus($id: ID, $status: PresenceStatus!) {
  reportConversationUpdateUserStatus(reportSubmissionID: $id, status: $status) }`;

/** The server reads a status older than a minute as Offline; a visible tab says Online well within that. */
const HEARTBEAT_MS = 30_000;
/** Keystrokes closer together than this send one Typing. */
const TYPING_THROTTLE_MS = 2_000;
/** No keystroke for this long: back to Online. */
const TYPING_IDLE_MS = 4_000;

export type Presence = { otherUserStatus: 'Online' | 'Offline' | 'Typing'; lastSeenAt: string | null; lastTypedAt: string | null };
type Status = Presence['otherUserStatus'];

export function usePresence(reportID: string, announce: boolean) {
  const client = useClient();
  const [result] = useSubscription<{ reportConversation: Presence }, Presence>(
    { query: PRESENCE_SUBSCRIPTION, variables: { id: reportID } },
    (_previous, data) => data.reportConversation,
  );
  const lastTyping = useRef(0);
  const idleTimer = useRef<number>(undefined);

  const send = useCallback(
    (status: Status) => {
      if (announce) void client.mutation(STATUS_MUTATION, { id: reportID, status }).toPromise();
    },
    [client, reportID, announce],
  );

  useEffect(() => {
    if (!announce) return;
    const beat = () => {
      if (document.visibilityState === 'visible') send('Online');
    };
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    document.addEventListener('visibilitychange', beat);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(idleTimer.current);
      document.removeEventListener('visibilitychange', beat);
      send('Offline');
    };
  }, [announce, send]);

  /** Called on each keystroke in the reply box. */
  const typing = useCallback(() => {
    if (!announce) return;
    const now = Date.now();
    if (now - lastTyping.current > TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      send('Typing');
    }
    window.clearTimeout(idleTimer.current);
    idleTimer.current = window.setTimeout(() => {
      lastTyping.current = 0;
      send('Online');
    }, TYPING_IDLE_MS);
  }, [announce, send]);

  return { reporter: result.data, typing };
}
