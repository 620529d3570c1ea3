import { useQuery } from '@tanstack/react-query';
import type { TStepNumber } from '../steps';

/**
 * The step a project opens on where this browser keeps none for it (another browser, or after logout):
 * the first one not done yet, so a project set up earlier opens on its results rather than on step 1.
 * Undefined while it is being found out, or when it is not `needed`; step 1 when it cannot be.
 */
export function useOpeningStep(projectId: string | null, needed: boolean): TStepNumber | undefined {
  const query = useQuery({
    queryKey: ['opening-step', projectId],
    // Loaded when needed: the keywords' and subreddits' endpoints stay out of the first page's code.
    queryFn: async () => (await import('../opening-step')).firstStepToDo(projectId!),
    enabled: needed && projectId !== null,
    staleTime: Infinity,
    retry: false,
  });
  if (!needed || projectId === null) return undefined;
  if (query.isError) return 1;
  return query.data;
}
