import { themeStyle } from '../../forms/theme';
import type { Translatable } from '../../forms/translated-text';
import { fontDataValue, sameOriginImageUrl } from '../organisation-display';
import { useDocumentTitle, useFocusOnChange } from '../page-focus';
import { pageTitle } from '../page-title';
import { QuickExit } from '../quick-exit';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/http';
import { useLaterSteps, type LaterStepsState } from './later-steps';
import { ProgressBar } from './progress-bar';
import type { ReporterForm } from './report-data';
import { LOADING_MESSAGE } from './step-actions';
import { useReportFlow, type ReportFlow as Flow } from './use-report-flow';
import { WelcomeStep } from './welcome-step';
import '../../styles/report-flow.css';

/**
 * The whole report-filling flow behind one shell: /report/:id, /report/summary/:id?step=N,
 * /report/attach-files/:id, /report/review/:id and /report/finish/:id. The build renders the
 * loading message; the browser reads the injected form and routes with the History API.
 */
export function ReportFlow() {
  const flow = useReportFlow();
  const { data } = flow;
  const later = useLaterSteps(data.kind === 'ready', flow.step);
  useDocumentTitle(flowTitle(flow));
  // Next, Back, a completed step in the bar, Submit: each new step's heading takes focus, once
  // the step is on screen (a later step still being fetched has no heading yet).
  const stepOnScreen = flow.step === 'welcome' || later.kind === 'ready';
  useFocusOnChange(data.kind === 'ready' && stepOnScreen ? flow.step : undefined, '#report-step-title');

  if (data.kind !== 'ready') {
    return (
      <div className="reporter-page">
        <QuickExit reportFormID={flow.route?.formID} />
        <main className="container container--narrow">
          {data.kind === 'loading' ? (
            <p role="status">{LOADING_MESSAGE}</p>
          ) : (
            <p className="alert alert--error" role="alert">
              {data.message}
            </p>
          )}
        </main>
      </div>
    );
  }

  const { organisation } = data;
  const form: ReporterForm & Translatable = flow.form ?? data.form;
  const logoUrl = form.showLogo && organisation.showLogoOnReportForms ? sameOriginImageUrl(organisation.logoUrl, window.location.origin) : undefined;
  const showProgress = showsProgress(flow);

  return (
    <div className="reporter-page report-flow" data-font={fontDataValue(organisation.fontFamily)} style={themeStyle(form.theme)}>
      <QuickExit reportFormID={form.id} />
      <main className="container container--narrow">
        <header className="report-flow__header">
          {logoUrl && <img className="report-flow__logo" src={logoUrl} alt={organisation.name} />}
          <p className="report-flow__form-name" {...form.translatedIn}>
            {form.name}
          </p>
          {later.kind === 'ready' && <later.steps.LanguageMenu organisationID={organisation.id} form={data.form} onShown={flow.setShown} />}
        </header>
        {showProgress && (
          <ProgressBar
            steps={flow.steps}
            currentIndex={flow.stepIndex}
            completed={flow.completed}
            flagged={flow.flagged}
            disabled={flow.step === 'finish'}
            onSelect={(key) => flow.goTo(key)}
          />
        )}
        <div className="card">
          <CurrentStep flow={flow} later={later} />
        </div>
      </main>
    </div>
  );
}

// Password-protected forms show the step bar on the question pages only (spec).
function showsProgress(flow: Flow): boolean {
  return flow.stepIndex >= 0 && (!flow.form?.secured || flow.step.startsWith('page:'));
}

/** "Step 2 of 6: Incident – Workplace Misconduct Report – Demo Organisation"; the shell's own title until the form is read. */
function flowTitle(flow: Flow): string | undefined {
  if (flow.data.kind !== 'ready') return undefined;
  const { organisation } = flow.data;
  const form = flow.form ?? flow.data.form;
  const step = flow.steps[flow.stepIndex];
  const stepName = step && showsProgress(flow) ? `Step ${flow.stepIndex + 1} of ${flow.steps.length}: ${step.label}` : step?.label;
  return pageTitle(stepName, form.name, organisation.name);
}

function CurrentStep({ flow, later }: { flow: Flow; later: LaterStepsState }) {
  const { form } = flow;
  if (!form) return null;
  // A hidden page keeps nothing on screen for Back to bring back; it reloads if restored.
  if (flow.left) return <p role="status">{LOADING_MESSAGE}</p>;
  const common = { flowError: flow.flowError, busy: flow.busy };
  if (flow.step === 'welcome') return <WelcomeStep form={form} errors={flow.errors} onNext={flow.welcomeNext} {...common} />;
  if (later.kind === 'loading') return <p role="status">{LOADING_MESSAGE}</p>;
  if (later.kind === 'failed') {
    return (
      <p className="alert alert--error" role="alert">
        {FALLBACK_ERROR_MESSAGE}
      </p>
    );
  }
  const { PageStep, AttachFilesStep, ReviewStep, FinishStep } = later.steps;
  switch (flow.step) {
    case 'attach':
      return <AttachFilesStep form={form} attachments={flow.attachments} setAttachments={flow.setAttachments} onBack={flow.back} onNext={flow.attachNext} {...common} />;
    case 'review':
      return (
        <ReviewStep
          pages={flow.pages}
          visible={flow.visible}
          answers={flow.answers}
          attachments={form.allowFileUploads ? flow.attachments : undefined}
          onBack={flow.back}
          onSubmit={flow.submit}
          {...common}
        />
      );
    case 'finish':
      return <FinishStep form={form} credentials={flow.credentials} />;
    default:
      // A page the route guard is about to redirect away from renders nothing meanwhile.
      return flow.currentPage ? (
        <PageStep
          key={flow.currentPage.index}
          page={flow.currentPage}
          formWidgets={form.widgets}
          answers={flow.answers}
          errors={flow.errors}
          onChange={flow.setAnswer}
          onBack={flow.back}
          onNext={flow.pageNext}
          {...common}
        />
      ) : null;
  }
}
