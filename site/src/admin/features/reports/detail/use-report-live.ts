import { useEffect } from 'react';
import { useLiveRefresh } from '../../../ui/use-live-refresh';
import type { ReportDetail } from './detail-api';

// The report as another staff member changes it (spec §7, reportSubmission (admin view)): the
// server sends the report again after each change anyone commits, and the page reloads it when
// what it shows differs. The first value, and the one that follows the reader's own change (whose
// mutation already reloaded the page), match what is on screen and cost nothing.

const LIVE_FIELDS = 'id status priority archived internalReference isOwner isMuted updatedAt assignedUsers { owner user { id suspended } } tags { id name isInternal }';

export const REPORT_LIVE_SUBSCRIPTION = `subscription ReportLive($id: ID!) { reportSubmission(id: $id) { ${LIVE_FIELDS} } }`;

type LiveReport = Pick<ReportDetail, 'id' | 'status' | 'priority' | 'archived' | 'internalReference' | 'isOwner' | 'isMuted' | 'updatedAt' | 'tags'> & {
  assignedUsers: { owner: boolean; user: { id: string; suspended: boolean } }[];
};

/** What the page shows of a report that the subscription also carries, comparable between the two. */
function shown(report: LiveReport): string {
  const { id, status, priority, archived, internalReference, isOwner, isMuted, updatedAt, tags, assignedUsers } = report;
  const team = assignedUsers.map((member) => [member.user.id, member.owner, member.user.suspended]);
  return JSON.stringify([id, status, priority, archived, internalReference, isOwner, isMuted, updatedAt, team, tags.map((tag) => [tag.id, tag.name, tag.isInternal])]);
}

/**
 * Reloads the report (`refresh`) when the live one differs from `report`, after a dropped socket
 * comes back, and once at once when the server ends the stream: the report was deleted or the
 * reader lost access to it, which the reload shows as the page's not-found message.
 */
export function useReportLive(id: string, report: ReportDetail | undefined, refresh: () => void): void {
  const mode = useLiveRefresh<{ reportSubmission: LiveReport }>({
    subscription: REPORT_LIVE_SUBSCRIPTION,
    variables: { id },
    pause: report === undefined,
    onEvent: (data) => {
      if (!data || !report || shown(data.reportSubmission) !== shown(report)) refresh();
    },
  });
  useEffect(() => {
    if (mode === 'polling') refresh();
    // Only the change into polling calls for the reload; `refresh` is a new function each render.
  }, [mode]);
}
