import { themeStyle } from '../../forms/theme';
import { fontDataValue, sameOriginImageUrl } from '../organisation-data';
import { QuickExit } from '../quick-exit';
import { AttachFilesStep } from './attach-files-step';
import { FinishStep } from './finish-step';
import { PageStep } from './page-step';
import { ProgressBar } from './progress-bar';
import { ReviewStep } from './review-step';
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

  const { form, organisation } = data;
  const logoUrl = form.showLogo && organisation.showLogoOnReportForms ? sameOriginImageUrl(organisation.logoUrl, window.location.origin) : undefined;
  // Password-protected forms show the step bar on the question pages only (spec).
  const showProgress = flow.stepIndex >= 0 && (!form.secured || flow.step.startsWith('page:'));

  return (
    <div className="reporter-page report-flow" data-font={fontDataValue(organisation.fontFamily)} style={themeStyle(form.theme)}>
      <QuickExit reportFormID={form.id} />
      <main className="container container--narrow">
        <header className="report-flow__header">
          {logoUrl && <img className="report-flow__logo" src={logoUrl} alt={organisation.name} />}
          <p className="report-flow__form-name">{form.name}</p>
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
          <CurrentStep flow={flow} />
        </div>
      </main>
    </div>
  );
}

function CurrentStep({ flow }: { flow: Flow }) {
  const { form } = flow;
  if (!form) return null;
  const common = { flowError: flow.flowError, busy: flow.busy };
  switch (flow.step) {
    case 'welcome':
      return <WelcomeStep form={form} errors={flow.errors} onNext={flow.welcomeNext} {...common} />;
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
