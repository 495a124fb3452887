import { useReducer, useState } from 'react';
import { WIDGET_TYPES } from '../../../../../api/shared/enums';
import { TextField } from '../../../lib/text-field';
import { useDocumentTitle } from '../../ui/document-title';
import { Link } from '../../ui/link';
import { formTemplateListPath, reportFormListPath } from '../../paths';
import type { Loaded } from './builder-api';
import { loadAction } from './builder-input';
import { BuilderPreview } from './builder-preview';
import { builderReducer, localId, TYPE_LABELS, type BuilderAction, type BuilderState } from './builder-store';
import { ConditionsDialog } from './conditions-dialog';
import { FormSettingsPanel } from './form-settings';
import { BuilderTabs, TranslationsPanel, type BuilderTab } from './translations-slot';
import { useBuilderActions } from './use-builder-actions';
import { useLeaveGuard } from './use-leave-guard';
import { WidgetList } from './widget-list';

type BuilderScreenProps = {
  kind: 'form' | 'template';
  initial: () => BuilderState;
  loaded: Loaded | undefined;
  organisationID?: string;
  routeOrganisationID?: string;
  /** The signed-in user's own organisation, where a new form goes unless the route names one. */
  viewerOrganisationID?: string;
};

/** The editor itself: widgets, their editor and conditions, the form's settings and the live preview. */
export function BuilderScreen({ kind, initial, loaded: firstLoaded, organisationID, routeOrganisationID, viewerOrganisationID }: BuilderScreenProps) {
  const [state, dispatch] = useReducer(builderReducer, undefined, initial);
  const [loaded, setLoaded] = useState(firstLoaded);
  const [openId, setOpenId] = useState<string | null>(null);
  /** The widget just added: its first field takes focus, so its title can be typed at once. */
  const [addedId, setAddedId] = useState<string | null>(null);
  const [conditionsFor, setConditionsFor] = useState<string | null>(null);
  const [tab, setTab] = useState<BuilderTab>('editor');
  const leaveSaved = useLeaveGuard(state.dirty);
  const onLoaded = (next: Loaded) => {
    setLoaded(next);
    dispatch(loadAction(next));
    setOpenId(null);
  };
  const actions = useBuilderActions({ kind, loaded, organisationID, routeOrganisationID, state, onLoaded, leaveSaved });
  const form = loaded?.kind === 'form' ? loaded.form : undefined;
  const locked = form?.locked ?? false;
  const noun = kind === 'form' ? 'Report Form' : 'Form Template';
  const title = `${loaded ? 'Edit' : 'Create'} A ${noun}`;
  useDocumentTitle([title]);
  const problems = actions.fieldProblems;
  const conditionsWidget = state.widgets.find((widget) => widget.id === conditionsFor);

  const openWidget = (id: string | null) => {
    setAddedId(null);
    setOpenId(id);
  };

  // A new widget opens in the editor, ready for its title.
  const add = (action: BuilderAction & { type: 'add' }) => {
    const id = localId();
    dispatch({ ...action, id });
    setOpenId(id);
    setAddedId(id);
  };

  return (
    <main className="admin-page stack builder">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={kind === 'form' ? reportFormListPath(routeOrganisationID) : formTemplateListPath()}>{kind === 'form' ? 'Report Forms' : 'Form Templates'}</Link>
        <span aria-hidden="true"> / </span>
        <span>{title}</span>
      </nav>
      <div className="page-header builder__header">
        <h1 className="page-header__title" tabIndex={-1}>
          {title}
        </h1>
        <div className="actions">
          {state.dirty && <span className="badge badge--warning">Unsaved changes</span>}
          {form && form.publishState !== 'Published' && (
            <button type="button" className="button button--secondary" disabled={actions.busy || state.dirty || !form.currentBuild} title={state.dirty ? 'Save your changes first' : undefined} onClick={() => void actions.publish()}>
              Publish
            </button>
          )}
          {form && form.publishState !== 'Unpublished' && (
            <button type="button" className="button button--secondary" disabled={actions.busy} onClick={() => void actions.unpublish()}>
              Unpublish
            </button>
          )}
          <button type="button" className="button" disabled={actions.busy} onClick={() => void actions.save()}>
            {actions.busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      {actions.problem && (
        <div className="alert alert--error builder__error" role="alert">
          <span>{actions.problem.message}</span>
          {actions.problem.conflict && (
            <button type="button" className="button button--small" onClick={() => void actions.reload()}>
              Reload
            </button>
          )}
        </div>
      )}
      {form && <p className="muted">Status: {form.publishState}{form.currentBuild ? ` · Revision ${form.currentBuild.revision}` : ''}</p>}
      {locked && (
        <p className="alert alert--warning" id="builder-locked-note">
          This form is locked: its widgets and settings cannot be changed. To unlock it, turn off “Lock this form” and Save.
        </p>
      )}
      {form && <BuilderTabs tab={tab} onTab={setTab} />}
      {form && tab === 'translations' && <TranslationsPanel formID={form.id} organisationID={form.organisationID} dirty={state.dirty} />}
      {/* Kept mounted while translations are shown, so an open widget and the preview stay as they were. */}
      <div className="builder__columns" hidden={tab === 'translations'}>
        <div className="builder__editor stack">
          <section className="card stack" aria-labelledby="builder-details-title">
            <h2 id="builder-details-title" className="card__title">
              Details
            </h2>
            <fieldset className="builder-group" disabled={locked}>
              <TextField id="builder-name" label={kind === 'form' ? 'Form Name' : 'Template Name'} value={state.name} onChange={(name) => dispatch({ type: 'name', name })} error={problems['builder-name']} />
            </fieldset>
            {kind === 'form' && (
              <label className="builder-check">
                <input type="checkbox" checked={state.settings.locked} onChange={(event) => dispatch({ type: 'settings', patch: { locked: event.target.checked } })} />
                <span>Lock this form</span>
              </label>
            )}
          </section>
          <section className="card stack" aria-labelledby="builder-widgets-title">
            <h2 id="builder-widgets-title" className="card__title">
              Widgets
            </h2>
            <div className="builder-add" role="group" aria-label="Add a widget">
              <button type="button" className="button button--secondary button--small" disabled={locked} onClick={() => add({ type: 'add', widgetType: 'Section', pageBreak: true })}>
                + Page Break
              </button>
              {WIDGET_TYPES.map((type) => (
                <button key={type} type="button" className="button button--secondary button--small" disabled={locked} onClick={() => add({ type: 'add', widgetType: type })}>
                  + {TYPE_LABELS[type]}
                </button>
              ))}
            </div>
            <WidgetList widgets={state.widgets} refusal={state.refusal} dispatch={dispatch} problems={problems} locked={locked} openId={openId} addedId={addedId} onOpen={openWidget} onConditions={setConditionsFor} />
          </section>
          {kind === 'form' && (
            <section className="card stack" aria-labelledby="builder-settings-title">
              <h2 id="builder-settings-title" className="card__title">
                Form Settings
              </h2>
              <FormSettingsPanel settings={state.settings} onChange={(patch) => dispatch({ type: 'settings', patch })} problems={problems} locked={locked} wasSecured={form?.secured ?? false} />
            </section>
          )}
        </div>
        <BuilderPreview widgets={state.widgets} theme={state.settings.theme} settings={kind === 'form' ? state.settings : undefined} organisationID={form?.organisationID ?? organisationID ?? viewerOrganisationID} />
      </div>
      {conditionsWidget && (
        <ConditionsDialog
          widgets={state.widgets}
          widget={conditionsWidget}
          onClose={() => setConditionsFor(null)}
          onSave={(condition) => {
            dispatch({ type: 'condition', id: conditionsWidget.id, condition });
            setConditionsFor(null);
          }}
        />
      )}
    </main>
  );
}
