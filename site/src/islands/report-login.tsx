import { useEffect, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { reportDashboardUrl } from '../lib/hosts';
import { FALLBACK_ERROR_MESSAGE, postJson } from '../lib/http';
import { QuickExit } from './quick-exit';
import { usePageHide } from './use-page-hide';
import { LanguageSelect } from './language-menu';
import { usePageLanguage } from './use-page-language';
import { readPlaceholderSetup } from '../lib/reporter-language';
import type { ReporterTranslationSetup } from '../../../api/shared/translation';
import { TextField } from '../lib/text-field';

const REQUIRED = 'Required';
const responseSchema = v.object({ organisationSlug: v.string(), handoff: v.optional(v.string()) });

type FieldErrors = { reportID?: string; password?: string };

function validate(reportID: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (reportID.trim() === '') errors.reportID = REQUIRED;
  if (password === '') errors.password = REQUIRED;
  return errors;
}

// Follow-up login for reporters, on the global login host and on each
// organisation's /report/login. Nothing is remembered by the browser:
// autocomplete is off, and the note below asks the reporter not to save it.
export function ReportLogin() {
  const [reportID, setReportID] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  // The form is in the built HTML before React takes over. Until then the
  // button stays disabled: a native submission would put the password in
  // the address bar (GET) or send it to the static page (POST).
  const [hydrated, setHydrated] = useState(false);
  // Read after hydration: the build renders this page without it, and the first render must match.
  const [translation, setTranslation] = useState<ReporterTranslationSetup | null>(null);
  useEffect(() => {
    setTranslation(readPlaceholderSetup());
    // Whatever was typed before React took over stays: hydration must not wipe it.
    const typed = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? '';
    if (typed('reportID')) setReportID(typed('reportID'));
    if (typed('password')) setPassword(typed('password'));
    setHydrated(true);
  }, []);
  // What was typed goes with the page: Back after logging in must not show it again (decision 066).
  usePageHide(() => {
    setReportID('');
    setPassword('');
    setFieldErrors({});
    setError(undefined);
    setSubmitting(false);
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const errors = validate(reportID, password);
    setFieldErrors(errors);
    setError(undefined);
    if (errors.reportID || errors.password) return;

    setSubmitting(true);
    const result = await postJson('/api/auth/report_login', { reportID: reportID.trim(), password });
    if (!result.ok) {
      setError(result.message);
      setSubmitting(false);
      return;
    }
    const parsed = v.safeParse(responseSchema, result.data);
    const target = parsed.success ? reportDashboardUrl(window.location, parsed.output.organisationSlug, parsed.output.handoff) : undefined;
    if (!target) {
      setError(FALLBACK_ERROR_MESSAGE);
      setSubmitting(false);
      return;
    }
    // Keep `submitting` on: the page is about to change and a second click
    // must not send the credentials again.
    window.location.assign(target);
  };

  return (
    <div className="reporter-page">
      <QuickExit />
      <main className="container container--narrow">
        {translation && <LoginLanguageMenu setup={translation} />}
        <form className="card stack" method="post" noValidate onSubmit={submit} aria-labelledby="report-login-title">
          <h1 id="report-login-title">Follow up Report</h1>
          <p className="muted">Log in with the report ID and password you received when you made your report.</p>
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <TextField
            id="reportID"
            label="Report ID"
            value={reportID}
            onChange={setReportID}
            error={fieldErrors.reportID}
          />
          <TextField
            id="password"
            label="Password"
            type="password"
            value={password}
            onChange={setPassword}
            error={fieldErrors.password}
            autoComplete="off"
          />
          <p className="alert" role="note">
            For your security, do not let your browser remember this login. If it offers to save your report ID or
            password, choose “Never” or “Not now”, especially on a shared or work device.
          </p>
          <button type="submit" className="button button--block" disabled={!hydrated || submitting}>
            {submitting ? 'Logging in…' : 'Login'}
          </button>
        </form>
      </main>
    </div>
  );
}

/**
 * The menu on an organisation's /report/login: the page shows none of the organisation's texts, so
 * nothing is translated here; the choice is kept for the follow-up area this tab goes on to.
 */
function LoginLanguageMenu({ setup }: { setup: ReporterTranslationSetup }) {
  const { lang, choose } = usePageLanguage(setup, undefined);
  return <LanguageSelect setup={setup} lang={lang} choose={choose} unavailable={false} />;
}
