import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Dialog } from '../../../ui/dialog';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { Pagination } from '../../../ui/pagination';
import { useDebounced } from '../../../ui/use-debounced';
import { ASSIGN_MUTATION, ASSIGNABLE_QUERY, type AssignableUser } from './detail-api';

/** Spec section 9: the assign list shows 5 people a page. */
const ASSIGN_PAGE_SIZE = 5;

const nameOf = (user: AssignableUser) => `${user.firstName} ${user.lastName}`.trim() || user.email;

export function AssignUsersDialog({ reportID, onClose }: { reportID: string; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), 500);
  const [error, setError] = useState<string>();
  const [busyID, setBusyID] = useState<string>();
  const [result, refetch] = useQuery<{ reportSubmissionAssignableUsers: { total: number; list: AssignableUser[] } }>({
    query: ASSIGNABLE_QUERY,
    variables: { id: reportID, search: settled || null, limit: ASSIGN_PAGE_SIZE, offset: (page - 1) * ASSIGN_PAGE_SIZE },
    requestPolicy: 'network-only',
  });
  const [, assign] = useMutation(ASSIGN_MUTATION);
  const users = result.data?.reportSubmissionAssignableUsers;

  const onAssign = async (user: AssignableUser) => {
    setBusyID(user.id);
    setError(undefined);
    const outcome = await assign({ id: reportID, userID: user.id });
    setBusyID(undefined);
    if (outcome.error) return setError(errorMessage(outcome.error));
    notify(`${nameOf(user)} has been assigned to this report`);
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <Dialog title="Assign Users" onClose={onClose} wide>
      <ErrorBanner message={error ?? errorMessage(result.error)} />
      <div className="field">
        <label className="field__label" htmlFor="assign-search">
          Search
        </label>
        <input
          id="assign-search"
          className="field__input"
          type="search"
          value={search}
          autoComplete="off"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </div>
      {users === undefined && !result.error && <p className="muted">Loading…</p>}
      {users?.list.length === 0 && <p className="muted">No users found</p>}
      {users && users.list.length > 0 && (
        <ul className="assign-list">
          {users.list.map((user) => (
            <li key={user.id} className="assign-list__item">
              <span className="assign-list__who">
                <strong>{nameOf(user)}</strong>
                <span className="muted">{`${user.email} · ${user.role.label}${user.organisation ? ` · ${user.organisation.name}` : ''}`}</span>
              </span>
              <button type="button" className="button button--small" disabled={busyID !== undefined || user.suspended} onClick={() => void onAssign(user)}>
                {busyID === user.id ? 'Assigning…' : 'Assign'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {users && <Pagination page={page} pageSize={ASSIGN_PAGE_SIZE} total={users.total} onPage={setPage} label="User pages" />}
    </Dialog>
  );
}
