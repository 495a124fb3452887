import { useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useMutation } from 'urql';
import { LEGAL_CLOCKS_SETTING_LABEL } from '../../../../../api/shared/legal-clocks';
import { TextField } from '../../../lib/text-field';
import { organisationOverviewPath } from '../../paths';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { MissingScreen } from '../../ui/missing-screen';
import { notify } from '../../ui/notice-store';
import { ownProof, ownProofRefusal, ProofDialog, type AccountProof, type ProofRefusal } from '../../ui/proof-dialog';
import { SelectField } from '../../ui/select-field';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { FormLanguageField } from './form-language-field';
import { OrganisationLogoField } from './organisation-logo-field';
import { RetentionField } from './retention-field';
import { FONT_LABELS, ORGANISATION_NOT_FOUND, ORGANISATION_UPDATED, settingsOf, UPDATE_MUTATION, type FontFamily, type OrganisationDetail, type OrganisationSettings } from './organisations-api';
import { useOrganisation } from './use-organisation';
import './organisations.css';

export type RichTextEditorProps = { id: string; label: string; value: string; onChange(html: string): void; disabled?: boolean };

type Props = {
  viewer: Viewer;
  organisationID?: string | undefined;
  /** The console's rich text editor (the form builder's, loaded lazily), handed over by the route table. */
  RichTextEditor: ComponentType<RichTextEditorProps>;
};

/** The spec's interval errors (§5); the seat count is checked the same way. */
export function intervalProblem(text: string): string | undefined {
  if (text.trim() === '' || !/^-?\d+$/.test(text.trim())) return 'Invalid Interval Number given';
  if (Number(text) <= 0) return 'Interval Number must be greater than 0';
  return undefined;
}

/** What only a super admin changes (spec §6): the name, seats, Magic Link/OTP, SSO and form translations. */
const SUPER_ADMIN_ONLY: readonly (keyof OrganisationSettings)[] = ['name', 'openSeatNumber', 'enableEmailAuth2FA', 'enableSSO', 'enableFormTranslations'];

