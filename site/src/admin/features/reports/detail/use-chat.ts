import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useClient } from 'urql';
import { onLiveDrop, onLiveReconnect } from '../../../../lib/live';
import { fetchBackUntilKnown, knownAtDrop, type HistoryPage } from '../../../../lib/live-catch-up';
import { ACTION_FAILED_MESSAGE } from '../../../../lib/action-failed';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { REDACTED_NOTICE } from './redaction-api';
import {
  applyEvent,
  CHAT_PAGE_SIZE,
  mergeMessages,
  MESSAGE_SUBSCRIPTION,
  MESSAGES_QUERY,
  READ_BATCH_MS,
  READ_MUTATION,
  REDACT_MESSAGE_MUTATION,
  SEND_IMAGE_MUTATION,
  SEND_MUTATION,
  UPLOAD_FAILED,
  type ChatEvent,
  type ChatMessage,
} from './chat-api';

type Page = { reportConversationMessages: { hasMore: boolean; messages: ChatMessage[] } };

const pageVisible = () => document.visibilityState === 'visible';

/**
 * A report's chat while the Messages tab is open: history ten at a time, live events, sending, and
 * read receipts for the reporter's messages (only when `markRead`: the team reads for the team).
 */
export function useChat(reportID: string, markRead: boolean) {
  const client = useClient();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [visible, setVisible] = useState(pageVisible);
  const marking = useRef(new Set<string>());
  const loadedOnce = useRef(false);
  const latest = useRef(messages);
  latest.current = messages;
  const reachBack = useMemo(() => knownAtDrop(() => latest.current), []);

  const receive = useCallback((incoming: readonly ChatMessage[]) => setMessages((list) => mergeMessages(list, incoming)), []);

  const fetchPage = useCallback(
    async (before?: string): Promise<HistoryPage<ChatMessage>> => {
      const result = await client.query<Page>(MESSAGES_QUERY, { id: reportID, last: CHAT_PAGE_SIZE, before: before ?? null }, { requestPolicy: 'network-only' }).toPromise();
      if (result.error || !result.data) return { ok: false, message: errorMessage(result.error) ?? ACTION_FAILED_MESSAGE };
      return { ok: true, ...result.data.reportConversationMessages };
    },
    [client, reportID],
  );

  const load = useCallback(
    async (before?: string) => {
      setLoading(true);
      const page = await fetchPage(before);
      setLoading(false);
      if (!page.ok) return setError(page.message);
      setError(undefined);
      receive(page.messages);
      // The first page and earlier pages say whether older messages remain; a catch-up reload does not.
      if (before !== undefined || !loadedOnce.current) setHasMore(page.hasMore);
      loadedOnce.current = true;
    },
    [fetchPage, receive],
  );

  /** Back after a drop: the newest pages until they meet the list on screen, so nothing sent meanwhile is missed. */
  const catchUp = useCallback(async () => {
    const known = reachBack.known();
    if (known.size === 0) {
      reachBack.caughtUp();
      return load();
    }
    const failure = await fetchBackUntilKnown(known, fetchPage, receive);
    setError(failure);
    if (!failure) reachBack.caughtUp();
  }, [fetchPage, load, receive, reachBack]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const live = client.subscription<{ reportConversationMessage: ChatEvent }>(MESSAGE_SUBSCRIPTION, { id: reportID }).subscribe((result) => {
      if (result.error) return setError(errorMessage(result.error));
      const event = result.data?.reportConversationMessage;
      if (event) setMessages((list) => applyEvent(list, event));
    });
    const stopDrop = onLiveDrop(() => reachBack.dropped());
    const stopCatchUp = onLiveReconnect(() => void catchUp());
    return () => {
      live.unsubscribe();
      stopDrop();
      stopCatchUp();
    };
  }, [client, reportID, catchUp, reachBack]);

  useEffect(() => {
    const onChange = () => setVisible(pageVisible());
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  // The reporter's messages on screen count as seen, in one batch; never while the page is hidden.
  useEffect(() => {
    if (!markRead || !visible) return;
    const unseen = messages.filter((message) => message.from === 'Guest' && !message.read && !marking.current.has(message.id));
    if (unseen.length === 0) return;
    const timer = window.setTimeout(async () => {
      const ids = unseen.map((message) => message.id);
      for (const id of ids) marking.current.add(id);
      const result = await client.mutation(READ_MUTATION, { id: reportID, messageIDs: ids }).toPromise();
      for (const id of ids) marking.current.delete(id);
      if (!result.error) receive(unseen.map((message) => ({ ...message, read: true })));
    }, READ_BATCH_MS);
    return () => window.clearTimeout(timer);
  }, [messages, visible, markRead, client, reportID, receive]);

  const loadEarlier = () => {
    if (!loading) void load(messages[0]?.id);
  };

  /** Sends a text; answers an error message, or undefined once sent. */
  const send = async (text: string): Promise<string | undefined> => {
    const result = await client.mutation<{ reportConversationSendMessage: ChatMessage }>(SEND_MUTATION, { id: reportID, message: text }).toPromise();
    if (result.error || !result.data) return errorMessage(result.error);
    receive([result.data.reportConversationSendMessage]);
    return undefined;
  };

  /** Sends an image with an optional caption; answers the server's reason on failure, or undefined once sent. */
  const sendImage = async (file: File, caption: string): Promise<string | undefined> => {
    const result = await client
      .mutation<{ reportConversationSendMessage: ChatMessage }>(SEND_IMAGE_MUTATION, { id: reportID, caption, imageFile: file })
      .toPromise();
    if (result.error || !result.data) return errorMessage(result.error) ?? UPLOAD_FAILED;
    receive([result.data.reportConversationSendMessage]);
    return undefined;
  };

  /** Redacts a span of a message (decision 053); answers an error message, or undefined once the chat shows it. */
  const redact = async (messageID: string, start: number, end: number): Promise<string | undefined> => {
    const result = await client.mutation<{ reportConversationMessageRedact: ChatMessage }>(REDACT_MESSAGE_MUTATION, { id: messageID, start, end }).toPromise();
    if (result.error || !result.data) return errorMessage(result.error);
    receive([result.data.reportConversationMessageRedact]);
    notify(REDACTED_NOTICE);
    return undefined;
  };

  return { messages, hasMore, loading, error, loadEarlier, send, sendImage, redact };
}
