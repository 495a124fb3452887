/** The row action of every archivable list (spec §4): Archive, or Unarchive for an archived row. */
export function ArchiveToggle({ archived, onChoose }: { archived: boolean; onChoose: (action: 'archive' | 'unarchive') => void }) {
  return (
    <button type="button" className="button button--small button--secondary" onClick={() => onChoose(archived ? 'unarchive' : 'archive')}>
      {archived ? 'Unarchive' : 'Archive'}
    </button>
  );
}
