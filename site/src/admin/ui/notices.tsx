import { useStore } from '../../lib/use-store';
import { $notices, dismissNotice } from './notice-store';

/** The live region the notices appear in; it is always in the page so screen readers announce them. */
export function Notices() {
  const notices = useStore($notices);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice--${notice.tone}`}>
          <span>{notice.text}</span>
          <button type="button" className="notice__close" aria-label="Dismiss" onClick={() => dismissNotice(notice.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
