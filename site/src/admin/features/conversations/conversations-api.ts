import type { MessageSender, MessageType, PresenceStatus, Priority } from '../../../../../api/shared/enums';

// The Conversations page's calls (spec sections 5 and 7): the list, the signal that one of its
// chats changed, and the priority the urgency selector sets.

export type ConversationRow = {
  id: string;
  createdAt: string;
  concluded: boolean;
  closed: boolean;
  unreadMessages: number;
  /** The reporter's presence, as staff see it. */
  otherUserStatus: PresenceStatus;
  lastMessage: {
    type: MessageType;
    message: string;
    from: MessageSender;
    fromUser: { id: string; firstName: string; lastName: string } | null;
    createdAt: string;
  } | null;
  submission: {
    id: string;
    reportID: string;
    priority: Priority;
    status: string;
    archived: boolean;
    assignedUsers: { user: { id: string } }[];
    submissionForm: { id: string; organisationID: string; organisationName: string };
  };
};

export type ConversationList = { total: number; list: ConversationRow[] };

export const CONVERSATIONS_QUERY = `query ReportConversations($search: String, $organisationID: ID, $priority: Priority,
  $sortBy: ConversationSortKey, $sortDir: SortDirection, $limit: Int, $offset: Int) {
  reportConversations(search: $search, organisationID: $organisationID, priority: $priority, sortBy: $sortBy, sortDir: $sortDir, limit: $limit, offset: $offset) {
    total list { id createdAt concluded closed unreadMessages otherUserStatus
      lastMessage { type message from fromUser { id firstName lastName } createdAt }
      submission { id reportID priority status archived assignedUsers { user { id } } submissionForm { id organisationID organisationName } } } } }`;

/** Names the chat that changed (a message, the reporter's presence, the report itself); the page fetches again. */
export const CONVERSATIONS_SUBSCRIPTION = `subscription ReportConversationsLive($organisationID: ID) {
  reportConversations(organisationID: $organisationID) { submissionId action } }`;

/** The report's own priority mutation; the answer updates every cached view of the report. */
export const PRIORITY_MUTATION = `mutation ConversationPriority($id: ID!, $priority: Priority!) {
  reportSubmissionSetPriority(id: $id, priority: $priority) { id priority } }`;
