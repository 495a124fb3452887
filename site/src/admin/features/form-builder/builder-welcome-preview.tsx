import { useQuery } from 'urql';
import { RichText } from '../../../forms/rich-text';
import type { FormSettings } from './builder-api';
import '../../../styles/report-flow.css';

const ORGANISATION_QUERY = `query BuilderPreviewOrganisation($id: ID!) {
  organisation(id: $id) { id name fontFamily showLogoOnReportForms logoWidthPixels logoPaddingPixels logo { fileURL } }
}`;

type OrganisationLook = {
  id: string;
  name: string;
  fontFamily: 'Helvetica Neue' | 'Roboto' | 'Montserrat';
  showLogoOnReportForms: boolean;
  logoWidthPixels: number;
  logoPaddingPixels: number;
  logo: { fileURL: string } | null;
};

/** The organisation's font and logo settings, as its reporters' pages apply them; templates have none. */
export function useOrganisationLook(organisationID: string | undefined): OrganisationLook | undefined {
  const [result] = useQuery<{ organisation: OrganisationLook }>({ query: ORGANISATION_QUERY, variables: { id: organisationID ?? '' }, pause: !organisationID });
  return organisationID ? result.data?.organisation : undefined;
}

/** The value of the reporters' data-font attribute (base.css) for an organisation's font. */
export function fontData(look: OrganisationLook | undefined): string | undefined {
  return look ? look.fontFamily.split(' ')[0]!.toLowerCase() : undefined;
}

type WelcomePreviewProps = { settings: Pick<FormSettings, 'welcomeMessageTitle' | 'welcomeMessageContent' | 'showLogo'>; look: OrganisationLook | undefined };

/**
 * The welcome step as reporters meet it: the logo when both the form and the organisation show
 * it, the title, the formatted message and the Next button in the theme's colours. The button is
 * a picture of one: the preview's welcome leads nowhere.
 */
export function WelcomePreview({ settings, look }: WelcomePreviewProps) {
  const logo = settings.showLogo && look?.showLogoOnReportForms && look.logo ? look.logo.fileURL : undefined;
  return (
    <section className="builder-preview__page" aria-label="Welcome">
      {logo && (
        <img className="builder-preview__logo" src={logo} alt={look!.name} width={look!.logoWidthPixels} style={{ padding: look!.logoPaddingPixels }} />
      )}
      <h3 className="builder-preview__page-title">{settings.welcomeMessageTitle.trim() || 'Welcome'}</h3>
      <RichText html={settings.welcomeMessageContent} />
      <div className="actions">
        <span className="button report-button--next" aria-hidden="true">
          Next
        </span>
      </div>
    </section>
  );
}
