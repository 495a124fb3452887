import { useQuery } from 'urql';
import type { Viewer } from '../../viewer';
import { SEATS_QUERY, type Seats } from './users-api';

/** Seats shown as activeUsers/openSeatNumber (spec §9); owners and super admins see the count (spec §6). */
export function SeatsLine({ viewer, organisationID }: { viewer: Viewer; organisationID: string }) {
  const shown = viewer.role.name === 'SUPER_ADMIN' || viewer.role.name === 'ORGANISATION_OWNER';
  const [seats] = useQuery<{ organisation: Seats }>({ query: SEATS_QUERY, variables: { id: organisationID }, pause: !shown, requestPolicy: 'cache-and-network' });
  const organisation = seats.data?.organisation;
  if (!shown || !organisation) return null;
  const full = organisation.usage.activeUsers >= organisation.openSeatNumber;
  return (
    <p className="muted" data-testid="seats">
      <span className="field__label">Seats: </span>
      {`${organisation.usage.activeUsers}/${organisation.openSeatNumber}`}
      {full && ' — no free seats: creating or unsuspending a user needs one.'}
    </p>
  );
}
