import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localPrefs } from '../../../lib/local-prefs';
import { isStepNumber, type TStepNumber } from '../steps';
import { useOpeningStep } from './use-opening-step';

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

/** The step this browser keeps for the project, if any. */
function storedStep(projectId: string): TStepNumber | null {
  const stored = localPrefs.getStep(projectId);
  return isStepNumber(stored) ? stored : null;
}

/**
 * The current step of a project, kept in local storage per project; where none is kept, the first step
 * not done yet (`useOpeningStep`), and null until that is known. Each change of step is a browser history
 * entry (the address stays the same), so Back and Forward move between the steps shown; the entry the
 * workspace opened on, which holds no step, shows the step it opened with. It is never rewritten, so
 * nothing races the other hooks that replace the address (the Reddit sign-in's return).
 */
export function useProjectStep(projectId: string | null) {
  const location = useLocation();
  const navigate = useNavigate();
  const stored = projectId ? storedStep(projectId) : null;
  const opening = useOpeningStep(projectId, projectId !== null && stored === null);
  const kept = stored ?? opening;
  const [openedOn, setOpenedOn] = useState<TStepEntry | null>(null);
  if (projectId && openedOn === null && kept !== undefined) setOpenedOn({ projectId, step: kept });
  const entry = stepEntry(location.state);
  let step: TStepNumber | null = null;
  if (projectId) {
    step =
      entry?.projectId === projectId
        ? entry.step
        : entry === null && openedOn?.projectId === projectId
          ? openedOn.step
          : (kept ?? null);
  }

  // The step an entry shows (chosen, or reached by Back or Forward) is stored as the project's step.
  useEffect(() => {
    if (!projectId || step === null) return;
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
