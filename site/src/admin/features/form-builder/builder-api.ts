import { THEME_KEYS } from '../../../../../api/shared/theme';
import type { FormSettingsFields, FormWidget } from '../../../../../api/shared/form-definition';

// The builder's calls (spec §7, report forms and form templates) and its texts (spec §8).

export const FORM_UPDATED = 'Report Form has been updated successfully';
export const FORM_PUBLISHED = 'Report Form has been published';
export const FORM_UNPUBLISHED = 'Report Form has been unpublished';
export const FORM_NOT_FOUND = 'Report Form is not found';
export const TEMPLATE_NOT_FOUND = 'Form Template is not found';
export const TEMPLATE_UPDATED = 'Form Template has been updated successfully';
export const LEAVE_PROMPT = 'You have unsaved changes, are you sure you want to leave?';
export const REQUIRED = 'Required';
export const PASSWORD_REQUIRED = 'Password is required';

/** The upload types a form may allow (spec §5), in the spec's order. */
export const FILE_TYPES = ['.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.txt', '.mp4', '.mp3', '.m4a', '.mov'] as const;

export type PublishState = 'Unpublished' | 'Published' | 'Outdated';
export type Build = { id: string; revision: number; widgets: FormWidget[] };

/** A form's messages, flags and protection: everything of the settings panel but the name. */
export type FormSettings = FormSettingsFields & {
  /** The secure toggle; `password` is only ever what this editor typed (the server never returns it). */
  secure: boolean;
  password: string;
  locked: boolean;
};

export type LoadedForm = Omit<FormSettings, 'secure' | 'password' | 'theme'> & {
  id: string;
  name: string;
  organisationID: string;
  secured: boolean;
  theme: Record<string, string | null>;
  publishState: PublishState;
  currentBuild: Build | null;
};

export type LoadedTemplate = { id: string; name: string; currentBuild: Build | null };

/** What the editor last loaded or saved. */
export type Loaded = { kind: 'form'; form: LoadedForm } | { kind: 'template'; template: LoadedTemplate };

const WIDGET_FIELDS = 'id type title required tooltip caption answers pageName condition { id matchType rules { id conditionWidgetID conditionAnswer } }';
const BUILD_FIELDS = `id revision widgets { ${WIDGET_FIELDS} }`;
const FORM_FIELDS = `id name organisationID locked secured publishState theme { ${THEME_KEYS.join(' ')} }
  welcomeMessageTitle welcomeMessageContent finishMessageTitle finishMessageContent uploadFilesMessage
  assignedToSupportMessage reportClosedMessage acknowledgementMessage showImportantInfoMessage showLogo hasChat allowFileUploads
  allowChatFileUploads allowedFileTypes currentBuild { ${BUILD_FIELDS} }`;
const TEMPLATE_FIELDS = `id name currentBuild { ${BUILD_FIELDS} }`;

export const FORM_QUERY = `query BuilderForm($id: ID!) { reportFormGet(id: $id) { ${FORM_FIELDS} } }`;
export const TEMPLATE_QUERY = `query BuilderTemplate($id: ID!) { reportFormTemplateGet(id: $id) { ${TEMPLATE_FIELDS} } }`;
export const FORM_CREATE = `mutation BuilderFormCreate($input: ReportFormInput!) { reportFormCreate(input: $input) { ${FORM_FIELDS} } }`;
export const FORM_UPDATE = `mutation BuilderFormUpdate($id: ID!, $input: ReportFormInput!) { reportFormUpdate(id: $id, input: $input) { ${FORM_FIELDS} } }`;
export const FORM_PUBLISH = `mutation BuilderFormPublish($id: ID!, $buildID: ID!) { reportFormPublish(id: $id, buildID: $buildID) { ${FORM_FIELDS} } }`;
export const FORM_UNPUBLISH = `mutation BuilderFormUnpublish($id: ID!) { reportFormUnpublish(id: $id) { ${FORM_FIELDS} } }`;
export const TEMPLATE_CREATE = `mutation BuilderTemplateCreate($input: ReportFormTemplateInput!) { reportFormTemplateCreate(input: $input) { ${TEMPLATE_FIELDS} } }`;
export const TEMPLATE_UPDATE = `mutation BuilderTemplateUpdate($id: ID!, $input: ReportFormTemplateInput!) {
  reportFormTemplateUpdate(id: $id, input: $input) { ${TEMPLATE_FIELDS} } }`;
