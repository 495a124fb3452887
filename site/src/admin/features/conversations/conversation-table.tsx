import { isSuperAdmin, type Viewer } from '../../viewer';
import type { ConversationRow as Row } from './conversations-api';
import { ConversationRow } from './conversation-row';
import { ActionsHeader } from '../../ui/actions-header';

type ConversationTableProps = {
  rows: Row[];
  viewer: Viewer;
  organisationID?: string | undefined;
  /** The report whose priority is being saved, if any. */
  savingID?: string | undefined;
  onPriority: (row: Row, priority: string) => void;
};

export function ConversationTable({ rows, viewer, organisationID, savingID, onPriority }: ConversationTableProps) {
  const hasActions = !isSuperAdmin(viewer);
  return (
    <div className="table-scroll">
      <table className="table table--cards conversation-table">
        <thead>
          <tr>
            <th scope="col">Report ID</th>
            <th scope="col">Last Message</th>
            <th scope="col">From</th>
            <th scope="col">When</th>
            <th scope="col">Unread</th>
            <th scope="col">Reporter</th>
            <th scope="col">Priority</th>
            {hasActions && <ActionsHeader />}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <ConversationRow
              key={row.id}
              row={row}
              viewer={viewer}
              organisationID={organisationID}
              saving={savingID === row.submission.id}
              onPriority={onPriority}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
