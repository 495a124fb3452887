import { useState } from 'react';
import { downloadFile } from '../../../../lib/download';
import { isOrganisationManager, isSuperAdmin, type Viewer } from '../../../viewer';

/** The list's search as the export endpoints take it (the same shape the list query sends). */
export type ExportSearch = Record<string, unknown>;

type ExportKind = 'zip' | 'csv';

const EXPORTS: Record<ExportKind, { url: string; label: string; busy: string; fallbackName: string }> = {
  zip: { url: '/api/report-submissions/export-all', label: 'Export Reports', busy: 'Exporting…', fallbackName: 'reports-export.zip' },
  csv: { url: '/api/report-submissions/download-csv', label: 'Reporting CSV', busy: 'Preparing…', fallbackName: 'reports.csv' },
};

type ExportButtonsProps = {
  viewer: Viewer;
  search: ExportSearch;
  onError: (message: string | undefined) => void;
};

/**
 * Export Reports (a zip of per-report exports) for owners and admins; Reporting CSV also for super
 * admins (spec §2 Reports). Both export every report matching the list's current filters, test
 * reports left out by the server; the file keeps the name the server gives it.
 */
export function ExportButtons({ viewer, search, onError }: ExportButtonsProps) {
  const [busy, setBusy] = useState<ExportKind>();
  const shown: ExportKind[] = [];
  if (isOrganisationManager(viewer)) shown.push('zip');
  if (isOrganisationManager(viewer) || isSuperAdmin(viewer)) shown.push('csv');
  if (shown.length === 0) return null;

  const run = async (kind: ExportKind) => {
    const target = EXPORTS[kind];
    onError(undefined);
    setBusy(kind);
    try {
      const result = await downloadFile(target.url, target.fallbackName, { search: { ...search, excludeTestReports: true }, limit: -1, offset: 0 });
      if (!result.ok) onError(result.message);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div className="actions">
      {shown.map((kind) => (
        <button key={kind} type="button" className="button button--secondary" onClick={() => void run(kind)} disabled={busy !== undefined}>
          {busy === kind ? EXPORTS[kind].busy : EXPORTS[kind].label}
        </button>
      ))}
    </div>
  );
}
