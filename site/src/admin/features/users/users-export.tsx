import { useState } from 'react';
import { Dialog } from '../../ui/dialog';
import { SelectField } from '../../ui/select-field';
import { downloadUsersExport } from './users-api';

const FILTERS = ['All', 'Active', 'Archived'] as const;
type ExportFilter = (typeof FILTERS)[number];

/** The super admin's Export: every user as CSV, All, Active (not suspended) or Archived (suspended). */
export function UsersExport() {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<ExportFilter>('All');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    await downloadUsersExport(filter);
    setBusy(false);
    setOpen(false);
  };
  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        Export
      </button>
      {open && (
        <Dialog
          title="Export Users"
          onClose={() => setOpen(false)}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setOpen(false)} disabled={busy}>
                Cancel
              </button>
              <button type="button" className="button" onClick={() => void run()} disabled={busy}>
                {busy ? 'Preparing…' : 'Export'}
              </button>
            </>
          }
        >
          <SelectField id="users-export-filter" label="Users" value={filter} options={FILTERS.map((value) => ({ value, label: value }))} onChange={(value) => setFilter(value as ExportFilter)} className="" />
        </Dialog>
      )}
    </>
  );
}
