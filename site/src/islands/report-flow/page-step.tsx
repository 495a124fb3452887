import type { FormEvent } from 'react';
import type { AnswerMap, FormPage as FormPageData, FormWidget } from '../../../../api/shared/form-definition';
import { FormPage } from '../../forms/form-page';
import { FlowError, StepActions } from './step-actions';

type PageStepProps = {
  page: FormPageData;
  formWidgets: readonly FormWidget[];
  answers: AnswerMap;
  errors: Readonly<Record<string, string>>;
  flowError: string | undefined;
  busy: boolean;
  onChange: (widgetId: string, answer: string[]) => void;
  onBack: () => void;
  onNext: (page: FormPageData) => void;
};

export function PageStep({ page, formWidgets, answers, errors, flowError, busy, onChange, onBack, onNext }: PageStepProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onNext(page);
  };
  return (
    <form className="report-step stack" noValidate autoComplete="off" onSubmit={submit} aria-labelledby="report-step-title">
      <h1 id="report-step-title" tabIndex={-1}>{page.name}</h1>
      <FlowError message={flowError} />
      <FormPage widgets={page.widgets} formWidgets={formWidgets} answers={answers} onChange={onChange} errors={errors} />
      <StepActions busy={busy} onBack={onBack} />
    </form>
  );
}
