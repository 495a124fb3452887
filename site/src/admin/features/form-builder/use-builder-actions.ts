import { useState } from 'react';
import { useClient, type CombinedError } from 'urql';
import { formTemplateEditPath, reportFormPath } from '../../paths';
import { navigate } from '../../router';
import { errorCode, errorMessage } from '../../ui/errors';
import { notify } from '../../ui/notice-store';
import {
  FORM_CREATE,
  FORM_PUBLISH,
  FORM_PUBLISHED,
  FORM_QUERY,
  FORM_UNPUBLISH,
  FORM_UNPUBLISHED,
  FORM_UPDATE,
  FORM_UPDATED,
  TEMPLATE_CREATE,
  TEMPLATE_QUERY,
  TEMPLATE_UPDATE,
  TEMPLATE_UPDATED,
  type Loaded,
  type LoadedForm,
  type LoadedTemplate,
} from './builder-api';
import { clientProblems, formInput, widgetsInput } from './builder-input';
import type { BuilderState } from './builder-store';

type Options = {
  kind: 'form' | 'template';
  /** What the editor last loaded or saved; undefined while creating. */
  loaded: Loaded | undefined;
  organisationID?: string;
  /** The route's organisation, kept in the edit address after creating. */
  routeOrganisationID?: string;
  state: BuilderState;
  onLoaded: (loaded: Loaded) => void;
  /** Navigation the leave guard lets through: the work is saved. */
  leaveSaved: (leaving: () => void) => void;
};

type Problem = { message: string; conflict: boolean };

const FIELDS_NEED_ATTENTION = 'Some fields need attention: they are marked below.';

/** Save, publish, unpublish and reload, with the one error block they share (spec §8). */
export function useBuilderActions({ kind, loaded, organisationID, routeOrganisationID, state, onLoaded, leaveSaved }: Options) {
  const client = useClient();
  const [problem, setProblem] = useState<Problem>();
  const form = loaded?.kind === 'form' ? loaded.form : undefined;
  const template = loaded?.kind === 'template' ? loaded.template : undefined;
  // Once a save has been tried, the marks follow the edits: a fixed field loses its 'Required'.
  const [checked, setChecked] = useState(false);
  const fieldProblems = checked ? clientProblems(state, form?.secured ?? false, kind) : {};
  const hasFieldProblems = Object.keys(fieldProblems).length > 0;
  const [busy, setBusy] = useState(false);
  const revision = (form ?? template)?.currentBuild?.revision;

  const fail = (error: CombinedError | undefined) => setProblem({ message: errorMessage(error) ?? '', conflict: errorCode(error) === 'CONFLICT' });

  /** `keepProblem`: the message stays until the work succeeds (a reload: it names what is being replaced). */
  const run = async <T,>(work: () => Promise<{ data?: T; error?: CombinedError }>, done: (data: T) => void, keepProblem = false) => {
    if (busy) return;
    setBusy(true);
    if (!keepProblem) setProblem(undefined);
    const result = await work();
    setBusy(false);
    if (result.error || !result.data) return fail(result.error);
    setProblem(undefined);
    done(result.data);
  };

  const save = async () => {
    setChecked(true);
    setProblem(undefined);
    if (Object.keys(clientProblems(state, form?.secured ?? false, kind)).length > 0) return;
    const base = revision === undefined ? {} : { baseRevision: revision };
    if (kind === 'template') {
      const input = { name: state.name.trim(), widgets: widgetsInput(state), ...base };
      return run(
        () => (template ? client.mutation(TEMPLATE_UPDATE, { id: template.id, input }) : client.mutation(TEMPLATE_CREATE, { input })).toPromise(),
        (data: { reportFormTemplateCreate?: LoadedTemplate; reportFormTemplateUpdate?: LoadedTemplate }) => {
          const saved = (data.reportFormTemplateUpdate ?? data.reportFormTemplateCreate)!;
          notify(TEMPLATE_UPDATED);
          onLoaded({ kind: 'template', template: saved });
          if (!template) leaveSaved(() => navigate(formTemplateEditPath(saved.id), { replace: true }));
        },
      );
    }
    const input = formInput(state, form ? base : organisationID ? { organisationID } : {});
    return run(
      () => (form ? client.mutation(FORM_UPDATE, { id: form.id, input }) : client.mutation(FORM_CREATE, { input })).toPromise(),
      (data: { reportFormCreate?: LoadedForm; reportFormUpdate?: LoadedForm }) => {
        const saved = (data.reportFormUpdate ?? data.reportFormCreate)!;
        notify(FORM_UPDATED);
        onLoaded({ kind: 'form', form: saved });
        if (!form) leaveSaved(() => navigate(reportFormPath('edit', saved.id, routeOrganisationID), { replace: true }));
      },
    );
  };

  const publish = () =>
    form?.currentBuild &&
    run(
      () => client.mutation(FORM_PUBLISH, { id: form.id, buildID: form.currentBuild!.id }).toPromise(),
      (data: { reportFormPublish: LoadedForm }) => {
        notify(FORM_PUBLISHED);
        onLoaded({ kind: 'form', form: data.reportFormPublish });
      },
    );

  const unpublish = () =>
    form &&
    run(
      () => client.mutation(FORM_UNPUBLISH, { id: form.id }).toPromise(),
      (data: { reportFormUnpublish: LoadedForm }) => {
        notify(FORM_UNPUBLISHED);
        onLoaded({ kind: 'form', form: data.reportFormUnpublish });
      },
    );

  /** After a conflict: the other person's save replaces this editor's unsaved work. */
  const reload = () =>
    form
      ? run(
          () => client.query(FORM_QUERY, { id: form.id }, { requestPolicy: 'network-only' }).toPromise(),
          (data: { reportFormGet: LoadedForm }) => onLoaded({ kind: 'form', form: data.reportFormGet }),
          true,
        )
      : template &&
        run(
          () => client.query(TEMPLATE_QUERY, { id: template.id }, { requestPolicy: 'network-only' }).toPromise(),
          (data: { reportFormTemplateGet: LoadedTemplate }) => onLoaded({ kind: 'template', template: data.reportFormTemplateGet }),
          true,
        );

  const shown = problem ?? (hasFieldProblems ? { message: FIELDS_NEED_ATTENTION, conflict: false } : undefined);
  return { save, publish, unpublish, reload, problem: shown, fieldProblems, busy };
}
