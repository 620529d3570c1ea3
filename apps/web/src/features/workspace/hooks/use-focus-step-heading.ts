import { useEffect, useRef, type RefObject } from 'react';

/** Marks the element a step is shown in; its first level-2 heading is the step's. */
export const STEP_CONTENT_ATTRIBUTE = 'data-step-content';

/**
 * After a change of step within a project, focus left nowhere (the step's own button that changed it went
 * with the step) goes to the new step's heading, once the step has loaded: keyboard and screen-reader
 * users start at the top of the step. Focus still on something, such as a step in the sidebar, stays.
 */
export function useFocusStepHeading(
  container: RefObject<HTMLElement | null>,
  projectId: string | null,
  step: number,
): void {
  const shown = useRef({ projectId, step });
  useEffect(() => {
    const before = shown.current;
    shown.current = { projectId, step };
    const root = container.current;
    if (!root || !projectId || before.projectId !== projectId || before.step === step) return;
    const focusHeading = (): boolean => {
      const heading = root.querySelector<HTMLElement>(`[${STEP_CONTENT_ATTRIBUTE}] h2`);
      if (!heading) return false;
      const active = document.activeElement;
      if (active === null || active === document.body) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return;
    // A step loaded on first opening shows its heading a little later.
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [container, projectId, step]);
}
