import { ROW_FIELDS, type ReportRow } from '../reports-api';

// The report screen's calls. Mutations answer the report, so urql's document cache refetches
// every query holding it (the header, the tabs) without being told.

export type ReportDetail = ReportRow & {
  createdAt: string;
  updatedAt: string;
  internalReference: string | null;
  isOwner: boolean;
  isMuted: boolean;
  hasChat: boolean;
  attachmentsCount: number;
  unreadMessages: number;
  submissionForm: ReportRow['submissionForm'] & { hasChat: boolean; allowChatFileUploads: boolean };
};

export const DETAIL_QUERY = `query ReportDetail($id: ID!) { reportSubmissionGet(id: $id) { ${ROW_FIELDS}
  createdAt updatedAt internalReference isOwner isMuted hasChat attachmentsCount unreadMessages
  submissionForm { id hasChat allowChatFileUploads } } }`;

export const ANSWERS_QUERY = `query ReportAnswers($id: ID!) { reportSubmissionGet(id: $id) { id pagesCount
  answers { name answers { widgetID title type answer } } } }`;

export type AnswerPage = { name: string; answers: { widgetID: string; title: string; type: string; answer: string[] }[] };

/** The attachments with whether their identifying metadata was removed before storing (docs/decisions/048-clean-files.md). */
export const ATTACHMENTS_QUERY = `query ReportAttachments($id: ID!) { reportSubmissionGet(id: $id) { id
  attachments { id fileName fileSizeBytes fileURL mimeType metadataRemoved } } }`;

export type Attachment = { id: string; fileName: string; fileSizeBytes: number; fileURL: string; mimeType: string; metadataRemoved: boolean };

const REPORT_RESULT = 'id status priority archived isMuted internalReference isOwner updatedAt';

export const CLOSE_MUTATION = `mutation ReportClose($id: ID!, $completeStatus: SubmissionStatus!, $note: String) {
  reportSubmissionClose(id: $id, completeStatus: $completeStatus, note: $note) { ${REPORT_RESULT} } }`;
export const OPEN_MUTATION = `mutation ReportOpen($id: ID!) { reportSubmissionOpen(id: $id) { ${REPORT_RESULT} } }`;
export const LEAVE_MUTATION = 'mutation ReportLeave($id: ID!) { reportSubmissionLeave(id: $id) }';
export const FORWARD_MUTATION = `mutation ReportForward($id: ID!, $email: String!) {
  reportSubmissionForwardEmail(id: $id, email: $email) { id } }`;
export const PRIORITY_MUTATION = `mutation ReportPriority($id: ID!, $priority: Priority!) {
  reportSubmissionSetPriority(id: $id, priority: $priority) { ${REPORT_RESULT} } }`;
export const MUTE_MUTATION = `mutation ReportMute($id: ID!, $muted: Boolean!) {
  reportSubmissionMuteNotification(id: $id, muted: $muted) { ${REPORT_RESULT} } }`;
export const REFERENCE_MUTATION = `mutation ReportReference($id: ID!, $internalReference: String!) {
  reportSubmissionInternalReference(id: $id, internalReference: $internalReference) { ${REPORT_RESULT} } }`;
export const ASSIGN_TAGS_MUTATION = `mutation ReportAssignTags($id: ID!, $tags: [ID!]!) {
  reportSubmissionAssignTags(id: $id, tags: $tags) { id tags { id name isInternal } } }`;
export const JOIN_MUTATION = `mutation ReportJoin($id: ID!) { reportSubmissionJoin(id: $id) { ${REPORT_RESULT} } }`;

export const ASSIGNABLE_QUERY = `query ReportAssignable($id: ID!, $search: String, $limit: Int, $offset: Int) {
  reportSubmissionAssignableUsers(reportSubmissionID: $id, search: $search, limit: $limit, offset: $offset) {
    total list { id firstName lastName email suspended role { name label } organisation { id name } } } }`;

export type AssignableUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  suspended: boolean;
  role: { name: string; label: string };
  organisation: { id: string; name: string } | null;
};

export const ASSIGN_MUTATION = `mutation ReportAssign($id: ID!, $userID: ID!) { reportSubmissionAssignUser(id: $id, userID: $userID) { ${REPORT_RESULT} } }`;
export const UNASSIGN_MUTATION = `mutation ReportUnassign($id: ID!, $userID: ID!) { reportSubmissionUnassignUser(id: $id, userID: $userID) { ${REPORT_RESULT} } }`;
export const CHANGE_OWNER_MUTATION = `mutation ReportChangeOwner($id: ID!, $userID: ID!) { reportSubmissionChangeOwner(id: $id, userID: $userID) { ${REPORT_RESULT} } }`;

const NOTE_FIELDS = 'id note newStatus createdAt updatedAt archived editable deletable author { id firstName lastName role }';
export const NOTES_QUERY = `query ReportNotes($id: ID!, $limit: Int, $offset: Int) {
  reportSubmissionNotes(reportSubmissionID: $id, limit: $limit, offset: $offset) { total list { ${NOTE_FIELDS} } } }`;
export const NOTE_CREATE_MUTATION = `mutation ReportNoteCreate($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { ${NOTE_FIELDS} } }`;
export const NOTE_UPDATE_MUTATION = `mutation ReportNoteUpdate($id: ID!, $note: String!) { reportSubmissionNoteUpdate(id: $id, note: $note) { ${NOTE_FIELDS} } }`;
export const NOTE_ARCHIVE_MUTATION = `mutation ReportNoteArchive($id: ID!) { reportSubmissionNoteArchive(id: $id) { ${NOTE_FIELDS} } }`;

export type ReportNote = {
  id: string;
  note: string;
  newStatus: string | null;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  editable: boolean;
  deletable: boolean;
  author: { id: string; firstName: string; lastName: string; role: string } | null;
};

export const UNREAD_SUBSCRIPTION = `subscription ReportUnread($id: ID) { reportConversationTotalUnreadMessages(reportSubmissionID: $id) }`;

const INVITE_FIELDS = 'id email status createdAt archived';
export const INVITES_QUERY = `query ReportInvites($id: ID!) { reportSubmissionInvites(reportSubmissionID: $id) { ${INVITE_FIELDS} } }`;
export const INVITE_MUTATION = `mutation ReportInvite($id: ID!, $email: String!) { reportSubmissionInviteUser(id: $id, email: $email) { ${INVITE_FIELDS} } }`;
export const INVITE_REMOVE_MUTATION = `mutation ReportInviteRemove($id: ID!) { reportSubmissionInviteRemove(id: $id) { ${INVITE_FIELDS} } }`;

export type GuestInvite = { id: string; email: string; status: string; createdAt: string; archived: boolean };
