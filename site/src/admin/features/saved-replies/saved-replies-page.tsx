import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { ActionsHeader } from '../../ui/actions-header';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { ListCard } from '../../ui/list-card';
import { notify } from '../../ui/notice-store';
import type { Viewer } from '../../viewer';
import { ARCHIVE_MUTATION, SAVED_REPLIES_QUERY, type SavedRepliesData, type SavedReplyRow } from './saved-replies-api';
import { SavedReplyDialog } from './saved-reply-dialog';

type SavedRepliesPageProps = {
  viewer: Viewer;
  /** The organisation a super admin is working inside (the /organisations variant). */
  organisationID?: string | undefined;
};

/** The open dialog: a new reply, or the reply being edited. */
type Editing = { reply?: SavedReplyRow };

/** A reply's first line, shortened: enough to tell replies apart in the list. */
const preview = (body: string) => {
  const line = body.split('\n').find((text) => text.trim() !== '')?.trim() ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

/** /admin/manage/saved-replies and its organisation variant: the texts staff insert into report chats (decision 051). */
export function SavedRepliesPage({ organisationID }: SavedRepliesPageProps) {
  const [editing, setEditing] = useState<Editing>();
  const [archiving, setArchiving] = useState<SavedReplyRow>();
  const variables = useMemo(() => ({ organisationID: organisationID ?? null }), [organisationID]);
  const [list, refetch] = useQuery<SavedRepliesData>({ query: SAVED_REPLIES_QUERY, variables });
  const [, archive] = useMutation(ARCHIVE_MUTATION);
  useDocumentTitle(['Saved Replies']);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const runArchive = async (): Promise<string | undefined> => {
    if (!archiving) return undefined;
    const result = await archive({ id: archiving.id });
    if (result.error) return errorMessage(result.error);
    notify('Successfully archived saved reply');
    reload();
    return undefined;
  };

  const onSaved = (title: string) => {
    notify(editing?.reply ? `Successfully updated saved reply "${title}"` : `Successfully created saved reply "${title}"`);
    reload();
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Saved Replies
        </h1>
        <button type="button" className="button" onClick={() => setEditing({})}>
          Create Saved Reply
        </button>
      </div>
      <p className="muted">Texts your team can insert into a report&apos;s chat and edit before sending.</p>
      <ErrorBanner message={errorMessage(list.error)} />
      <ListCard label="Saved replies" fetching={list.fetching} rows={list.data?.savedReplies} empty="No saved replies yet">
        {(shown) => (
          <>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Reply</th>
                <th scope="col">Updated At</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {shown.map((reply) => (
                <tr key={reply.id}>
                  <td data-label="Title">{reply.title}</td>
                  <td data-label="Reply">{preview(reply.body)}</td>
                  <td data-label="Updated At">{formatDateTime(reply.updatedAt) ?? ''}</td>
                  <td className="table__actions">
                    <div className="row-actions">
                      <button type="button" className="button button--small button--secondary" onClick={() => setEditing({ reply })} aria-label={`Edit ${reply.title}`}>
                        Edit
                      </button>
                      <button type="button" className="button button--small button--secondary" onClick={() => setArchiving(reply)} aria-label={`Archive ${reply.title}`}>
                        Archive
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </ListCard>
      {archiving && <ConfirmDialog action="archive" name="saved reply" onConfirm={runArchive} onClose={() => setArchiving(undefined)} />}
      {editing && <SavedReplyDialog reply={editing.reply} organisationID={organisationID} onSaved={onSaved} onClose={() => setEditing(undefined)} />}
    </main>
  );
}
