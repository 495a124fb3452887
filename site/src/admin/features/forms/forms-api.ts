// The report form documents this feature sends (the contract of issue 9).

export type PublishState = 'Unpublished' | 'Published' | 'Outdated';

export type FormRow = {
  id: string;
  name: string;
  createdAt: string;
  archived: boolean;
  locked: boolean;
  notesCount: number;
  publishState: PublishState;
};

export type FormBuild = { id: string; revision: number; createdAt: string; author: { id: string; email: string } | null };

export type FormDetail = FormRow & {
  organisationID: string;
  publicURL: string | null;
  currentBuild: FormBuild | null;
};

export type TemplateTile = { id: string; name: string };

const ROW_FIELDS = 'id name createdAt archived locked notesCount publishState';
const DETAIL_FIELDS = `${ROW_FIELDS} organisationID publicURL currentBuild { id revision createdAt author { id email } }`;

export const FORMS_QUERY = `query ReportForms($organisationID: ID, $search: String, $filter: ListFilter, $limit: Int, $offset: Int) {
  reportForms(organisationID: $organisationID, search: $search, filter: $filter, limit: $limit, offset: $offset) { total list { ${ROW_FIELDS} } } }`;

export const FORM_QUERY = `query ReportForm($id: ID!) { reportFormGet(id: $id) { ${DETAIL_FIELDS} } }`;

export const TEMPLATES_QUERY = `query FormTemplateTiles($search: String, $limit: Int, $offset: Int) {
  reportFormTemplates(search: $search, filter: Active, limit: $limit, offset: $offset) { total list { id name } } }`;

export type FormReport = {
  id: string;
  reportID: string;
  internalReference: string | null;
  status: string;
  updatedAt: string;
  completedAt: string | null;
  assignedUsers: { user: { firstName: string; lastName: string } }[];
  submissionForm: { id: string };
};

const REPORT_FIELDS = 'id reportID internalReference status updatedAt completedAt assignedUsers { user { id firstName lastName } } submissionForm { id }';
export const FORM_REPORTS_QUERY = `query FormReports($reportFormID: ID!, $organisationID: ID, $limit: Int) {
  reportSubmissions(reportFormID: $reportFormID, search: { organisationID: $organisationID }, limit: $limit, offset: 0) { total list { ${REPORT_FIELDS} } } }`;

const mutation = (name: string, field: string) => `mutation ${name}($id: ID!) { ${field}(id: $id) { ${DETAIL_FIELDS} } }`;
export const ARCHIVE_MUTATION = mutation('ReportFormArchive', 'reportFormArchive');
export const UNARCHIVE_MUTATION = mutation('ReportFormUnarchive', 'reportFormUnarchive');
export const LOCK_TOGGLE_MUTATION = mutation('ReportFormLockToggle', 'reportFormLockToggle');
export const UNPUBLISH_MUTATION = mutation('ReportFormUnpublish', 'reportFormUnpublish');
export const PUBLISH_MUTATION = `mutation ReportFormPublish($id: ID!, $buildID: ID!) { reportFormPublish(id: $id, buildID: $buildID) { ${DETAIL_FIELDS} } }`;

export type FormNote = {
  id: string;
  note: string;
  createdAt: string;
  updatedAt: string;
  canEdit: boolean;
  author: { id: string; firstName: string; lastName: string; role: string } | null;
};

// A note posted, edited or removed refreshes the list (an empty one too) and the form's count.
export const NOTES_CONTEXT = { additionalTypenames: ['ReportFormNote', 'ReportForm'] };

const NOTE_FIELDS = 'id note createdAt updatedAt archived canEdit author { id firstName lastName role }';
export const NOTES_QUERY = `query ReportFormNotes($reportFormID: ID!, $limit: Int, $offset: Int) {
  reportFormNotes(reportFormID: $reportFormID, limit: $limit, offset: $offset) { total list { ${NOTE_FIELDS} } } }`;
export const NOTE_CREATE_MUTATION = `mutation ReportFormNoteCreate($reportFormID: ID!, $note: String!) {
  reportFormNoteCreate(reportFormID: $reportFormID, note: $note) { ${NOTE_FIELDS} } }`;
export const NOTE_UPDATE_MUTATION = `mutation ReportFormNoteUpdate($id: ID!, $note: String!) { reportFormNoteUpdate(id: $id, note: $note) { ${NOTE_FIELDS} } }`;
export const NOTE_ARCHIVE_MUTATION = `mutation ReportFormNoteArchive($id: ID!) { reportFormNoteArchive(id: $id) { ${NOTE_FIELDS} } }`;
