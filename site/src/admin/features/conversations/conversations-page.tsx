import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { Pagination } from '../../ui/pagination';
import { useLastPageGuard, useListAddress } from '../../ui/use-list-address';
import { useLiveRefresh } from '../../ui/use-live-refresh';
import type { Viewer } from '../../viewer';
import { ConversationControls } from './conversation-controls';
import { PAGE_SIZE, readParams, writeParams } from './conversation-params';
import { ConversationTable } from './conversation-table';
import { CONVERSATIONS_QUERY, CONVERSATIONS_SUBSCRIPTION, PRIORITY_MUTATION, type ConversationList, type ConversationRow } from './conversations-api';
import './conversations.css';

type ConversationsPageProps = {
  viewer: Viewer;
  /** The /organisations/report-conversations/:organisationID variant of a super admin. */
  organisationID?: string | undefined;
};

/** Live events come in bursts (a reporter typing, a message and its read receipt): one fetch answers a burst. */
const REFRESH_COALESCE_MS = 300;

export function ConversationsPage({ viewer, organisationID }: ConversationsPageProps) {
  useDocumentTitle(['Conversations']);
  const { params, searchText, setSearchText, update } = useListAddress(readParams, writeParams);
  const [priorityError, setPriorityError] = useState<string>();
  const [savingID, setSavingID] = useState<string>();

  const variables = useMemo(
    () => ({
      search: params.search || null,
      organisationID: organisationID ?? null,
      priority: params.priority || null,
      sortBy: params.sortBy,
      sortDir: params.sortDir,
      limit: PAGE_SIZE,
      offset: (params.page - 1) * PAGE_SIZE,
    }),
    [params.search, params.priority, params.sortBy, params.sortDir, params.page, organisationID],
  );
  const [list, refetch] = useQuery<{ reportConversations: ConversationList }>({ query: CONVERSATIONS_QUERY, variables });
  const [, setPriority] = useMutation(PRIORITY_MUTATION);

  const pendingRefresh = useRef<number>(undefined);
  const refresh = useCallback(() => {
    if (pendingRefresh.current !== undefined) return;
    pendingRefresh.current = window.setTimeout(() => {
      pendingRefresh.current = undefined;
      refetch({ requestPolicy: 'network-only' });
    }, REFRESH_COALESCE_MS);
  }, [refetch]);
  useEffect(() => () => window.clearTimeout(pendingRefresh.current), []);
  const liveVariables = useMemo(() => ({ organisationID: organisationID ?? null }), [organisationID]);
  useLiveRefresh({ subscription: CONVERSATIONS_SUBSCRIPTION, variables: liveVariables, onEvent: refresh });

  const total = list.data?.reportConversations.total ?? 0;
  const rows = list.data?.reportConversations.list;
  useLastPageGuard(rows, total, params.page, PAGE_SIZE, update);

  const changePriority = async (row: ConversationRow, priority: string) => {
    setPriorityError(undefined);
    setSavingID(row.submission.id);
    const result = await setPriority({ id: row.submission.id, priority });
    setSavingID(undefined);
    if (result.error) return setPriorityError(errorMessage(result.error));
    notify(`Priority has been set to ${priority}`);
    // Sorted or filtered by priority, the row may now belong elsewhere.
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>Conversations</h1>
      </div>
      <ErrorBanner message={priorityError ?? errorMessage(list.error)} />
      <ConversationControls params={params} searchText={searchText} onSearchText={setSearchText} onChange={(change) => update(change)} />
      <section className="card card--flush" aria-busy={list.fetching} aria-label="Conversations">
        {rows === undefined ? (
          <p className="muted card__body">{list.fetching ? 'Loading…' : ''}</p>
        ) : rows.length === 0 ? (
          <p className="muted card__body">No conversations found</p>
        ) : (
          <ConversationTable rows={rows} viewer={viewer} organisationID={organisationID} savingID={savingID} onPriority={(row, priority) => void changePriority(row, priority)} />
        )}
      </section>
      <Pagination page={params.page} pageSize={PAGE_SIZE} total={total} onPage={(page) => update({ page })} label="Conversation pages" />
    </main>
  );
}