/** /admin/manage/organisations/edit[/{organisationID}]: every setting of spec §3. */
export function OrganisationEditPage({ viewer, organisationID, RichTextEditor }: Props) {
  const { organisation, missing, returnTo } = useOrganisation(viewer, organisationID);
  useDocumentTitle(['Edit', organisation?.name ?? 'Organisation']);
  if (missing) return <main className="admin-page"><MissingScreen message={ORGANISATION_NOT_FOUND} returnTo={returnTo} /></main>;
  if (!organisation) return <main className="admin-page"><p className="muted" role="status">Loading…</p></main>;
  return <SettingsForm key={organisation.id} viewer={viewer} organisation={organisation} organisationID={organisationID} RichTextEditor={RichTextEditor} />;
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="organisation-check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

function Range({ id, label, value, min, max, onChange }: { id: string; label: string; value: number; min: number; max: number; onChange: (value: number) => void }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="organisation-range">
        <input id={id} type="range" min={min} max={max} step={1} value={value} onChange={(event) => onChange(Number(event.target.value))} />
        <output htmlFor={id}>{value} px</output>
      </div>
    </div>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

function SettingsForm({ viewer, organisation, organisationID, RichTextEditor }: { viewer: Viewer; organisation: OrganisationDetail; organisationID?: string | undefined; RichTextEditor: ComponentType<RichTextEditorProps> }) {
  const superAdmin = isSuperAdmin(viewer);
  const [values, setValues] = useState<OrganisationSettings>(() => settingsOf(organisation));
  const [interval, setIntervalText] = useState(String(organisation.staleMessageIntervalNumber));
  const [seats, setSeats] = useState(String(organisation.openSeatNumber));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [error, setError] = useState<string>();
  const [{ fetching }, update] = useMutation(UPDATE_MUTATION);
  /** How the organisation's accounts sign in changes only with the super admin's own password (decision 061). */
  const [askingProof, setAskingProof] = useState(false);
  const set = <K extends keyof OrganisationSettings>(key: K) => (value: OrganisationSettings[K]) => setValues((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      name: superAdmin && !values.name.trim() ? 'Required' : undefined,
      staleMessageIntervalNumber: intervalProblem(interval),
      openSeatNumber: superAdmin ? (/^\d+$/.test(seats.trim()) ? undefined : 'Invalid Interval Number given') : undefined,
      generalEnquiryLabel: values.generalEnquiryLabel.trim() ? undefined : 'Required',
      formLanguage: values.formLanguage.trim() ? undefined : 'Required',
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    setError(undefined);
    if (superAdmin && (values.enableEmailAuth2FA !== organisation.enableEmailAuth2FA || values.enableSSO !== organisation.enableSSO)) return setAskingProof(true);
    await save();
  };

  const formInput = (): Record<string, unknown> => {
    const input: Record<string, unknown> = { ...values, staleMessageIntervalNumber: Number(interval), openSeatNumber: Number(seats) };
    if (!superAdmin) for (const key of SUPER_ADMIN_ONLY) delete input[key];
    return input;
  };

  /** Saves; a refusal of the proof is answered to the dialog, anything else shows above the form. */
  const save = async (proof?: AccountProof): Promise<ProofRefusal | undefined> => {
    const result = await update({ id: organisation.id, input: { ...formInput(), ...(proof ? ownProof(proof) : {}) } });
    if (result.error) {
      const refusal = ownProofRefusal(result.error);
      if (proof && Object.keys(refusal.fields ?? {}).length > 0) return refusal;
      setAskingProof(false);
      setError(errorMessage(result.error));
      return undefined;
    }
    notify(ORGANISATION_UPDATED);
    navigate(organisationOverviewPath(organisationID));
    return undefined;
  };

  return (
    <main className="admin-page stack">
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          Edit {organisation.name}
        </h1>
      </div>
      <form className="card organisation-settings" noValidate onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <Group legend="Organisation">
          {superAdmin ? <TextField id="organisation-name" label="Organisation Name" value={values.name} onChange={set('name')} error={errors.name} /> : null}
          <TextField id="organisation-abn" label="ABN" value={values.abn} onChange={set('abn')} />
          {superAdmin && <TextField id="organisation-seats" label="Seats" value={seats} onChange={setSeats} error={errors.openSeatNumber} />}
          <FormLanguageField value={values.formLanguage} onChange={set('formLanguage')} error={errors.formLanguage} />
        </Group>
        <Group legend="Branding">
          <OrganisationLogoField organisation={organisation} width={values.logoWidthPixels} padding={values.logoPaddingPixels} />
          <Range id="organisation-logo-width" label="Logo Width" value={values.logoWidthPixels} min={50} max={250} onChange={set('logoWidthPixels')} />
          <Range id="organisation-logo-padding" label="Logo Padding" value={values.logoPaddingPixels} min={10} max={25} onChange={set('logoPaddingPixels')} />
          <Check label="Show logo on report forms" checked={values.showLogoOnReportForms} onChange={set('showLogoOnReportForms')} />
          <SelectField
            id="organisation-font"
            label="Font"
            className="organisation-font"
            value={values.fontFamily}
            options={(Object.keys(FONT_LABELS) as FontFamily[]).map((value) => ({ value, label: FONT_LABELS[value] }))}
            onChange={(value) => set('fontFamily')(value as FontFamily)}
          />
        </Group>
        <Group legend="Conversations">
          <div className="organisation-inline">
            <TextField id="organisation-interval" label="Stale Message Interval" value={interval} onChange={(text) => {
                setIntervalText(text);
                setErrors((current) => ({ ...current, staleMessageIntervalNumber: undefined }));
              }}
              error={errors.staleMessageIntervalNumber} />
            <SelectField
              id="organisation-interval-unit"
              label="Interval Unit"
              className="organisation-interval-unit"
              value={values.staleMessageIntervalUnit}
              options={[{ value: 'Hour', label: 'Hours' }, { value: 'Day', label: 'Days' }]}
              onChange={(value) => set('staleMessageIntervalUnit')(value as OrganisationSettings['staleMessageIntervalUnit'])}
            />
          </div>
        </Group>
        <Group legend="Reports">
          <Check label={LEGAL_CLOCKS_SETTING_LABEL} checked={values.legalClocksEnabled} onChange={set('legalClocksEnabled')} />
          <RetentionField value={values.retentionMonths} onChange={set('retentionMonths')} />
        </Group>
        <Group legend="General Enquiries">
          <Check label="Enable general enquiries" checked={values.generalEnquiryEnabled} onChange={set('generalEnquiryEnabled')} />
          <TextField id="organisation-enquiry-label" label="Ask a Question button label" value={values.generalEnquiryLabel} onChange={set('generalEnquiryLabel')} error={errors.generalEnquiryLabel} />
          <div className="field">
            <label className="field__label" htmlFor="organisation-enquiry-welcome">
              Enquiry Welcome Message
            </label>
            <textarea id="organisation-enquiry-welcome" className="field__input" rows={4} value={values.generalEnquiryWelcomeMessageContent} onChange={(event) => set('generalEnquiryWelcomeMessageContent')(event.target.value)} />
          </div>
          <Check label="Allow file uploads in enquiry chats" checked={values.allowGeneralEnquiryChatFileUploads} onChange={set('allowGeneralEnquiryChatFileUploads')} />
        </Group>
        <Group legend="Portal Welcome Message">
          <Check label="Show a welcome message on the organisation page" checked={values.portalWelcomeMessageEnabled} onChange={set('portalWelcomeMessageEnabled')} />
          <RichTextEditor id="organisation-portal-welcome" label="Welcome Message" value={values.portalWelcomeMessageContent} onChange={set('portalWelcomeMessageContent')} />
        </Group>
        {superAdmin && (
          <Group legend="Sign-in and Features">
            <Check label="Magic Link / OTP (email sign-in)" checked={values.enableEmailAuth2FA} onChange={set('enableEmailAuth2FA')} />
            <Check label="Single sign-on (Microsoft)" checked={values.enableSSO} onChange={set('enableSSO')} />
            <Check label="Form translations" checked={values.enableFormTranslations} onChange={set('enableFormTranslations')} />
          </Group>
        )}
        <div className="actions">
          <button type="submit" className="button" disabled={fetching}>
            {fetching ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="button button--secondary" onClick={() => navigate(organisationOverviewPath(organisationID))}>
            Cancel
          </button>
        </div>
      </form>
      {askingProof && (
        <ProofDialog
          title="Sign-in Settings"
          intro={`The way ${organisation.name}'s accounts sign in will change (Magic Link / OTP, single sign-on).`}
          submitLabel="Save"
          account={viewer}
          onSubmit={save}
          onClose={() => setAskingProof(false)}
        />
      )}
    </main>
  );
}
