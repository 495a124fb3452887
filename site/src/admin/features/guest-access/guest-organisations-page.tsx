import { useState } from 'react';
import { useQuery } from 'urql';
import { formatDateTime } from '../../../lib/format';
import { TWO_FACTOR_FOR_OTHER_ORGANISATIONS } from '../../../../../api/shared/messages';
import { reportListPath } from '../../paths';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { Link } from '../../ui/link';
import { ListSection } from './list-section';
import { Pagination } from '../../ui/pagination';
import type { Viewer } from '../../viewer';
import { ORGANISATIONS_QUERY, type OrganisationRow } from './guest-access-api';

const PAGE_SIZE = 20;

/**
 * /admin/manage/organisations for everyone but a super admin: the organisations whose reports the
 * user was admitted to as a guest. Their names lead to the reports only with two-factor
 * authentication active; otherwise they are plain text, and the notice says why (spec §2).
 */
export function GuestOrganisationsPage({ viewer }: { viewer: Viewer }) {
  const [page, setPage] = useState(1);
  const [list] = useQuery<{ organisations: { total: number; list: OrganisationRow[] } }>({
    query: ORGANISATIONS_QUERY,
    variables: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
  });
  useDocumentTitle(['Organisations']);
  const twoFactor = viewer.twoFactorAuthenticationActivated;
  const rows = list.data?.organisations.list;

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Organisations
        </h1>
      </div>
      {!twoFactor && <p className="alert alert--warning">{TWO_FACTOR_FOR_OTHER_ORGANISATIONS}</p>}
      <ErrorBanner message={errorMessage(list.error)} />
      <ListSection label="Organisations" fetching={list.fetching} count={rows?.length} plural="organisations">
        <table className="table table--cards">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created At</th>
            </tr>
          </thead>
          <tbody>
            {(rows ?? []).map((organisation) => (
              <tr key={organisation.id}>
                <td data-label="Name">{twoFactor ? <Link to={reportListPath()}>{organisation.name}</Link> : organisation.name}</td>
                <td data-label="Created At">{formatDateTime(organisation.createdAt) ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListSection>
      <Pagination page={page} pageSize={PAGE_SIZE} total={list.data?.organisations.total ?? 0} onPage={setPage} label="Organisation pages" />
    </main>
  );
}
