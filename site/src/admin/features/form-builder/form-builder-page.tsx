import { useQuery } from 'urql';
import { useStore } from '../../../lib/use-store';
import { $location } from '../../router';
import { ErrorBanner } from '../../ui/error-banner';
import { errorCode, errorMessage, REPORT_FORM_LOAD_FAILED } from '../../ui/errors';
import { MissingScreen } from '../../ui/missing-screen';
import type { Viewer } from '../../viewer';
import { reportFormListPath } from '../../paths';
import { FORM_NOT_FOUND, FORM_QUERY, TEMPLATE_NOT_FOUND, TEMPLATE_QUERY, type Loaded, type LoadedForm, type LoadedTemplate } from './builder-api';
import { copyWidgets, loadAction, NEW_FORM_SETTINGS } from './builder-input';
import { builderReducer, localId, type BuilderState } from './builder-store';
import { BuilderScreen } from './builder-screen';
import './form-builder.css';

type FormBuilderPageProps = {
  viewer: Viewer;
  kind: 'form' | 'template';
  /** A super admin's organisation, from the organisation-scoped routes. */
  organisationID?: string;
  reportFormID?: string;
  /** A form: the template it starts from (the create route's ?template_id=). A template: the one edited. */
  templateID?: string;
  /** The same, by the template's full name; either prop is honoured. */
  reportFormTemplateID?: string;
};

const EMPTY: BuilderState = { name: '', widgets: [], savedIds: [], settings: NEW_FORM_SETTINGS, dirty: false, refusal: null };

/**
 * The one builder of report forms and form templates (spec §2): create, from scratch or from a
 * template, and edit. It loads what the route names, then hands it to the editor.
 */
export function FormBuilderPage({ viewer, kind, organisationID, reportFormID, templateID, reportFormTemplateID }: FormBuilderPageProps) {
  const location = useStore($location);
  const namedTemplate = templateID ?? reportFormTemplateID;
  const sourceTemplateID = kind === 'form' && !reportFormID ? (namedTemplate ?? (new URLSearchParams(location.search).get('template_id') || undefined)) : undefined;
  const [formResult] = useQuery<{ reportFormGet: LoadedForm }>({ query: FORM_QUERY, variables: { id: reportFormID }, pause: !reportFormID, requestPolicy: 'network-only' });
  const templateToLoad = kind === 'template' ? namedTemplate : sourceTemplateID;
  const [templateResult] = useQuery<{ reportFormTemplateGet: LoadedTemplate }>({ query: TEMPLATE_QUERY, variables: { id: templateToLoad }, pause: !templateToLoad, requestPolicy: 'network-only' });

  const form = reportFormID ? formResult.data?.reportFormGet : undefined;
  const template = templateToLoad ? templateResult.data?.reportFormTemplateGet : undefined;
  const loaded: Loaded | undefined = form ? { kind: 'form', form } : kind === 'template' && template ? { kind: 'template', template } : undefined;
  const source = sourceTemplateID ? template : undefined;
  // The editor reads this once, when it mounts; later answers reach it through its own saves and reloads.
  const initial = (): BuilderState => {
    if (loaded) return builderReducer(EMPTY, loadAction(loaded));
    // A form made from a template starts as unsaved work: nothing exists until the first save.
    if (source) return builderReducer(EMPTY, { type: 'load', name: source.name, widgets: copyWidgets(source.currentBuild?.widgets ?? [], localId), settings: NEW_FORM_SETTINGS, fromServer: false });
    return EMPTY;
  };

  if (reportFormID && !form) {
    if (errorCode(formResult.error) === 'NOT_FOUND') return <Missing message={FORM_NOT_FOUND} returnTo={reportFormListPath(organisationID)} label="Return to Report Forms" />;
    return <Waiting error={formResult.error && REPORT_FORM_LOAD_FAILED} />;
  }
  if (templateToLoad && !template) {
    if (errorCode(templateResult.error) === 'NOT_FOUND') return <Missing message={TEMPLATE_NOT_FOUND} returnTo="/admin" />;
    return <Waiting error={templateResult.error && errorMessage(templateResult.error)} />;
  }
  return (
    <BuilderScreen
      key={loaded ? `${loaded.kind}:${form?.id ?? template?.id}` : 'new'}
      kind={kind}
      initial={initial}
      loaded={loaded}
      organisationID={organisationID}
      routeOrganisationID={organisationID}
      viewerOrganisationID={viewer.organisation?.id}
    />
  );
}

function Missing({ message, returnTo, label }: { message: string; returnTo: string; label?: string }) {
  return (
    <main className="admin-page">
      <MissingScreen message={message} returnTo={returnTo} returnLabel={label} />
    </main>
  );
}

function Waiting({ error }: { error: string | undefined }) {
  return (
    <main className="admin-page stack">
      <ErrorBanner message={error} />
      {!error && <p className="muted">Loading…</p>}
    </main>
  );
}
