import { useCallback, useMemo } from 'react';
import { useQuery } from 'urql';
import { useStore } from '../../../lib/use-store';
import { AUDIT_OBJECT_TYPES } from '../../../../../api/shared/audit-object-types';
import { auditLogsPath } from '../../paths';
import { $location, navigate } from '../../router';
import { ActionsHeader } from '../../ui/actions-header';
import { activityActor, activityWhen, DAY_ONLY_NOTE } from '../../ui/activity-labels';
import { activitySentence } from '../../ui/activity-sentences';
import { dateFilterOf, rangeProblem } from '../../ui/date-range';
import { DateRangeFilter } from '../../ui/date-range-filter';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { Link } from '../../ui/link';
import { MissingScreen } from '../../ui/missing-screen';
import { Pagination } from '../../ui/pagination';
import { SelectField } from '../../ui/select-field';
import { useLastPageGuard } from '../../ui/use-list-address';
import { isSuperAdmin, type Viewer } from '../../viewer';
import {
  AUDIT_LOG_QUERY,
  OBJECT_TYPE_LABELS,
  PARENT_QUERY,
  PEOPLE_QUERY,
  readAuditLogParams,
  writeAuditLogParams,
  type AuditEntry,
  type AuditLogData,
  type AuditLogParams,
  type ParentData,
  type PeopleData,
} from './audit-logs-api';
import './audit-logs.css';

const PAGE_SIZE = 20;
export const AUDIT_LOG_NOT_FOUND = 'Audit log not found';

type AuditLogsPageProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside (the /organisations variant). */
  organisationID?: string | undefined;
  /** A grouped entry whose child entries are listed. */
  parentAuditLogID?: string | undefined;
};

const OBJECT_TYPE_OPTIONS = [{ value: '', label: 'All' }, ...AUDIT_OBJECT_TYPES.map((value) => ({ value, label: OBJECT_TYPE_LABELS[value] }))];

/** The filters live in the address, so Back from a group's logs returns to the same view. */
function useAuditLogAddress() {
  const location = useStore($location);
  const params = readAuditLogParams(location.search);
  const update = useCallback((change: Partial<AuditLogParams>, replace = false) => {
    const current = $location.get();
    navigate(`${current.pathname}${writeAuditLogParams({ ...readAuditLogParams(current.search), ...change })}`, { replace });
  }, []);
  return { params, update };
}

function EntryRow({ entry, organisationID }: { entry: AuditEntry; organisationID: string | undefined }) {
  const actor = activityActor(entry.action, entry.user, entry.metadata);
  return (
    <tr>
      <td data-label="User">
        {actor.name}
        {actor.role && <span className="muted audit-log__role">{actor.role}</span>}
      </td>
      <td data-label="Activity">{activitySentence(entry)}</td>
      <td data-label="Object Type">{OBJECT_TYPE_LABELS[entry.objectType as keyof typeof OBJECT_TYPE_LABELS] ?? entry.objectType}</td>
      <td data-label="Date" title={entry.dayOnly ? DAY_ONLY_NOTE : undefined}>
        {activityWhen(entry)}
      </td>
      <td className="table__actions">
        {entry.isGrouped && (
          <Link to={auditLogsPath(organisationID, entry.id)} className="button button--small button--secondary">
            View Logs
          </Link>
        )}
      </td>
    </tr>
  );
}

/** /admin/manage/audit-logs[/:parentAuditLogID] and the organisation variants (spec §2 Audit logs). */
export function AuditLogsPage({ viewer, organisationID, parentAuditLogID }: AuditLogsPageProps) {
  const { params, update } = useAuditLogAddress();
  const range = { from: params.from, to: params.to };
  const invalid = rangeProblem(range) !== undefined;
  const variables = useMemo(
    () => ({
      organisationID: organisationID ?? null,
      parentID: parentAuditLogID ?? null,
      objectType: params.objectType || null,
      userID: params.user || null,
      dateFilter: dateFilterOf({ from: params.from, to: params.to }),
      limit: PAGE_SIZE,
      offset: (params.page - 1) * PAGE_SIZE,
    }),
    [organisationID, parentAuditLogID, params.objectType, params.user, params.from, params.to, params.page],
  );
  const [list] = useQuery<AuditLogData>({ query: AUDIT_LOG_QUERY, variables, pause: invalid });
  const [parent] = useQuery<ParentData>({ query: PARENT_QUERY, variables: { id: parentAuditLogID ?? '' }, pause: !parentAuditLogID });
  const [people] = useQuery<PeopleData>({ query: PEOPLE_QUERY, variables: { organisationID: organisationID ?? null } });
  useDocumentTitle(['Audit Logs']);

  const rows = list.data?.userActivities.list;
  const total = list.data?.userActivities.total ?? 0;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);
  const home = auditLogsPath(organisationID);
  if (parentAuditLogID && (errorMessage(parent.error) === AUDIT_LOG_NOT_FOUND || errorMessage(list.error) === AUDIT_LOG_NOT_FOUND)) {
    return (
      <main className="admin-page">
        <MissingScreen message={AUDIT_LOG_NOT_FOUND} returnTo={home} returnLabel="Return to Audit Logs" />
      </main>
    );
  }
  const personOptions = [{ value: '', label: 'All users' }, ...(people.data?.users.list ?? []).map((person) => ({ value: person.id, label: `${person.firstName} ${person.lastName}`.trim() }))];
  // A person named by an old link but no longer listed still shows as chosen.
  if (params.user && !personOptions.some((option) => option.value === params.user)) personOptions.push({ value: params.user, label: 'Chosen user' });
  const across = isSuperAdmin(viewer) && organisationID === undefined;

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Audit Logs
        </h1>
      </div>
      {across && <p className="muted">Entries from every organisation, and the platform's own.</p>}
      {parentAuditLogID && (
        <div className="card card__body stack audit-log__group">
          <p>
            <strong>{parent.data ? activitySentence(parent.data.userActivity) : 'Loading…'}</strong>
            {parent.data && <span className="muted"> · {activityWhen(parent.data.userActivity)}</span>}
          </p>
          <Link to={home}>Back to all Audit Logs</Link>
        </div>
      )}
      <div className="list-controls">
        <SelectField id="audit-log-object-type" label="Object Type" value={params.objectType} options={OBJECT_TYPE_OPTIONS} onChange={(objectType) => update({ objectType, page: 1 })} />
        <SelectField id="audit-log-user" label="User" value={params.user} options={personOptions} onChange={(user) => update({ user, page: 1 })} />
        <DateRangeFilter idPrefix="audit-log" legend="Filter by date" value={range} onChange={(next) => update({ from: next.from, to: next.to, page: 1 }, true)} />
      </div>
      <ErrorBanner message={errorMessage(list.error) ?? errorMessage(people.error)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Audit log entries">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No audit logs found</p>
        ) : (
          <div className="table-scroll">
            <table className="table table--cards">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Activity</th>
                  <th scope="col">Object Type</th>
                  <th scope="col">Date</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} organisationID={organisationID} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Audit log pages" />
    </main>
  );
}
