import { ArchiveToggle } from '../../ui/archive-toggle';
import { formatDateTime } from '../../../lib/format';
import { reportFormPath } from '../../paths';
import { ActionsHeader } from '../../ui/actions-header';
import { Link } from '../../ui/link';
import { PublishBadge } from './form-badges';
import type { FormRow } from './forms-api';

export type FormAction = 'archive' | 'unarchive' | 'lock' | 'unlock';

type FormsTableProps = {
  forms: FormRow[];
  /** The name opens the form's page only with ReportFormRead (spec §2). */
  canRead: boolean;
  canUpdate: boolean;
  organisationID?: string | undefined;
  onAction: (action: FormAction, form: FormRow) => void;
};

export function FormsTable({ forms, canRead, canUpdate, organisationID, onAction }: FormsTableProps) {
  return (
    <div className="table-scroll">
      <table className="table table--cards forms-table">
        <thead>
          <tr>
            <th scope="col">Form Name</th>
            <th scope="col">Created At</th>
            <th scope="col">Status</th>
            <th scope="col">Internal Notes</th>
            <th scope="col">Form Lock</th>
            {canUpdate && <ActionsHeader />}
          </tr>
        </thead>
        <tbody>
          {forms.map((form) => (
            <tr key={form.id}>
              <td data-label="Form Name" className="forms-table__name">
                {canRead ? <Link to={reportFormPath('overview', form.id, organisationID)}>{form.name}</Link> : form.name}
                {form.archived && <span className="muted forms-table__archived">Archived</span>}
              </td>
              <td data-label="Created At" className="forms-table__date">
                {formatDateTime(form.createdAt) ?? ''}
              </td>
              <td data-label="Status">
                <PublishBadge state={form.publishState} />
              </td>
              <td data-label="Internal Notes">{form.notesCount}</td>
              <td data-label="Form Lock">
                <LockSwitch form={form} disabled={!canUpdate} onToggle={() => onAction(form.locked ? 'unlock' : 'lock', form)} />
              </td>
              {canUpdate && (
                <td className="table__actions">
                  <div className="row-actions">
                    <ArchiveToggle archived={form.archived} onChoose={(action) => onAction(action, form)} />
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A switch that reads 'Locked' or 'Unlocked' beside it, so the state is not told by colour alone. */
function LockSwitch({ form, disabled, onToggle }: { form: FormRow; disabled: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      className="lock-switch"
      aria-checked={form.locked}
      aria-label={`Form lock for ${form.name}`}
      disabled={disabled}
      onClick={onToggle}
    >
      <span className="lock-switch__track" aria-hidden="true">
        <span className="lock-switch__thumb" />
      </span>
      <span className="lock-switch__text" aria-hidden="true">
        {form.locked ? 'Locked' : 'Unlocked'}
      </span>
    </button>
  );
}
