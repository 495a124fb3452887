// The Organisations screens' calls (spec §2 Organisations, §7 organisations, organisation, organisationCreate,
// organisationUpdate, organisationUpdateLogo, organisationArchive, organisationUnarchive, the export).

export type OrganisationRow = { id: string; name: string; createdAt: string; archived: boolean };

export const ORGANISATIONS_QUERY = `query OrganisationsManage($search: String, $filter: ListFilter, $sortBy: OrganisationSortKey, $sortDir: SortDirection, $limit: Int, $offset: Int) {
  organisations(search: $search, filter: $filter, sortBy: $sortBy, sortDir: $sortDir, limit: $limit, offset: $offset) { total list { id name createdAt archived } } }`;

export const CREATE_MUTATION = 'mutation OrganisationCreate($input: OrganisationCreateInput!) { organisationCreate(input: $input) { id name } }';
export const ARCHIVE_MUTATION = 'mutation OrganisationArchive($id: ID!) { organisationArchive(id: $id) { id archived } }';
export const UNARCHIVE_MUTATION = 'mutation OrganisationUnarchive($id: ID!) { organisationUnarchive(id: $id) { id archived } }';

export type FontFamily = 'Helvetica' | 'Roboto' | 'Montserrat';
export type IntervalUnit = 'Hour' | 'Day';

/** Every setting of spec §3 that the edit screen changes. */
export type OrganisationSettings = {
  name: string;
  abn: string;
  openSeatNumber: number;
  staleMessageIntervalNumber: number;
  staleMessageIntervalUnit: IntervalUnit;
  generalEnquiryEnabled: boolean;
  /** Acknowledge within 7 days, feedback within 3 months (docs/decisions/050-legal-clocks.md). */
  legalClocksEnabled: boolean;
  /** Closed reports deleted this many months after closing; null is Off (docs/decisions/052-retention.md). */
  retentionMonths: number | null;
  generalEnquiryLabel: string;
  generalEnquiryWelcomeMessageContent: string;
  allowGeneralEnquiryChatFileUploads: boolean;
  portalWelcomeMessageEnabled: boolean;
  portalWelcomeMessageContent: string;
  showLogoOnReportForms: boolean;
  logoWidthPixels: number;
  logoPaddingPixels: number;
  fontFamily: FontFamily;
  enableEmailAuth2FA: boolean;
  enableSSO: boolean;
  enableFormTranslations: boolean;
  /** The language the organisation writes its forms in, as a code: what translations start from. */
  formLanguage: string;
};

const SETTINGS_KEYS = [
  'name', 'abn', 'openSeatNumber', 'staleMessageIntervalNumber', 'staleMessageIntervalUnit', 'generalEnquiryEnabled', 'generalEnquiryLabel',
  'generalEnquiryWelcomeMessageContent', 'allowGeneralEnquiryChatFileUploads', 'portalWelcomeMessageEnabled', 'portalWelcomeMessageContent',
  'showLogoOnReportForms', 'logoWidthPixels', 'logoPaddingPixels', 'fontFamily', 'enableEmailAuth2FA', 'enableSSO', 'enableFormTranslations', 'formLanguage',
  'legalClocksEnabled', 'retentionMonths',
] as const satisfies readonly (keyof OrganisationSettings)[];

/** The settings of a loaded organisation, as the update takes them (no ids, usage or logo). */
export function settingsOf(organisation: OrganisationSettings): OrganisationSettings {
  return Object.fromEntries(SETTINGS_KEYS.map((key) => [key, organisation[key]])) as OrganisationSettings;
}

export type OrganisationDetail = OrganisationSettings & {
  id: string;
  slug: string;
  publicURL: string;
  createdAt: string;
  archived: boolean;
  logo: { fileURL: string } | null;
  usage: { activeUsers: number; activeForms: number; activeSubscribers: number };
};

const DETAIL_FIELDS = `id name abn slug publicURL createdAt archived logo { fileURL } openSeatNumber staleMessageIntervalNumber staleMessageIntervalUnit
  generalEnquiryEnabled generalEnquiryLabel generalEnquiryWelcomeMessageContent allowGeneralEnquiryChatFileUploads
  portalWelcomeMessageEnabled portalWelcomeMessageContent showLogoOnReportForms logoWidthPixels logoPaddingPixels fontFamily
  enableEmailAuth2FA enableSSO enableFormTranslations formLanguage legalClocksEnabled retentionMonths usage { activeUsers activeForms activeSubscribers }`;

export const ORGANISATION_QUERY = `query OrganisationDetail($id: ID!) { organisation(id: $id) { ${DETAIL_FIELDS} } }`;
export const UPDATE_MUTATION = `mutation OrganisationUpdate($id: ID!, $input: OrganisationUpdateInput!) { organisationUpdate(id: $id, input: $input) { ${DETAIL_FIELDS} } }`;
export const UPDATE_LOGO_MUTATION = `mutation OrganisationUpdateLogo($id: ID!, $file: File!) { organisationUpdateLogo(id: $id, file: $file) { ${DETAIL_FIELDS} } }`;

export const FONT_LABELS: Record<FontFamily, string> = { Helvetica: 'Helvetica', Roboto: 'Roboto', Montserrat: 'Montserrat' };

/** Spec §8 texts. */
export const ORGANISATION_UPDATED = 'Organisation has been updated successfully';
export const ORGANISATION_NOT_FOUND = 'Organisation is not found';
export const UPLOAD_FAILED = 'Upload Failed';
export const createdOrUpdated = (name: string) => `Successfully created/updated organisation "${name}"`;

/** Spec §5 and §9: a logo is a jpg or png under 10,000,000 bytes. */
export const LOGO_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
export const LOGO_MAX_BYTES = 10_000_000;

export function logoFileProblem(file: File): string | undefined {
  const name = file.name.toLowerCase();
  if (!LOGO_EXTENSIONS.some((extension) => name.endsWith(extension))) return `${UPLOAD_FAILED}: the logo must be a .jpg or .png file.`;
  if (file.size >= LOGO_MAX_BYTES) return `${UPLOAD_FAILED}: the logo must be under 10,000,000 bytes.`;
  return undefined;
}

export const EXPORT_PATH = '/api/admin/export/organisations';
export const EXPORT_FILE_NAME = 'organisations-export.csv';
