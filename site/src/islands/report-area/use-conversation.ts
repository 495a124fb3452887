import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { onLiveDrop, onLiveReconnect } from '../../lib/live';
import { fetchBackUntilKnown, knownAtDrop } from '../../lib/live-catch-up';
import { leaveIfSignedOut } from './area-api';
import { applyEvent, fetchMessages, markRead, mergeMessages, sendImage, sendText, subscribeMessages, type ChatMessage } from './conversation';

/** Spec (console): incoming messages are marked read after about 0.5 s of batching. */
const READ_BATCH_MS = 500;

function pageVisible(): boolean {
  return document.visibilityState === 'visible';
}

/**
 * The message list and its actions, live while mounted (the Messages tab is open). Everything that
 * adds messages goes through one merge, so a reply the reporter sends and its echo from the socket
 * are one entry.
 */
export function useConversation() {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [visible, setVisible] = useState(pageVisible);
  const sending = useRef(false);
  const marking = useRef(new Set<string>());
  const latest = useRef(messages);
  const reachBack = useMemo(() => knownAtDrop(() => latest.current), []);

  const receive = useCallback((incoming: readonly ChatMessage[]) => setMessages((list) => mergeMessages(list, incoming)), []);

  const fail = useCallback((message: string) => {
    if (!leaveIfSignedOut(message)) setError(message);
  }, []);

  const load = useCallback(
    async (before?: string) => {
      setLoading(true);
      const result = await fetchMessages(before);
      setLoading(false);
      if (!result.ok) return fail(result.message);
      setError(undefined);
      receive(result.messages);
      setHasMore(result.hasMore);
    },
    [receive, fail],
  );

  /** The socket is back: fetch the newest pages until they meet the list, so nothing sent meanwhile is missed. */
  const catchUp = useCallback(async () => {
    const known = reachBack.known();
    if (known.size === 0) {
      reachBack.caughtUp();
      return load();
    }
    const failure = await fetchBackUntilKnown(known, fetchMessages, receive);
    if (failure) fail(failure);
    else reachBack.caughtUp();
  }, [load, receive, fail, reachBack]);

  useEffect(() => {
    latest.current = messages;
  }, [messages]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const stopEvents = subscribeMessages(
      (event) => setMessages((list) => applyEvent(list, event)),
      (problem) => fail(problem.message),
    );
    const stopDrop = onLiveDrop(() => reachBack.dropped());
    const stopCatchUp = onLiveReconnect(() => void catchUp());
    return () => {
      stopEvents();
      stopDrop();
      stopCatchUp();
    };
  }, [catchUp, fail, reachBack]);

  useEffect(() => {
    const onChange = () => setVisible(pageVisible());
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  // Everything from the organisation on screen counts as seen, in one batch; not while the page is hidden.
  useEffect(() => {
    if (!visible) return;
    const unseen = messages.filter((message) => message.from === 'User' && !message.read && !marking.current.has(message.id));
    if (unseen.length === 0) return;
    const timer = window.setTimeout(async () => {
      const ids = unseen.map((message) => message.id);
      for (const id of ids) marking.current.add(id);
      const marked = await markRead(ids);
      for (const id of ids) marking.current.delete(id);
      if (marked) receive(unseen.map((message) => ({ ...message, read: true })));
    }, READ_BATCH_MS);
    return () => window.clearTimeout(timer);
  }, [messages, visible, receive]);

  const loadEarlier = () => {
    if (!loading) void load(messages[0]?.id);
  };

  /** Sends text or an image; answers an error message, or undefined when sent. */
  const send = async (content: string | File): Promise<string | undefined> => {
    if (sending.current) return undefined;
    sending.current = true;
    try {
      const result = typeof content === 'string' ? await sendText(content) : await sendImage(content);
      if (!result.ok) return leaveIfSignedOut(result.message) ? undefined : result.message;
      receive([result.message]);
      return undefined;
    } finally {
      sending.current = false;
    }
  };

  return { messages, hasMore, loading, error, loadEarlier, send };
}
