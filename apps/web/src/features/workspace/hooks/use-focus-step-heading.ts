import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { focusHeading } from '../../../lib/focus-heading';

/** Marks the element a step is shown in; its first level-2 heading is the step's. */
export const STEP_CONTENT_ATTRIBUTE = 'data-step-content';

/**
 * After a change of step within a project, focus left nowhere (the step's own button that changed it went
 * with the step) goes to the new step's heading, once the step has loaded: keyboard and screen-reader
 * users start at the top of the step. Focus still on something, such as a step in the sidebar, stays.
 * A project just created opens with focus on its first step's heading (the dialog, and the first
 * project's prompt that opened it, are gone): the function returned names it before it is shown.
 */
export function useFocusStepHeading(
  container: RefObject<HTMLElement | null>,
  projectId: string | null,
  step: number | null,
): (createdProjectId: string) => void {
  const shown = useRef({ projectId, step });
  const created = useRef<string | null>(null);
  useEffect(() => {
    const before = shown.current;
    shown.current = { projectId, step };
    const root = container.current;
    const opened = projectId !== null && created.current === projectId;
    if (opened) created.current = null;
    if (!root || !projectId) return;
    // Opening a project on its first step to do (read while none was shown) is no change of step.
    if (!opened && (before.projectId !== projectId || before.step === step || before.step === null)) return;
    const focusStepHeading = (): boolean => {
      const heading = root.querySelector<HTMLElement>(`[${STEP_CONTENT_ATTRIBUTE}] h2`);
      if (!heading) return false;
      const active = document.activeElement;
      if (opened || active === null || active === document.body) focusHeading(heading);
      return true;
    };
    if (focusStepHeading()) return;
    // A step loaded on first opening shows its heading a little later.
    const observer = new MutationObserver(() => {
      if (focusStepHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [container, projectId, step]);
  return useCallback((createdProjectId: string) => {
    created.current = createdProjectId;
  }, []);
}
