import { useCallback, useEffect, useRef, useState } from 'react';
import { leaveIfSignedOut } from './area-api';
import { fetchMessages, markRead, mergeMessages, sendImage, sendText, type ChatMessage } from './conversation';

/** Spec (console): incoming messages are marked read after about 0.5 s of batching. */
const READ_BATCH_MS = 500;

/**
 * The message list and its actions. `receive` is how anything else adds messages: today the
 * history pages and the replies the reporter sends; later the live subscription, unchanged.
 */
export function useConversation(onRead?: () => unknown) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const sending = useRef(false);

  const receive = useCallback((incoming: readonly ChatMessage[]) => setMessages((list) => mergeMessages(list, incoming)), []);

  const load = useCallback(
    async (before?: string) => {
      setLoading(true);
      const result = await fetchMessages(before);
      setLoading(false);
      if (!result.ok) {
        if (!leaveIfSignedOut(result.message)) setError(result.message);
        return;
      }
      setError(undefined);
      receive(result.messages);
      setHasMore(result.hasMore);
    },
    [receive],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // Everything on screen from the organisation counts as seen.
  useEffect(() => {
    const unseen = messages.filter((message) => message.from === 'User' && !message.read);
    if (unseen.length === 0) return;
    const timer = window.setTimeout(async () => {
      if (!(await markRead(unseen.map((message) => message.id)))) return;
      receive(unseen.map((message) => ({ ...message, read: true })));
      onRead?.();
    }, READ_BATCH_MS);
    return () => window.clearTimeout(timer);
  }, [messages, receive, onRead]);

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

  return { messages, hasMore, loading, error, loadEarlier, send, receive };
}
