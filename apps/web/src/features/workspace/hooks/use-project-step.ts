import { useEffect, useState } from 'react';
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
 * history entry (the address stays the same), so Back and Forward move between the steps shown; the entry
 * the workspace opened on, which holds no step, shows the step it opened with. It is never rewritten, so
 * nothing races the other hooks that replace the address (the Reddit sign-in's return).
 */
export function useProjectStep(projectId: string | null) {
  const location = useLocation();
  const navigate = useNavigate();
  const [openedOn, setOpenedOn] = useState<TStepEntry | null>(null);
  if (projectId && openedOn === null) {
    const stored = localPrefs.getStep(projectId);
    setOpenedOn({ projectId, step: isStepNumber(stored) ? stored : 1 });
  }
  const entry = stepEntry(location.state);
  let step: TStepNumber = 1;
  if (projectId) {
    const saved =
      entry?.projectId === projectId
        ? entry.step
        : entry === null && openedOn?.projectId === projectId
          ? openedOn.step
          : localPrefs.getStep(projectId);
    if (isStepNumber(saved)) step = saved;
  }

  // The step an entry shows (chosen, or reached by Back or Forward) is stored as the project's step.
  useEffect(() => {
    if (!projectId) return;
    localPrefs.setStep(projectId, step);
  }, [projectId, step]);

  // The new entry holds the step (also where storage is unavailable); the effect above stores it.
  const setStep = (next: TStepNumber) => {
    if (!projectId || next === step) return;
    void navigate(`${location.pathname}${location.search}`, {
      state: { projectId, step: next } satisfies TStepEntry,
    });
  };
  return [step, setStep] as const;
}
