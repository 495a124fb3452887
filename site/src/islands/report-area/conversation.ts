import * as v from 'valibot';
import { MESSAGE_SENDERS, MESSAGE_TYPES } from '../../../../api/shared/enums';
import { graphqlRequest } from '../../lib/graphql';
import { errorMessageFrom, FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { subscribe, type LiveError } from '../../lib/live';
import type { Failure } from './area-api';

// The reporter's side of the chat: history pages, sending, the live subscription,
// and one merge function that all of them feed.

export const MESSAGE_PAGE_SIZE = 10;

const messageSchema = v.object({
  id: v.string(),
  type: v.picklist(MESSAGE_TYPES),
  message: v.nullish(v.string(), ''),
  from: v.picklist(MESSAGE_SENDERS),
  createdAt: v.string(),
  read: v.nullish(v.boolean(), false),
  image: v.nullish(v.object({ fileURL: v.string() }), null),
});
export type ChatMessage = v.InferOutput<typeof messageSchema>;

const pageSchema = v.object({ messages: v.array(messageSchema), hasMore: v.boolean() });

const MESSAGE_FIELDS = 'id type message from createdAt read image { fileURL }';
const MESSAGES_QUERY = `query ReportConversationMessages($last: Int, $before: ID) {
  reportConversationMessages(last: $last, before: $before) { messages { ${MESSAGE_FIELDS} } hasMore } }`;
const READ_MUTATION = `mutation ReportConversationReadMessages($messageIDs: [ID!]!) { reportConversationReadMessages(messageIDs: $messageIDs) }`;
const MESSAGE_SUBSCRIPTION = `subscription ReportConversationMessage { reportConversationMessage { action message { ${MESSAGE_FIELDS} } } }`;
const SEND_TEXT_MUTATION = `mutation ReportConversationSendMessage($message: String!) {
  reportConversationSendMessage(input: { type: Text, message: $message }) { ${MESSAGE_FIELDS} } }`;
// Chat images travel as `imageFile` in the message input, over the GraphQL multipart request
// spec; the server checks the type and size again and strips the image's metadata.
const SEND_IMAGE_MUTATION = `mutation ReportConversationSendImage($imageFile: File!) {
  reportConversationSendMessage(input: { type: Image, message: "", imageFile: $imageFile }) { ${MESSAGE_FIELDS} } }`;

/**
 * Oldest first, one entry per id; later copies (read receipts, edits) win, except that a message once
 * read stays read: a send's answer can arrive after the socket already said the message was seen.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(existing.map((message) => [message.id, message]));
  for (const message of incoming) {
    const known = byId.get(message.id);
    byId.set(message.id, known?.read && !message.read ? { ...message, read: true } : message);
  }
  // Array sort is stable: messages stamped alike keep the order the server gave them.
  return [...byId.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/** The newest page, or the page before the given message id. */
export async function fetchMessages(before?: string): Promise<{ ok: true; messages: ChatMessage[]; hasMore: boolean } | Failure> {
  const result = await graphqlRequest(MESSAGES_QUERY, { last: MESSAGE_PAGE_SIZE, before: before ?? null });
  if (!result.ok) return result;
  const parsed = v.safeParse(pageSchema, (result.data as { reportConversationMessages?: unknown }).reportConversationMessages);
  return parsed.success ? { ok: true, ...parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

function parseSent(data: unknown): { ok: true; message: ChatMessage } | Failure {
  const parsed = v.safeParse(messageSchema, (data as { reportConversationSendMessage?: unknown } | null)?.reportConversationSendMessage);
  return parsed.success ? { ok: true, message: parsed.output } : { ok: false, message: FALLBACK_ERROR_MESSAGE };
}

const eventSchema = v.object({ action: v.string(), message: messageSchema });
export type ChatEvent = v.InferOutput<typeof eventSchema>;

/** `new` adds a message; `seen` and `redacted` update one already on screen (an older one stays out of the list). */
export function applyEvent(list: readonly ChatMessage[], event: ChatEvent): ChatMessage[] {
  if (event.action === 'new') return mergeMessages(list, [event.message]);
  if ((event.action === 'seen' || event.action === 'redacted') && list.some((message) => message.id === event.message.id)) return mergeMessages(list, [event.message]);
  return list as ChatMessage[];
}

/** Live chat events (the reporter always gets their own report's); answers the unsubscribe. */
export function subscribeMessages(onEvent: (event: ChatEvent) => void, onError: (error: LiveError) => void): () => void {
  return subscribe<{ reportConversationMessage?: unknown }>(MESSAGE_SUBSCRIPTION, undefined, (data) => {
    const parsed = v.safeParse(eventSchema, data.reportConversationMessage);
    if (parsed.success) onEvent(parsed.output);
  }, onError);
}

/** Read receipts for the organisation's messages the reporter has now seen. */
export async function markRead(messageIDs: readonly string[]): Promise<boolean> {
  const result = await graphqlRequest(READ_MUTATION, { messageIDs });
  return result.ok;
}

export async function sendText(message: string): Promise<{ ok: true; message: ChatMessage } | Failure> {
  const result = await graphqlRequest(SEND_TEXT_MUTATION, { message });
  return result.ok ? parseSent(result.data) : result;
}

/** An image goes as a GraphQL multipart request (the one call the JSON helper cannot make). */
export async function sendImage(file: File): Promise<{ ok: true; message: ChatMessage } | Failure> {
  const body = new FormData();
  body.append('operations', JSON.stringify({ query: SEND_IMAGE_MUTATION, variables: { imageFile: null } }));
  body.append('map', JSON.stringify({ 0: ['variables.imageFile'] }));
  body.append('0', file, file.name);
  try {
    const response = await fetch('/api/gql/query', { method: 'POST', body, credentials: 'same-origin', headers: { accept: 'application/json' } });
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) return { ok: false, message: errorMessageFrom(payload, response.status) };
    const errors = (payload as { errors?: { message?: unknown }[] } | undefined)?.errors;
    const firstError = errors?.[0]?.message;
    if (typeof firstError === 'string') return { ok: false, message: firstError };
    return parseSent((payload as { data?: unknown } | undefined)?.data);
  } catch {
    return { ok: false, message: FALLBACK_ERROR_MESSAGE };
  }
}

export const IMAGE_TYPES = ['.jpg', '.jpeg', '.png', '.svg', '.gif', '.bmp'];
export const MAX_IMAGE_BYTES = 5_000_000;

/** Spec section 5's image rule; null when the file may be sent. */
export function imageProblem(file: File): string | null {
  const dot = file.name.lastIndexOf('.');
  if (dot < 0 || !IMAGE_TYPES.includes(file.name.slice(dot).toLowerCase())) return 'Invalid file';
  if (file.size > MAX_IMAGE_BYTES) return 'File size too large';
  return null;
}
