import { useCallback, useMemo, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { endSession } from '../features/auth/session-store';
import { navigate } from '../router';
import { errorCode } from '../ui/errors';
import { useLiveRefresh } from '../ui/use-live-refresh';
import { can, isGuestMember, isSuperAdmin, type Viewer } from '../viewer';

// What the frame reads from the server: the organisation a super admin manages, the sidebar's
// counter, and the signal that this session has ended.

const ORGANISATION_NAME_QUERY = 'query ShellOrganisation($id: ID!) { organisation(id: $id) { id name } }';

/**
 * The organisation a page is about: the one a super admin works inside (looked up, and `missing`
 * when its id names none), else the viewer's own.
 */
export function useOrganisationName(viewer: Viewer, organisationID: string | undefined): { name: string | undefined; missing: boolean } {
  const managing = isSuperAdmin(viewer) && organisationID !== undefined;
  const [result] = useQuery<{ organisation: { id: string; name: string } }>({
    query: ORGANISATION_NAME_QUERY,
    variables: { id: organisationID ?? '' },
    pause: !managing,
  });
  if (managing) return { name: result.data?.organisation.name, missing: errorCode(result.error) === 'NOT_FOUND' };
  return { name: viewer.organisation?.name, missing: false };
}

const USER_STATS_QUERY = `query ShellOrganisationUserStats($organisationID: ID) {
  organisationUserStats(organisationID: $organisationID) { unassignedReports unreadMessages } }`;
const USER_STATS_SUBSCRIPTION = `subscription ShellOrganisationUserStatsLive($organisationID: ID) {
  organisationUserStats(organisationID: $organisationID) { unassignedReports unreadMessages } }`;

type OrganisationUserStats = { unassignedReports: number; unreadMessages: number };

/**
 * A live value of the frame: fetched once, then carried by its subscription (which sends the numbers
 * themselves); without the subscription, or after a drop, fetched again. `scope` names what the
 * numbers are for, so a value heard for another scope is never shown.
 */
function useLiveValue<Field extends string, T>(field: Field, query: string, subscription: string, variables: Record<string, unknown>, scope: string, skip: boolean): T | undefined {
  const [result, refetch] = useQuery<Record<Field, T>>({ query, variables, pause: skip });
  const [live, setLive] = useState<{ scope: string; value: T }>();
  const onEvent = useCallback(
    (data?: Partial<Record<Field, T>>) => {
      const value = data?.[field];
      if (value) setLive({ scope, value });
      else refetch({ requestPolicy: 'network-only' });
    },
    [field, scope, refetch],
  );
  useLiveRefresh({ subscription, variables, pause: skip, onEvent });
  if (skip) return undefined;
  return live?.scope === scope ? live.value : result.data?.[field];
}

/** The Reports (unassigned) and Conversations (unread) counters; skipped for guest members (spec section 6). */
export function useOrganisationUserStats(viewer: Viewer, organisationID: string | undefined): OrganisationUserStats | undefined {
  const skip = isGuestMember(viewer) || !can(viewer, 'ReportSubmissionList');
  const variables = useMemo(() => ({ organisationID: organisationID ?? null }), [organisationID]);
  return useLiveValue<'organisationUserStats', OrganisationUserStats>('organisationUserStats', USER_STATS_QUERY, USER_STATS_SUBSCRIPTION, variables, organisationID ?? '', skip);
}

const GUEST_ACCESS_QUERY = 'query ShellUserStats { userStats { guestOrganisationCount pendingInvites } }';
const GUEST_ACCESS_SUBSCRIPTION = 'subscription ShellUserStatsLive { userStats { guestOrganisationCount pendingInvites } }';
const NO_VARIABLES = {};

export type GuestAccessStats = { guestOrganisationCount: number; pendingInvites: number };

/** The Guest Access menu's counts, live: a new invite shows in the pending count without a reload. */
export function useGuestAccessStats(viewer: Viewer): GuestAccessStats | undefined {
  // A super admin reaches every organisation already; only other accounts are invited as guests.
  return useLiveValue<'userStats', GuestAccessStats>('userStats', GUEST_ACCESS_QUERY, GUEST_ACCESS_SUBSCRIPTION, NO_VARIABLES, viewer.id, isSuperAdmin(viewer));
}

const DISCONNECT_SUBSCRIPTION = 'subscription ShellDisconnect { organisationUserDisconnect }';

/** Signed out elsewhere, suspended, removed: the server says so, and the console forgets the user. */
export function useDisconnect(): void {
  useSubscription<{ organisationUserDisconnect: boolean }>({ query: DISCONNECT_SUBSCRIPTION }, (_previous, data) => {
    endSession(() => navigate('/admin', { replace: true }));
    return data;
  });
}
