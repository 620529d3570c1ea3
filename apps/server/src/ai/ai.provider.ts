import type {
  TDmDraft,
  TDmSource,
  TKeywordSuggestion,
  TLearningPatterns,
  TMatchReason,
  TProductInfoFields,
  TSubredditSuggestion,
} from '@threadreach/contract';
import type { IntentScore } from './offline/intent';

export type { IntentScore } from './offline/intent';

export type AiProviderKind = 'offline' | 'llm';

/** What the engine knows about the customer's product: step 1 of a project. */
export type ProductInput = TProductInfoFields;

export interface SuggestSubredditsInput {
  product: ProductInput;
  /** Approved keywords, product and ICP, best first. */
  keywords: TKeywordSuggestion[];
  /** At most this many suggestions. */
  limit: number;
  /** Names already shown or stored ("Generate More"): never suggested again. */
  exclude: string[];
}

export interface WriteDmInput {
  product: ProductInput;
  source: TDmSource;
  /** Learned from the customer's edits (agent mode); null writes in the product's writing style only. */
  patterns: TLearningPatterns | null;
  /** 0 for the first draft; each regeneration asks for the next variant. */
  variant: number;
  /** The draft being replaced, when regenerating: the new one must differ from it. */
  previous: string | null;
}

/** A post or comment some keywords matched, to be scored for intent. */
export interface IntentItem {
  /** Reddit's fullname (t3_..., t1_...), to pair answers with items. */
  id: string;
  /** Posts: the title; comments: empty. */
  title: string;
  body: string;
  matches: TMatchReason[];
}

export interface ScoreIntentsInput {
  /** What the project sells; null scores general buying intent. */
  product: ProductInput | null;
  items: IntentItem[];
}

/** One engine behind the AI operations: the offline NLP engine or an LLM. Chosen by configuration. */
export interface AiProvider {
  readonly kind: AiProviderKind;
  generateKeywords(product: ProductInput): Promise<TKeywordSuggestion[]>;
  suggestSubreddits(input: SuggestSubredditsInput): Promise<TSubredditSuggestion[]>;
  writeDm(input: WriteDmInput): Promise<TDmDraft>;
  /** One score per item, in the items' order. */
  scoreIntents(input: ScoreIntentsInput): Promise<IntentScore[]>;
}

export type AiErrorCode =
  /** The model's answer was not JSON. */
  | 'malformed_output'
  /** The answer was JSON but broke the schema or a DM rule (length, spam). */
  | 'schema_violation'
  /** The endpoint failed or refused (after the bounded retries). */
  | 'upstream_error'
  | 'timeout'
  | 'invalid_input'
  /** Learning needs at least 3 saved edits. */
  | 'not_enough_training_data';

/** A failure of an AI operation; nothing it would have produced should be stored. */
export class AiError extends Error {
  constructor(
    readonly code: AiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AiError';
  }
}
