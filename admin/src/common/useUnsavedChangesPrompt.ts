/**
 * Asks before leaving a page with unsaved edits — react-admin's warnWhenUnsavedChanges for pages that
 * keep their own state rather than a react-hook-form: the same router blocker (react-admin's
 * useBlocker) and the same confirm text, plus the browser's own prompt on reload or tab close.
 * `bypass()` lets one navigation through unasked (e.g. after the edits were written elsewhere).
 */
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, useTranslate } from 'react-admin';

export function useUnsavedChangesPrompt(dirty: boolean): { bypass: () => void } {
  const translate = useTranslate();
  const skip = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    dirty && !skip.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search));
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(translate('ra.message.unsaved_changes'))) blocker.proceed?.();
    else blocker.reset?.();
  }, [blocker, translate]);
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = true; };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [dirty]);
  return { bypass: useCallback(() => { skip.current = true; }, []) };
}
