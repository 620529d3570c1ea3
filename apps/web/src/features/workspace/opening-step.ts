import {
  KEYWORDS_PER_PROJECT_MAX,
  keywordsEndpoints,
  productInfoEndpoints,
  SUBREDDITS_PER_PROJECT_MAX,
  subredditsEndpoints,
} from '@threadreach/contract';
import { call } from '../../lib/api-client';
import type { TStepNumber } from './steps';

/** The first step of the project not done yet: step 4 once product, keywords and subreddits are in place. */
export async function firstStepToDo(projectId: string): Promise<TStepNumber> {
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
