import { useQuery } from 'urql';
import { organisationsPath } from '../../paths';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { ORGANISATION_QUERY, type OrganisationDetail } from './organisations-api';

/**
 * The organisation an overview or edit screen shows: the one in the address (a super admin's), else
 * the viewer's own. `returnTo` is where 'Organisation is not found' leads (spec §2 Organisations).
 */
export function useOrganisation(viewer: Viewer, organisationID: string | undefined) {
  const id = organisationID ?? viewer.organisation?.id;
  const [result, refetch] = useQuery<{ organisation: OrganisationDetail | null }>({ query: ORGANISATION_QUERY, variables: { id: id ?? '' }, pause: !id });
  const organisation = result.data?.organisation ?? undefined;
  const missing = !id || (!result.fetching && (result.error !== undefined || (result.data !== undefined && !organisation)));
  return { id, organisation, missing, error: result.error, refetch, returnTo: isSuperAdmin(viewer) ? organisationsPath() : '/admin' };
}
