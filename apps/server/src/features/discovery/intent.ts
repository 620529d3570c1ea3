import type { TMatchReason } from '@threadreach/contract';
import { type IntentScore, scoreIntentByRules } from '../../ai/offline/intent';

export type { IntentScore } from '../../ai/offline/intent';

/**
 * How likely the author wants what the project sells, 0-100, from rules over the text: the offline
 * score, and the one used whenever the LLM cannot answer (see `AiService.scoreIntents`).
 */
export function scoreIntent(text: { title: string; body: string }, matches: TMatchReason[]): IntentScore {
  return scoreIntentByRules(text, matches);
}
