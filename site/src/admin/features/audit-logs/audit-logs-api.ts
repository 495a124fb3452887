import { AUDIT_OBJECT_TYPES } from '../../../../../api/shared/audit-object-types';
import { pickParam, readSearchAndPage } from '../../ui/list-address';
import type { ActivityUser } from '../../ui/activity-labels';

// The Audit Logs pages' calls (spec §2, §3 User activity; decision 040) and the filters kept in their address.

export type AuditEntry = {
  id: string;
  action: string;
  createdAt: string;
  dayOnly: boolean;
  objectType: string;
  isGrouped: boolean;
  metadata: Record<string, unknown> | null;
  user: ActivityUser | null;
};

export type AuditLogData = { userActivities: { total: number; list: AuditEntry[] } };
export type ParentData = { userActivity: AuditEntry };
export type PersonOption = { id: string; firstName: string; lastName: string };
export type PeopleData = { users: { list: PersonOption[] } };

const ENTRY_FIELDS = 'id action createdAt dayOnly objectType isGrouped metadata user { firstName lastName role }';

export const AUDIT_LOG_QUERY = `query AuditLogs($organisationID: ID, $parentID: ID, $objectType: AuditObjectType, $userID: ID, $dateFilter: DateFilterInput, $limit: Int, $offset: Int) {
  userActivities(organisationID: $organisationID, parentID: $parentID, objectType: $objectType, userID: $userID, dateFilter: $dateFilter, limit: $limit, offset: $offset) {
    total list { ${ENTRY_FIELDS} } } }`;

export const PARENT_QUERY = `query AuditLogParent($id: ID!) { userActivity(id: $id) { ${ENTRY_FIELDS} } }`;

/** The people the log may be narrowed to: the organisation's (guests on its reports too), or everyone's for a super admin. */
export const PEOPLE_QUERY = `query AuditLogPeople($organisationID: ID) {
  users(organisationID: $organisationID, includeGuestMembers: true, sortBy: alphabetical, limit: 100) { list { id firstName lastName } } }`;

export const OBJECT_TYPE_LABELS: Readonly<Record<(typeof AUDIT_OBJECT_TYPES)[number], string>> = {
  Self: 'Self',
  User: 'User',
  Organisation: 'Organisation',
  Blob: 'File',
  Tag: 'Tag',
  ReportSubmission: 'Report Submission',
  ReportForm: 'Report Form',
  OnboardInvite: 'Invite',
};

export type AuditLogParams = { objectType: string; user: string; from: string; to: string; page: number };

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | null) => (value && ISO_DAY.test(value) ? value : '');

export function readAuditLogParams(search: string): AuditLogParams {
  const query = new URLSearchParams(search);
  const user = query.get('user') ?? '';
  return {
    objectType: pickParam(query.get('type'), ['', ...AUDIT_OBJECT_TYPES], ''),
    // An id is at most a uuid; anything else is the server's to refuse, so only its length is bounded here.
    user: user.slice(0, 100),
    from: day(query.get('from')),
    to: day(query.get('to')),
    page: readSearchAndPage(query, 0).page,
  };
}

export function writeAuditLogParams(params: AuditLogParams): string {
  const query = new URLSearchParams();
  if (params.objectType) query.set('type', params.objectType);
  if (params.user) query.set('user', params.user);
  if (params.from) query.set('from', params.from);
  if (params.to) query.set('to', params.to);
  if (params.page !== 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}
