/** The five steps of the workflow (spec section 1). */
export const WORKFLOW_STEPS = [
  { step: 1, title: 'Product Information' },
  { step: 2, title: 'Keywords' },
  { step: 3, title: 'Subreddits' },
  { step: 4, title: 'Posts & Messages' },
  { step: 5, title: 'Agent Activity' },
] as const;

export type TStepNumber = (typeof WORKFLOW_STEPS)[number]['step'];

export function isStepNumber(n: number | null | undefined): n is TStepNumber {
  return WORKFLOW_STEPS.some((s) => s.step === n);
}
