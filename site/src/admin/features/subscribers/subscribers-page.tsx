import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { ActionsHeader } from '../../ui/actions-header';
import { ListCard } from '../../ui/list-card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import { can, type Viewer } from '../../viewer';
import { SubscriberDialog } from './subscriber-dialog';
import { CREATED_TEXT, DELETED_TEXT, DELETE_MUTATION, SUBSCRIBERS_QUERY, type SubscriberListData, type SubscriberRow } from './subscribers-api';

type SubscribersPageProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside (the /organisations variant). */
  organisationID?: string | undefined;
};

/**
 * /admin/manage/subscribers and its organisation variant: the organisation's one email subscriber,
 * told of every new report (spec §2, §5, §9). Add is offered only while there is none.
 */
export function SubscribersPage({ viewer, organisationID }: SubscribersPageProps) {
  const [list, refetch] = useQuery<SubscriberListData>({ query: SUBSCRIBERS_QUERY, variables: { organisationID: organisationID ?? null } });
  const [, remove] = useMutation(DELETE_MUTATION);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<SubscriberRow>();
  useDocumentTitle(['Subscribers']);

  const rows = list.data?.organisationEmailSubscribers.list;
  const total = list.data?.organisationEmailSubscribers.total;
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const mayAdd = can(viewer, 'OrganisationEmailSubscriberCreate') && total === 0;
  const mayDelete = can(viewer, 'OrganisationEmailSubscriberDelete');

  const runDelete = async (): Promise<string | undefined> => {
    if (!deleting) return undefined;
    const result = await remove({ id: deleting.id });
    if (result.error) return errorMessage(result.error);
    notify(DELETED_TEXT);
    reload();
    return undefined;
  };

  const onCreated = () => {
    notify(CREATED_TEXT);
    reload();
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Subscribers
        </h1>
        {mayAdd && (
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Add Subscriber
          </button>
        )}
      </div>
      <p className="muted">The subscriber receives an email with a link whenever a new report arrives. An organisation has one subscriber.</p>
      <ErrorBanner message={errorMessage(list.error)} />
      <ListCard label="Subscribers" fetching={list.fetching} rows={rows} empty="No subscribers found">
        {(shown) => (
          <>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Created At</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {shown.map((subscriber) => (
                <tr key={subscriber.id}>
                  <td data-label="Name">
                    {subscriber.firstName} {subscriber.lastName}
                  </td>
                  <td data-label="Email">{subscriber.email}</td>
                  <td data-label="Created At">{formatDateTime(subscriber.createdAt) ?? ''}</td>
                  <td className="table__actions">
                    {mayDelete && (
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button button--small button--secondary"
                          aria-label={`Delete ${subscriber.firstName} ${subscriber.lastName}`}
                          onClick={() => setDeleting(subscriber)}
                        >
                          Delete
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </ListCard>
      {deleting && <ConfirmDialog action="delete" name="subscriber" onConfirm={runDelete} onClose={() => setDeleting(undefined)} />}
      {adding && <SubscriberDialog organisationID={organisationID} onCreated={onCreated} onClose={() => setAdding(false)} />}
    </main>
  );
}
