import { useState } from 'react';
import { useMutation } from 'urql';
import { PRIORITIES } from '../../../../../../api/shared/enums';
import { PriorityBadge, StatusBadge } from '../../../ui/badges';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import type { Viewer } from '../../../viewer';
import { MUTE_MUTATION, PRIORITY_MUTATION, type ReportDetail } from './detail-api';
import { ReportActions } from './report-actions';
import type { ReportRules } from './report-rules';

type ReportHeaderProps = { viewer: Viewer; report: ReportDetail; rules: ReportRules };

export function ReportHeader({ viewer, report, rules }: ReportHeaderProps) {
  const [error, setError] = useState<string>();
  const [priorityState, setPriority] = useMutation(PRIORITY_MUTATION);
  const [muteState, mute] = useMutation(MUTE_MUTATION);

  const changePriority = async (priority: string) => {
    setError(undefined);
    const result = await setPriority({ id: report.id, priority });
    if (result.error) setError(errorMessage(result.error));
    else notify(`Priority has been set to ${priority}`);
  };

  const toggleMute = async () => {
    setError(undefined);
    const result = await mute({ id: report.id, muted: !report.isMuted });
    if (result.error) setError(errorMessage(result.error));
    else notify(report.isMuted ? 'Email notifications for this report are on' : 'Email notifications for this report are muted');
  };

  return (
    <header className="report-header stack">
      <div className="report-header__top">
        <div className="report-header__title">
          <h1 tabIndex={-1}>{`Report ${report.reportID}`}</h1>
          {rules.canMute && (
            <button
              type="button"
              className="bell"
              aria-pressed={report.isMuted}
              aria-label={report.isMuted ? 'Unmute email notifications' : 'Mute email notifications'}
              title={report.isMuted ? 'Unmute email notifications' : 'Mute email notifications'}
              disabled={muteState.fetching}
              onClick={() => void toggleMute()}
            >
              <BellIcon muted={report.isMuted} />
            </button>
          )}
        </div>
        <ReportActions viewer={viewer} report={report} rules={rules} onError={setError} />
      </div>
      <dl className="report-header__facts">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={report.status} />
            {report.archived && <span className="muted"> Archived</span>}
          </dd>
        </div>
        <div>
          <dt>{rules.canSetPriority ? <label htmlFor="report-priority">Priority</label> : 'Priority'}</dt>
          <dd>
            {rules.canSetPriority ? (
              <select
                id="report-priority"
                className={`field__input priority-select priority-select--${report.priority.toLowerCase()}`}
                value={report.priority}
                disabled={priorityState.fetching}
                onChange={(event) => void changePriority(event.target.value)}
              >
                {PRIORITIES.map((priority) => (
                  <option key={priority} value={priority}>
                    {priority}
                  </option>
                ))}
              </select>
            ) : (
              <PriorityBadge priority={report.priority} />
            )}
          </dd>
        </div>
      </dl>
      {report.attachmentsCount > 0 && (
        <p className="alert report-header__uploads">
          {report.attachmentsCount === 1 ? 'This report has 1 uploaded file.' : `This report has ${report.attachmentsCount} uploaded files.`}
        </p>
      )}
      <ErrorBanner message={error} />
    </header>
  );
}

function BellIcon({ muted }: { muted: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
        fill="currentColor"
      />
      {muted && <path d="M3 3l18 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />}
    </svg>
  );
}
