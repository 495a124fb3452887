import { useQuery } from 'urql';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';

// The legal deadlines' counts (docs/decisions/050-legal-clocks.md) over the reports the viewer sees.
// The report list has no filter for them, so the numbers link nowhere.

type LegalClockCounts = { acknowledgeDueSoon: number; acknowledgeOverdue: number; feedbackDueSoon: number; feedbackOverdue: number };

export const LEGAL_CLOCK_COUNTS_QUERY = `query DashboardLegalClockCounts($organisationID: ID) {
  legalClockCounts(organisationID: $organisationID) { acknowledgeDueSoon acknowledgeOverdue feedbackDueSoon feedbackOverdue } }`;

const TILES: { key: keyof LegalClockCounts; label: string }[] = [
  { key: 'acknowledgeDueSoon', label: 'Acknowledgement due soon' },
  { key: 'acknowledgeOverdue', label: 'Acknowledgement overdue' },
  { key: 'feedbackDueSoon', label: 'Feedback due soon' },
  { key: 'feedbackOverdue', label: 'Feedback overdue' },
];

export function LegalClockCountsSection({ organisationID }: { organisationID?: string | undefined }) {
  const [result] = useQuery<{ legalClockCounts: LegalClockCounts }>({
    query: LEGAL_CLOCK_COUNTS_QUERY,
    variables: { organisationID: organisationID ?? null },
    requestPolicy: 'cache-and-network',
  });
  const counts = result.data?.legalClockCounts;
  return (
    <section className="stack" aria-labelledby="legal-clock-counts-title">
      <h2 id="legal-clock-counts-title" className="legal-clock-counts__title">
        Legal deadlines
      </h2>
      <ErrorBanner message={errorMessage(result.error)} />
      <ul className="stat-tiles legal-clock-counts" aria-busy={counts === undefined}>
        {TILES.map((tile) => (
          <li key={tile.key} className="stat-tile">
            <span className="stat-tile__label">{tile.label}</span>
            <span className="stat-tile__value">{counts ? counts[tile.key] : '–'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
