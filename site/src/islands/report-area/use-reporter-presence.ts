import { useCallback, useEffect, useState } from 'react';
import { graphqlRequest } from '../../lib/graphql';
import { subscribe } from '../../lib/live';
import { usePresenceAnnouncer, type PresenceStatus } from '../../lib/presence';

// The reporter's side of chat presence: their own Online / Typing / Offline for the organisation's
// team, and the team's status shown to them. The server knows whose report it is from the session.

const STATUS_MUTATION = `mutation ReportConversationUpdateUserStatus($status: PresenceStatus!) {
  reportConversationUpdateUserStatus(status: $status) }`;
const PRESENCE_SUBSCRIPTION = 'subscription ReportConversation { reportConversation { otherUserStatus } }';

/**
 * While the Messages tab is open (and the conversation is not closed), announces the reporter's
 * presence and follows the team's. Returns the team's status and the keystroke callback.
 */
export function useReporterPresence(enabled: boolean) {
  const [teamStatus, setTeamStatus] = useState<PresenceStatus>('Offline');
  const send = useCallback((status: PresenceStatus) => void graphqlRequest(STATUS_MUTATION, { status }), []);
  const { typing, sent } = usePresenceAnnouncer(send, enabled);

  useEffect(
    () =>
      subscribe<{ reportConversation: { otherUserStatus: PresenceStatus } }>(PRESENCE_SUBSCRIPTION, undefined, (data) =>
        setTeamStatus(data.reportConversation.otherUserStatus),
      ),
    [],
  );
  return { teamStatus, typing, sent };
}
