import { can, isOrganisationManager, isSuperAdmin, type Viewer } from '../../../viewer';
import type { ReportDetail } from './detail-api';

// Redaction (docs/decisions/053-redaction.md): owners and admins of the report's organisation and
// super admins; the server decides in the end.

export const REDACT_ANSWER_MUTATION = `mutation RedactAnswer($id: ID!, $widgetID: String!, $index: Int!, $start: Int!, $end: Int!) {
  reportSubmissionAnswerRedact(id: $id, widgetID: $widgetID, index: $index, start: $start, end: $end) { id } }`;

export const REDACTED_NOTICE = 'The selection is redacted';

export const mayRedact = (viewer: Viewer, report: ReportDetail) =>
  can(viewer, 'ReportSubmissionRedact') && (isSuperAdmin(viewer) || (isOrganisationManager(viewer) && viewer.organisation?.id === report.submissionForm.organisationID));
