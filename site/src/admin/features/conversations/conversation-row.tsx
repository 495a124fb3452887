import { PRIORITIES } from '../../../../../api/shared/enums';
import { formatDateTime } from '../../../lib/format';
import { reportDetailPath } from '../../paths';
import { Badge, PriorityBadge } from '../../ui/badges';
import { Link } from '../../ui/link';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { canSetPriority, previewText, senderText } from './conversation-rules';
import type { ConversationRow as Row } from './conversations-api';

type ConversationRowProps = {
  row: Row;
  viewer: Viewer;
  organisationID?: string | undefined;
  /** A priority change is in flight for this row. */
  saving: boolean;
  onPriority: (row: Row, priority: string) => void;
};

export function ConversationRow({ row, viewer, organisationID, saving, onPriority }: ConversationRowProps) {
  const { submission, lastMessage } = row;
  const messages = reportDetailPath('messages', submission.submissionForm.id, submission.id, organisationID);
  // As in the reports list, super admins get no way into a report (spec section 6).
  const canOpen = !isSuperAdmin(viewer);
  const preview = previewText(lastMessage);
  return (
    <tr className={row.unreadMessages > 0 ? 'conversation-table__row--unread' : undefined}>
      <td data-label="Report ID" className="conversation-table__id">
        {canOpen ? <Link to={messages}>{submission.reportID}</Link> : submission.reportID}
        {row.closed && <span className="muted conversation-table__note">Closed</span>}
      </td>
      <td data-label="Last Message" className="conversation-table__preview-cell">
        <span className={`conversation-table__preview${lastMessage ? '' : ' muted'}`} title={lastMessage ? preview : undefined}>
          {preview}
        </span>
      </td>
      <td data-label="From" className="conversation-table__nowrap">{lastMessage ? senderText(lastMessage) : '–'}</td>
      <td data-label="When" className="conversation-table__nowrap">{lastMessage ? (formatDateTime(lastMessage.createdAt) ?? '–') : '–'}</td>
      <td data-label="Unread" className="conversation-table__unread">
        {row.unreadMessages > 0 ? <Badge tone="accent">{row.unreadMessages}</Badge> : <span className="muted">0</span>}
        <span className="visually-hidden"> unread</span>
      </td>
      <td data-label="Reporter" className="conversation-table__nowrap">
        <span className={`presence presence--${row.otherUserStatus.toLowerCase()}`}>{row.otherUserStatus}</span>
      </td>
      <td data-label="Priority">
        {canSetPriority(viewer, row) ? (
          <select
            className={`field__input priority-select priority-select--${submission.priority.toLowerCase()}`}
            aria-label={`Priority of report ${submission.reportID}`}
            value={submission.priority}
            disabled={saving}
            onChange={(event) => onPriority(row, event.target.value)}
          >
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority}
              </option>
            ))}
          </select>
        ) : (
          <PriorityBadge priority={submission.priority} />
        )}
      </td>
      {canOpen && (
        <td className="table__actions">
          <Link to={messages} className="button button--small button--secondary">
            View Messages<span className="visually-hidden">{` of report ${submission.reportID}`}</span>
          </Link>
        </td>
      )}
    </tr>
  );
}
