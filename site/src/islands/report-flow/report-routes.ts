// The report shell serves five paths; the island tells them apart here.
// Step keys name the steps in the progress bar and in the completed/flagged sets.

export type StepKey = 'welcome' | `page:${number}` | 'attach' | 'review' | 'finish';

export type ReportRoute = { formID: string; step: StepKey };

const SEGMENT_STEPS: Record<string, StepKey> = {
  'attach-files': 'attach',
  review: 'review',
  finish: 'finish',
};

function pageStep(search: string): StepKey {
  const raw = new URLSearchParams(search).get('step') ?? '0';
  const index = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  return `page:${index}`;
}

/** The route for a path and query, or undefined for a path this shell does not serve. */
export function parseReportRoute(pathAndSearch: string): ReportRoute | undefined {
  const url = new URL(pathAndSearch, 'http://report.invalid');
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'report') return undefined;
  if (parts.length === 2) return { formID: parts[1]!, step: 'welcome' };
  if (parts.length !== 3) return undefined;
  const [, segment, formID] = parts as [string, string, string];
  if (segment === 'summary') return { formID, step: pageStep(url.search) };
  const step = SEGMENT_STEPS[segment];
  return step ? { formID, step } : undefined;
}

export function stepPath(formID: string, step: StepKey): string {
  const id = encodeURIComponent(formID);
  if (step.startsWith('page:')) return `/report/summary/${id}?step=${step.slice('page:'.length)}`;
  switch (step) {
    case 'attach':
      return `/report/attach-files/${id}`;
    case 'review':
      return `/report/review/${id}`;
    case 'finish':
      return `/report/finish/${id}`;
    default:
      return `/report/${id}`;
  }
}

export function pageStepKey(index: number): StepKey {
  return `page:${index}`;
}
