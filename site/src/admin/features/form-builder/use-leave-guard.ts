import { useEffect, useRef } from 'react';
import { setNavigationBlocker } from '../../router';
import { LEAVE_PROMPT } from './builder-api';

/**
 * While `dirty`, leaving asks first (spec §2): in-app links and back/forward through the console's
 * router, closing or reloading the tab through the browser's own unload prompt.
 * The returned function lets a save that navigates on purpose (create, then edit) pass.
 */
export function useLeaveGuard(dirty: boolean): (leaving: () => void) => void {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    setNavigationBlocker(() => !dirtyRef.current || window.confirm(LEAVE_PROMPT));
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      setNavigationBlocker(null);
    };
  }, []);

  return (leaving) => {
    dirtyRef.current = false;
    leaving();
  };
}
