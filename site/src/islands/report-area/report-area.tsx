import { useEffect, useState } from 'react';
import { useHistoryLocation } from '../../lib/history-router';
import { disposeLive } from '../../lib/live';
import { useDocumentTitle } from '../page-focus';
import { pageTitle } from '../page-title';
import { QuickExit } from '../quick-exit';
import { usePageHide } from '../use-page-hide';
import { LanguageSelect } from '../language-menu';
import { useAreaLanguage } from './area-language';
import { AreaTabs, PANEL_ID, tabId, type Tab, type TabKey } from './area-tabs';
import { consumeHandoff, finishOnUnload, leave, leaveIfSignedOut, loadSubmission, LOGIN_PATH, type ReporterSubmission } from './area-api';
import { DashboardTab } from './dashboard-tab';
import { MessagesTab } from './messages-tab';
import { SettingsTab } from './settings-tab';
import { UploadsTab } from './uploads-tab';
import { useUnreadCount } from './use-unread-count';
import '../../styles/chat.css';
import '../../styles/report-area.css';

const LOADING_MESSAGE = 'Please wait. Anonymising your IP.';

const AREA_NAME = 'Follow up Report';
const TABS: { key: TabKey; label: string }[] = [
  { key: 'dashboard', label: 'Reports' },
  { key: 'uploads', label: 'Uploads' },
  { key: 'messages', label: 'Messages' },
  { key: 'settings', label: 'Settings' },
];

function tabOf(location: string): TabKey {
  const segment = location.split(/[?#]/)[0]!.split('/')[2];
  return segment === 'uploads' || segment === 'messages' || segment === 'settings' ? segment : 'dashboard';
}

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; submission: ReporterSubmission };

/**
 * The reporter's follow-up area behind one shell: /report/dashboard (alias /report/edit),
 * /report/uploads, /report/messages and /report/settings, switched with the History API.
 */
export function ReportArea() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const tab = tabOf(useHistoryLocation());

  useEffect(() => {
    void (async () => {
      await consumeHandoff();
      const result = await loadSubmission();
      if (!result.ok) {
        if (!leaveIfSignedOut(result.message)) setState({ kind: 'error', message: result.message });
        return;
      }
      const { submission } = result;
      if (!submission) return window.location.replace(LOGIN_PATH);
      // An unfinished report goes back to its form, which picks the draft up again.
      if (!submission.completed) return window.location.assign(`/report/${encodeURIComponent(submission.formID)}`);
      setState({ kind: 'ready', submission });
    })();
  }, []);

  const formID = state.kind === 'ready' ? state.submission.formID : undefined;

  // The spec logs the reporter out when the page unloads; tabs never unload it. The report ID and any
  // password being typed go with the page, and a page the back/forward cache restores has lost its
  // session: it loads afresh, which sends it to the login (decision 066).
  usePageHide(
    formID
      ? () => {
          finishOnUnload(formID);
          setState({ kind: 'loading' });
        }
      : undefined,
    { reloadWhenRestored: true },
  );

  // Quick exit (its button or Escape) ends the session; the live socket must be gone first so no
  // reconnect runs against it.
  useEffect(() => disposeLive, []);

  return (
    <div className="reporter-page">
      <QuickExit reportFormID={formID} onBeforeExit={disposeLive} />
      <main className="container">
        {state.kind === 'loading' && <p role="status">{LOADING_MESSAGE}</p>}
        {state.kind === 'error' && (
          <p className="alert alert--error" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === 'ready' && <AreaContent submission={state.submission} tab={tab} />}
      </main>
    </div>
  );
}

function AreaContent({ submission, tab }: { submission: ReporterSubmission; tab: TabKey }) {
  const unread = useUnreadCount(submission.unreadMessages, submission.hasChat);
  const [leaving, setLeaving] = useState(false);
  // The language chosen on the form (or on the report login) carries over: same tab, same storage key.
  const language = useAreaLanguage(submission);
  const visible = TABS.filter((entry) => entry.key !== 'messages' || submission.hasChat);
  const current = visible.some((entry) => entry.key === tab) ? tab : 'dashboard';
  const tabs: Tab[] = visible.map((entry) => ({
    ...entry,
    badge:
      entry.key === 'uploads' ? { count: submission.attachments.length, label: 'files' } : entry.key === 'messages' ? { count: unread, label: 'unread' } : undefined,
  }));
  // The report ID stays out of the title: browsers keep titles in their history.
  useDocumentTitle(pageTitle(TABS.find((entry) => entry.key === current)?.label, AREA_NAME, submission.organisationName));

  const onLeave = () => {
    if (leaving) return;
    setLeaving(true);
    void leave(submission.formID);
  };

  return (
    <>
      <header className="area-header">
        <h1 className="area-header__title">Report {submission.reportID}</h1>
        <button type="button" className="button button--secondary" onClick={onLeave} disabled={leaving}>
          Leave
        </button>
      </header>
      {language.setup && <LanguageSelect setup={language.setup} lang={language.lang} choose={language.choose} unavailable={language.unavailable} />}
      <AreaTabs tabs={tabs} current={current} />
      {/* Focusable, as the tabs pattern asks: Tab from the tab row reaches the panel even where it starts with plain text. */}
      <div className="card" id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(current)} tabIndex={0}>
        {current === 'dashboard' && <DashboardTab submission={submission} texts={language.texts} />}
        {current === 'uploads' && <UploadsTab attachments={submission.attachments} />}
        {current === 'messages' && <MessagesTab conversationClosed={submission.conversationClosed} allowChatFileUploads={submission.allowChatFileUploads} />}
        {current === 'settings' && <SettingsTab />}
      </div>
    </>
  );
}
