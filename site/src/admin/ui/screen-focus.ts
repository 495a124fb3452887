import { useEffect, useRef, useState } from 'react';
import { matchScreen } from '../paths';
import { TITLE_SUFFIX } from './document-title';

// Where keyboard and screen-reader users land after the console changes screen (decision 018).
// A new screen: its h1 takes focus, so the screen reader reads where they are and Tab starts there.
// A new tab of the same report: focus stays on the tab they chose; a polite announcement names it.

/** The h1 of the screen now shown. Screens render it with tabIndex -1, so script may focus it. */
export function focusScreenHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
  return true;
}

/** How long a returned focus is watched for its control being replaced. */
const REPLACED_OPENER_WATCH_MS = 10_000;

/**
 * Gives focus back to the control that opened a dialog. The dialog's action may replace that very
 * control (Close Report becomes Re-open Report once the report is closed), which would drop focus
 * to the start of the page: then, or when the control is already gone, the screen's heading takes it.
 */
export function returnFocusTo(opener: HTMLElement | undefined): void {
  if (!opener?.isConnected) {
    focusScreenHeading();
    return;
  }
  opener.focus();
  const observer = new MutationObserver(() => {
    if (opener.isConnected) return;
    stop();
    if (document.activeElement === null || document.activeElement === document.body) focusScreenHeading();
  });
  const stop = () => {
    observer.disconnect();
    document.removeEventListener('focusin', stop);
    window.clearTimeout(timer);
  };
  const timer = window.setTimeout(stop, REPLACED_OPENER_WATCH_MS);
  observer.observe(document.body, { childList: true, subtree: true });
  // The user moved on: what they focus is theirs.
  document.addEventListener('focusin', stop);
}

/** One key per screen: a report's tabs share theirs, so do a form's Overview and Internal Notes; every other address is its own. */
function screenKey(pathname: string): string {
  const screen = matchScreen(pathname);
  if (screen.name === 'report-detail') return `report-detail/${screen.reportSubmissionID}`;
  if (screen.name === 'report-form' && screen.tab !== 'edit') return `report-form/${screen.reportFormID}`;
  return pathname;
}

/**
 * Moves focus on each change of screen and answers the text to announce on a change of tab.
 * The first screen keeps the browser's own start; a heading that waits for its data is focused
 * when it appears.
 */
export function useScreenFocus(pathname: string): string {
  const [announcement, setAnnouncement] = useState('');
  const key = screenKey(pathname);
  const previous = useRef<{ key: string; pathname: string }>(undefined);

  useEffect(() => {
    const before = previous.current;
    previous.current = { key, pathname };
    if (!before || before.pathname === pathname) return;
    if (before.key === key) {
      // The screen's own effects have set its title by now: it names the tab and the report.
      setAnnouncement(document.title.replace(` – ${TITLE_SUFFIX}`, ''));
      return;
    }
    setAnnouncement('');
    if (focusScreenHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusScreenHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [key, pathname]);

  return announcement;
}
