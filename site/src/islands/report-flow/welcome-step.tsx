import { useState, type FormEvent } from 'react';
import { RichText } from '../../forms/rich-text';
import { TextField } from '../../lib/text-field';
import type { Translatable } from '../../forms/translated-text';
import type { ReporterForm } from './report-data';
import { FlowError, StepActions } from './step-actions';
import { FORM_PASSWORD_FIELD } from './report-steps';

type WelcomeStepProps = {
  form: ReporterForm & Translatable;
  errors: Readonly<Record<string, string>>;
  flowError: string | undefined;
  busy: boolean;
  onNext: (password: string) => void;
};

const DEFAULT_TITLE = 'Welcome';

export function WelcomeStep({ form, errors, flowError, busy, onNext }: WelcomeStepProps) {
  const [password, setPassword] = useState('');
  const [importantOpen, setImportantOpen] = useState(form.showImportantInfoMessage);
  const needsPassword = form.secured && !form.unlocked;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onNext(password);
  };

  return (
    <form className="report-step stack" noValidate autoComplete="off" onSubmit={submit} aria-labelledby="report-step-title">
      <h1 id="report-step-title" tabIndex={-1} {...(form.welcomeMessageTitle.trim() ? form.translatedIn : undefined)}>{form.welcomeMessageTitle.trim() || DEFAULT_TITLE}</h1>
      <RichText html={form.welcomeMessageContent} {...form.translatedIn} />
      {importantOpen && <ImportantMessage onClose={() => setImportantOpen(false)} />}
      <FlowError message={flowError} />
      {needsPassword && (
        <TextField
          id={FORM_PASSWORD_FIELD}
          label="Form Password"
          type="password"
          value={password}
          onChange={setPassword}
          error={errors[FORM_PASSWORD_FIELD]}
        />
      )}
      <StepActions busy={busy} />
    </form>
  );
}

// The wording is ours: the spec only says the message exists and can be closed.
function ImportantMessage({ onClose }: { onClose: () => void }) {
  return (
    <section className="important-message" aria-labelledby="important-message-title">
      <span className="important-message__logo" aria-hidden="true">
        !
      </span>
      <div className="important-message__body">
        <h2 id="important-message-title" className="important-message__heading">
          Important information
        </h2>
        <p className="important-message__text">
          This is not an emergency service. If someone is in immediate danger, contact your local emergency number.
          Your report is anonymous: only include details that identify you if you choose to.
        </p>
      </div>
      <button type="button" className="important-message__close" aria-label="Close important information" onClick={onClose}>
        ×
      </button>
    </section>
  );
}
