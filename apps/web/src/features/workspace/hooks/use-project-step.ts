import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localPrefs } from '../../../lib/local-prefs';
import { isStepNumber, type TStepNumber } from '../steps';

/** What a history entry of the workspace holds: the step shown for that project. */
interface TStepEntry {
  projectId: string;
  step: TStepNumber;
}

function stepEntry(state: unknown): TStepEntry | null {
  if (typeof state !== 'object' || state === null) return null;
  const { projectId, step } = state as Partial<TStepEntry>;
  return typeof projectId === 'string' && isStepNumber(step) ? { projectId, step } : null;
}

/**
 * The current step of a project, kept in local storage per project. Each change of step is a browser
 * history entry (the address stays the same), so Back and Forward move between the steps shown.
 */
export function useProjectStep(projectId: string | null) {
  const location = useLocation();
  const navigate = useNavigate();
  const entry = stepEntry(location.state);
  let step: TStepNumber = 1;
  if (projectId) {
    const saved = entry?.projectId === projectId ? entry.step : localPrefs.getStep(projectId);
    if (isStepNumber(saved)) step = saved;
  }

  // The entry the workspace opened on names its step, so Back can return to it; the step an entry shows
  // (chosen, or reached by Back or Forward) is stored as the project's step.
  const target = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (!projectId) return;
    if (entry?.projectId !== projectId) {
      void navigate(target, { replace: true, state: { projectId, step } satisfies TStepEntry });
    } else {
      localPrefs.setStep(projectId, step);
    }
  }, [navigate, target, entry?.projectId, projectId, step]);

  // The new entry holds the step (also where storage is unavailable); the effect above stores it.
  const setStep = (next: TStepNumber) => {
    if (!projectId || next === step) return;
    void navigate(target, { state: { projectId, step: next } satisfies TStepEntry });
  };
  return [step, setStep] as const;
}
