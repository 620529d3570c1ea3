import { useQuery } from '@tanstack/react-query';
import {
  KEYWORDS_PER_PROJECT_MAX,
  keywordsEndpoints,
  productInfoEndpoints,
  SUBREDDITS_PER_PROJECT_MAX,
  subredditsEndpoints,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';
import type { TStepNumber } from '../steps';

/** The first step of the project not done yet: step 4 once product, keywords and subreddits are in place. */
async function firstStepToDo(projectId: string): Promise<TStepNumber> {
  const page = { offset: 0 };
  const [info, keywords, subreddits] = await Promise.all([
    call(productInfoEndpoints.get, { params: { projectId } }),
    call(keywordsEndpoints.list, {
      params: { projectId },
      query: { ...page, limit: KEYWORDS_PER_PROJECT_MAX },
    }),
    call(subredditsEndpoints.list, {
      params: { projectId },
      query: { ...page, limit: SUBREDDITS_PER_PROJECT_MAX },
    }),
  ]);
  if (info.updated_at === null) return 1;
  if (!keywords.items.some((k) => k.approved)) return 2;
  if (!subreddits.items.some((s) => s.approved)) return 3;
  return 4;
}

/**
 * The step a project opens on where this browser keeps none for it (another browser, or after logout):
 * the first one not done yet, so a project set up earlier opens on its results rather than on step 1.
 * Undefined while it is being found out, or when it is not `needed`; step 1 when it cannot be.
 */
export function useOpeningStep(projectId: string | null, needed: boolean): TStepNumber | undefined {
  const query = useQuery({
    queryKey: ['opening-step', projectId],
    queryFn: () => firstStepToDo(projectId!),
    enabled: needed && projectId !== null,
    staleTime: Infinity,
    retry: false,
  });
  if (!needed || projectId === null) return undefined;
  if (query.isError) return 1;
  return query.data;
}
