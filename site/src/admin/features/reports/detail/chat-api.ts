// The staff side of a report's chat: history pages, live events, sending and read receipts.

export const CHAT_PAGE_SIZE = 10;
/** Spec section 9: incoming messages are marked read in batches every 500 ms. */
export const READ_BATCH_MS = 500;

const MESSAGE_FIELDS = 'id type message from fromUser { id firstName lastName } image { fileURL } createdAt read readAt';

/** Redaction of a span of a message (decision 053); the message comes back as it now reads. */
export const REDACT_MESSAGE_MUTATION = `mutation RedactMessage($id: ID!, $start: Int!, $end: Int!) {
  reportConversationMessageRedact(id: $id, start: $start, end: $end) { ${MESSAGE_FIELDS} } }`;
export const MESSAGES_QUERY = `query ReportChat($id: ID, $last: Int, $before: ID) {
  reportConversationMessages(reportSubmissionID: $id, last: $last, before: $before) { hasMore messages { ${MESSAGE_FIELDS} } } }`;
export const MESSAGE_SUBSCRIPTION = `subscription ReportChatLive($id: ID) {
  reportConversationMessage(reportSubmissionID: $id) { action message { ${MESSAGE_FIELDS} } } }`;
export const SEND_MUTATION = `mutation ReportChatSend($id: ID, $message: String!) {
  reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $message }) { ${MESSAGE_FIELDS} } }`;
// An image goes as a GraphQL multipart request: urql builds one by itself when a variable holds a
// File. Same mutation as the reporter's follow-up area; the server checks type and size again and
// strips the image's metadata.
export const SEND_IMAGE_MUTATION = `mutation ReportChatSendImage($id: ID, $caption: String, $imageFile: File!) {
  reportConversationSendMessage(reportSubmissionID: $id, input: { type: Image, message: $caption, imageFile: $imageFile }) { ${MESSAGE_FIELDS} } }`;
export const READ_MUTATION = `mutation ReportChatRead($id: ID, $messageIDs: [ID!]!) {
  reportConversationReadMessages(reportSubmissionID: $id, messageIDs: $messageIDs) }`;

export type ChatMessage = {
  id: string;
  type: 'Text' | 'Image' | 'System';
  message: string;
  from: 'Guest' | 'User';
  fromUser: { id: string; firstName: string; lastName: string } | null;
  image: { fileURL: string } | null;
  createdAt: string;
  read: boolean;
  readAt: string | null;
};

export type ChatEvent = { action: string; message: ChatMessage };

/**
 * Oldest first, one entry per id; later copies win, except that a message once read stays read
 * (a send's answer can arrive after the socket already said it was seen).
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(existing.map((message) => [message.id, message]));
  for (const message of incoming) {
    const known = byId.get(message.id);
    byId.set(message.id, known?.read && !message.read ? { ...message, read: true, readAt: known.readAt } : message);
  }
  return [...byId.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/** 'new' adds a message; 'seen' and 'redacted' update one already on screen. */
export function applyEvent(list: readonly ChatMessage[], event: ChatEvent): ChatMessage[] {
  if (event.action === 'new') return mergeMessages(list, [event.message]);
  if ((event.action === 'seen' || event.action === 'redacted') && list.some((message) => message.id === event.message.id)) return mergeMessages(list, [event.message]);
  return list as ChatMessage[];
}

/** Spec sections 5 and 9: one image of these types, at most 5,000,000 bytes. */
export const IMAGE_TYPES = ['.jpg', '.jpeg', '.png', '.svg', '.gif', '.bmp'] as const;
export const MAX_IMAGE_BYTES = 5_000_000;
export const UPLOAD_FAILED = 'Upload Failed';

/** Why a chosen file cannot be sent ('Invalid file', 'File size too large'), or null when it can. */
export function imageProblem(file: { name: string; size: number }): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!(IMAGE_TYPES as readonly string[]).includes(extension)) return 'Invalid file';
  if (file.size > MAX_IMAGE_BYTES) return 'File size too large';
  return null;
}
