import { useCallback, useEffect, useMemo, useRef } from 'react';

// Chat presence as one side announces it (spec: online, typing while text is being entered,
// offline on leaving). Shared by the console's Messages tab and the reporter's follow-up area, so
// both sides keep the same rhythm the server expects.

export type PresenceStatus = 'Online' | 'Offline' | 'Typing';

/** The server reads a status older than a minute as Offline; a visible tab says Online well within that. */
const HEARTBEAT_MS = 30_000;
/** Keystrokes closer together than this send one Typing. */
const TYPING_THROTTLE_MS = 2_000;
/** No keystroke for this long: back to Online. */
const TYPING_IDLE_MS = 4_000;

export type PresenceAnnouncer = {
  /** Call on each keystroke in the message box. */
  typing: () => void;
  /** Call once a message is sent: the other side stops seeing "typing" at once. */
  sent: () => void;
};

/**
 * While mounted and `enabled`, says Online now, again every 30 s while the tab is visible, and
 * Offline when unmounted; Typing while text is being entered.
 */
export function usePresenceAnnouncer(send: (status: PresenceStatus) => void, enabled: boolean): PresenceAnnouncer {
  const lastTyping = useRef(0);
  const idleTimer = useRef<number>(undefined);
  const sendRef = useRef(send);
  sendRef.current = send;

  useEffect(() => {
    if (!enabled) return;
    const beat = () => {
      if (document.visibilityState === 'visible') sendRef.current('Online');
    };
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    document.addEventListener('visibilitychange', beat);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(idleTimer.current);
      document.removeEventListener('visibilitychange', beat);
      lastTyping.current = 0;
      sendRef.current('Offline');
    };
  }, [enabled]);

  const typing = useCallback(() => {
    if (!enabled) return;
    const now = Date.now();
    if (now - lastTyping.current > TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      sendRef.current('Typing');
    }
    window.clearTimeout(idleTimer.current);
    idleTimer.current = window.setTimeout(() => {
      lastTyping.current = 0;
      sendRef.current('Online');
    }, TYPING_IDLE_MS);
  }, [enabled]);

  const sent = useCallback(() => {
    if (!enabled || lastTyping.current === 0) return;
    window.clearTimeout(idleTimer.current);
    lastTyping.current = 0;
    sendRef.current('Online');
  }, [enabled]);

  return useMemo(() => ({ typing, sent }), [typing, sent]);
}
