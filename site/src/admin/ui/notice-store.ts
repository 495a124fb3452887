import { atom } from 'nanostores';

// Success and warning messages after an action ('Successfully archived report'). One list for the
// whole console, shown by the shell, so a message survives the screen that raised it (a redirect).

export type NoticeTone = 'positive' | 'warning' | 'negative';
export type Notice = { id: number; tone: NoticeTone; text: string };

const SHOW_MS = 6000;
let nextId = 1;

export const $notices = atom<readonly Notice[]>([]);

export function dismissNotice(id: number): void {
  $notices.set($notices.get().filter((notice) => notice.id !== id));
}

/** Shows a message; the same message still on screen (a logo upload, then Save) is shown once, for the full time again. */
export function notify(text: string, tone: NoticeTone = 'positive'): void {
  const id = nextId++;
  const others = $notices.get().filter((notice) => notice.text !== text || notice.tone !== tone);
  $notices.set([...others, { id, tone, text }]);
  setTimeout(() => dismissNotice(id), SHOW_MS);
}

export function clearNotices(): void {
  $notices.set([]);
}
