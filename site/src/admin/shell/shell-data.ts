import { useCallback, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { endSession } from '../features/auth/session-store';
import { navigate } from '../router';
import { useLiveRefresh } from '../ui/use-live-refresh';
import { can, isGuestMember, isSuperAdmin, type Viewer } from '../viewer';

// What the frame reads from the server: the organisation a super admin manages, the sidebar's
// counter, and the signal that this session has ended.

const ORGANISATION_NAME_QUERY = 'query ShellOrganisation($id: ID!) { organisation(id: $id) { id name } }';

export function useOrganisationName(viewer: Viewer, organisationID: string | undefined): string | undefined {
  const managing = isSuperAdmin(viewer) && organisationID !== undefined;
  const [result] = useQuery<{ organisation: { id: string; name: string } }>({
    query: ORGANISATION_NAME_QUERY,
    variables: { id: organisationID ?? '' },
    pause: !managing,
  });
  if (managing) return result.data?.organisation.name;
  return viewer.organisation?.name;
}

const USER_STATS_QUERY = `query ShellOrganisationUserStats($organisationID: ID) {
  organisationUserStats(organisationID: $organisationID) { unassignedReports unreadMessages } }`;
const USER_STATS_SUBSCRIPTION = `subscription ShellOrganisationUserStatsLive($organisationID: ID) {
  organisationUserStats(organisationID: $organisationID) { unassignedReports unreadMessages } }`;

type UserStats = { unassignedReports: number; unreadMessages: number };

/** The Reports (unassigned) and Conversations (unread) counters; skipped for guest members (spec section 6). */
export function useOrganisationUserStats(viewer: Viewer, organisationID: string | undefined): UserStats | undefined {
  const skip = isGuestMember(viewer) || !can(viewer, 'ReportSubmissionList');
  const variables = { organisationID: organisationID ?? null };
  const [result, refetch] = useQuery<{ organisationUserStats: UserStats }>({ query: USER_STATS_QUERY, variables, pause: skip });
  // The subscription carries the numbers themselves; without it (or after a drop) they are fetched.
  const [live, setLive] = useState<{ scope: string; stats: UserStats }>();
  const scope = organisationID ?? '';
  const onEvent = useCallback(
    (data?: { organisationUserStats?: UserStats }) => {
      if (data?.organisationUserStats) setLive({ scope, stats: data.organisationUserStats });
      else refetch({ requestPolicy: 'network-only' });
    },
    [scope, refetch],
  );
  useLiveRefresh({ subscription: USER_STATS_SUBSCRIPTION, variables, pause: skip, onEvent });
  if (skip) return undefined;
  return live?.scope === scope ? live.stats : result.data?.organisationUserStats;
}

const DISCONNECT_SUBSCRIPTION = 'subscription ShellDisconnect { organisationUserDisconnect }';

/** Signed out elsewhere, suspended, removed: the server says so, and the console forgets the user. */
export function useDisconnect(): void {
  useSubscription<{ organisationUserDisconnect: boolean }>({ query: DISCONNECT_SUBSCRIPTION }, (_previous, data) => {
    endSession(() => navigate('/admin', { replace: true }));
    return data;
  });
}
