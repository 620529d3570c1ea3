import { useState } from 'react';
import { localPrefs } from '../../../lib/local-prefs';
import { isStepNumber, type TStepNumber } from '../steps';

/** The current step of a project, kept in local storage per project. */
export function useProjectStep(projectId: string | null) {
  const [steps, setSteps] = useState<Record<string, TStepNumber>>({});
  let step: TStepNumber = 1;
  if (projectId) {
    const saved = steps[projectId] ?? localPrefs.getStep(projectId);
    if (isStepNumber(saved)) step = saved;
  }
  const setStep = (next: TStepNumber) => {
    if (!projectId) return;
    localPrefs.setStep(projectId, next);
    setSteps((s) => ({ ...s, [projectId]: next }));
  };
  return [step, setStep] as const;
}
