import { useCallback } from 'react';
import { useClient, useSubscription } from 'urql';
import { usePresenceAnnouncer, type PresenceStatus } from '../../../../lib/presence';

// Chat presence (spec section 4): the reporter's status shown to staff, and the team's own status
// (online, typing while a reply is written, offline on leaving) sent for the reporter to see.

const PRESENCE_SUBSCRIPTION = `subscription ReportChatPresence($id: ID) {
  reportConversation(reportSubmissionID: $id) { otherUserStatus lastSeenAt lastTypedAt } }`;
const STATUS_MUTATION = `mutation ReportChatStatus($id: ID, $status: PresenceStatus!) {
  reportConversationUpdateUserStatus(reportSubmissionID: $id, status: $status) }`;

export type Presence = { otherUserStatus: PresenceStatus; lastSeenAt: string | null; lastTypedAt: string | null };

export function usePresence(reportID: string, announce: boolean) {
  const client = useClient();
  const [result] = useSubscription<{ reportConversation: Presence }, Presence>(
    { query: PRESENCE_SUBSCRIPTION, variables: { id: reportID } },
    (_previous, data) => data.reportConversation,
  );
  const send = useCallback(
    (status: PresenceStatus) => void client.mutation(STATUS_MUTATION, { id: reportID, status }).toPromise(),
    [client, reportID],
  );
  const { typing, sent } = usePresenceAnnouncer(send, announce);
  return { reporter: result.data, typing, sent };
}
