import { useState } from 'react';
import { RETENTION_SETTING_LABEL } from '../../../../../api/shared/retention';
import { formatDateTime } from '../../../lib/format';
import { organisationEditPath } from '../../paths';
import { useDocumentTitle } from '../../ui/document-title';
import { Link } from '../../ui/link';
import { MissingScreen } from '../../ui/missing-screen';
import { can, isSuperAdmin, type Viewer } from '../../viewer';
import { FONT_LABELS, ORGANISATION_NOT_FOUND, type OrganisationDetail } from './organisations-api';
import { useOrganisation } from './use-organisation';
import { languageLabel } from '../../ui/translation-languages';
import './organisations.css';

type Tab = 'overview' | 'details';
type Props = { viewer: Viewer; organisationID?: string | undefined };

const yesNo = (value: boolean) => (value ? 'On' : 'Off');

/**
 * /admin/manage/organisations/overview[/{organisationID}] (spec §2 Organisations): the public page
 * link, the seats as activeUsers/openSeatNumber (owners and super admins only, spec §6), and the
 * Overview and Details tabs; Details, the settings at a glance with Edit, needs OrganisationUpdate.
 * A member reads the Overview: 'Account Settings: Organisation' is theirs too.
 */
export function OrganisationOverviewPage({ viewer, organisationID }: Props) {
  const { organisation, missing, returnTo } = useOrganisation(viewer, organisationID);
  const [tab, setTab] = useState<Tab>('overview');
  const mayEdit = can(viewer, 'OrganisationUpdate');
  useDocumentTitle([tab === 'details' ? 'Details' : 'Overview', organisation?.name ?? 'Organisation']);
  if (missing) return <main className="admin-page"><MissingScreen message={ORGANISATION_NOT_FOUND} returnTo={returnTo} /></main>;
  if (!organisation) return <main className="admin-page"><p className="muted" role="status">Loading…</p></main>;
  const seeSeats = isSuperAdmin(viewer) || viewer.role.name === 'ORGANISATION_OWNER';

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          {organisation.name}
        </h1>
        {mayEdit && !organisation.archived && (
          <Link to={organisationEditPath(organisationID)} className="button">
            Edit
          </Link>
        )}
      </div>
      {organisation.archived && <p className="alert alert--warning">This organisation is archived: its pages are closed and its staff cannot sign in.</p>}
      {mayEdit && (
        <nav className="tabs" aria-label="Organisation sections">
          {(['overview', 'details'] as const).map((entry) => (
            <button key={entry} type="button" className="tabs__tab" aria-current={tab === entry ? 'page' : undefined} onClick={() => setTab(entry)}>
              {entry === 'overview' ? 'Overview' : 'Details'}
            </button>
          ))}
        </nav>
      )}
      {tab === 'overview' || !mayEdit ? <OverviewCard organisation={organisation} seeSeats={seeSeats} /> : <DetailsCard organisation={organisation} superAdmin={isSuperAdmin(viewer)} />}
    </main>
  );
}

function OverviewCard({ organisation, seeSeats }: { organisation: OrganisationDetail; seeSeats: boolean }) {
  const facts: [string, string][] = [['ABN', organisation.abn || '—'], ['Form language', languageLabel(organisation.formLanguage, null)]];
  if (seeSeats) facts.push(['Seats', `${organisation.usage.activeUsers}/${organisation.openSeatNumber}`]);
  facts.push(['Active Forms', String(organisation.usage.activeForms)], ['Subscribers', String(organisation.usage.activeSubscribers)], ['Created At', formatDateTime(organisation.createdAt) ?? '']);
  return (
    <section className="card stack" aria-label="Overview">
      <LogoPreview organisation={organisation} />
      <dl className="organisation-facts">
        <div className="organisation-facts__row">
          <dt>Public page</dt>
          <dd>
            <a className="public-link" href={organisation.publicURL} target="_blank" rel="noopener noreferrer">
              {organisation.publicURL}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </dd>
        </div>
        {facts.map(([label, value]) => (
          <div key={label} className="organisation-facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The logo as the public page shows it: at its set width and padding. */
function LogoPreview({ organisation }: { organisation: OrganisationDetail }) {
  if (!organisation.logo) return null;
  return <img className="organisation-logo-preview" src={organisation.logo.fileURL} alt={`${organisation.name} logo`} style={{ width: organisation.logoWidthPixels, padding: organisation.logoPaddingPixels }} />;
}

function DetailsCard({ organisation, superAdmin }: { organisation: OrganisationDetail; superAdmin: boolean }) {
  const rows: [string, string][] = [
    ['Font', FONT_LABELS[organisation.fontFamily]],
    ['Stale message interval', `${organisation.staleMessageIntervalNumber} ${organisation.staleMessageIntervalUnit}${organisation.staleMessageIntervalNumber === 1 ? '' : 's'}`],
    ['Logo', organisation.logo ? `${organisation.logoWidthPixels} px wide, ${organisation.logoPaddingPixels} px padding` : 'None'],
    ['Logo on report forms', yesNo(organisation.showLogoOnReportForms)],
    ['Legal deadlines', organisation.legalClocksEnabled ? 'On (acknowledge within 7 days, feedback within 3 months)' : 'Off'],
    [RETENTION_SETTING_LABEL, organisation.retentionMonths === null ? 'Off' : String(organisation.retentionMonths)],
    ['General enquiries', organisation.generalEnquiryEnabled ? `On ('${organisation.generalEnquiryLabel}')` : 'Off'],
    ['Enquiry chat uploads', yesNo(organisation.allowGeneralEnquiryChatFileUploads)],
    ['Portal welcome message', yesNo(organisation.portalWelcomeMessageEnabled)],
  ];
  if (superAdmin) rows.push(['Magic Link / OTP', yesNo(organisation.enableEmailAuth2FA)], ['Single sign-on', yesNo(organisation.enableSSO)], ['Form translations', yesNo(organisation.enableFormTranslations)]);
  return (
    <section className="card stack" aria-label="Details">
      <LogoPreview organisation={organisation} />
      <dl className="organisation-facts">
        {rows.map(([label, value]) => (
          <div key={label} className="organisation-facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
