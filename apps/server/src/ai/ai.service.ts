import {
  ZDmDraft,
  ZDmSource,
  ZKeywordSuggestion,
  ZLearningPatterns,
  ZSubredditSuggestion,
  type TDmDraft,
  type TDmSourceInput,
  type TKeywordSuggestion,
  type TLearningPatterns,
  type TMessageExample,
  type TSubredditSuggestion,
} from '@threadreach/contract';
import type { LanguageModel } from 'ai';
import type { BaseLogger, Bindings } from 'pino';
import type { z } from 'zod';
import type { Config } from '../config/config';
import {
  AiError,
  type AiProvider,
  type AiProviderKind,
  type IntentItem,
  type IntentScore,
  type ProductInput,
} from './ai.provider';
import { createLlmModel, createLlmProvider } from './llm/llm.provider';
import { scoreIntentByRules } from './offline/intent';
import { createOfflineProvider } from './offline/offline.provider';
import { learnPatterns } from './patterns/learn-patterns';
import type { SubredditDirectory } from './subreddit-directory';

/** The logger name the /logs page filters AI lines by. */
export const AI_LOGGER_NAME = 'ai-service';

/** The app's logger (pino or Fastify's): the AI lines go to a child named `ai-service`. */
export interface ParentLogger {
  child(bindings: Bindings): BaseLogger;
}

export interface AiServiceDeps {
  config: Pick<Config, 'llm'>;
  log: ParentLogger;
  subreddits: SubredditDirectory;
  /** A ready model instead of the configured endpoint (tests, the quality harness). */
  languageModel?: LanguageModel;
  /** First wait before an LLM retry (default 500 ms); tests shorten it. */
  llmRetryDelayMs?: number;
}

export const DEFAULT_SUBREDDIT_SUGGESTIONS = 10;
/** Items scored per LLM call: one structured answer each, small enough to stay quick. */
export const INTENT_BATCH_SIZE = 20;

export interface SuggestSubredditsRequest {
  product: ProductInput;
  /** Approved keywords, best first. */
  keywords: TKeywordSuggestion[];
  limit?: number;
  /** Names already listed for the project ("Generate More"). */
  exclude?: string[];
}

export interface WriteDmRequest {
  product: ProductInput;
  source: TDmSourceInput;
  /** Learned patterns (agent mode), or none. */
  patterns?: TLearningPatterns | null;
}

export interface ScoreIntentsRequest {
  /** What the project sells; null scores general buying intent. */
  product: ProductInput | null;
  items: IntentItem[];
}

export interface RegenerateDmRequest extends WriteDmRequest {
  previous: Pick<TDmDraft, 'message_content' | 'variant'>;
}

/** The AI operations the workflow calls; which engine runs them is configuration. */
export interface AiService {
  readonly provider: AiProviderKind;
  /** Step 2: product and ICP keywords from the product information. */
  generateKeywords(product: ProductInput): Promise<TKeywordSuggestion[]>;
  /** Step 3: existing subreddits with description, members, relevance score and reason. */
  suggestSubreddits(request: SuggestSubredditsRequest): Promise<TSubredditSuggestion[]>;
  /** Step 4: a DM (at most 400 characters) answering a post, comment or profile. */
  writeDm(request: WriteDmRequest): Promise<TDmDraft>;
  /** Step 4 "Regenerate": the next variant, different from the previous draft. */
  regenerateDm(request: RegenerateDmRequest): Promise<TDmDraft>;
  /**
   * Discovery: an intent score 0-100 with its reasons for each matched item, in the items' order. The
   * LLM scores batches when one is configured; a batch it fails (error, timeout, broken answer) is
   * scored by the rules, so this never fails because of the model.
   */
  scoreIntents(request: ScoreIntentsRequest): Promise<IntentScore[]>;
  /** Agent mode: patterns from at least 3 saved edits; AiError 'not_enough_training_data' otherwise. */
  learnPatterns(examples: Pick<TMessageExample, 'final_message'>[]): TLearningPatterns;
}

/** The endpoint without any user:password part, for logs. */
function endpointOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function requireProduct(product: ProductInput): void {
  if (!product.product_description?.trim() || !product.call_to_action?.trim()) {
    throw new AiError('invalid_input', 'Product information is missing: save step 1 first');
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new AiError(
      'schema_violation',
      `${what} did not match its schema: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data;
}

function parseSource(source: TDmSourceInput) {
  const parsed = ZDmSource.safeParse(source);
  if (!parsed.success) {
    throw new AiError('invalid_input', `DM source is invalid: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/** The AI engine of the server: the offline one, or the LLM when an endpoint is configured. */
export function createAiService(deps: AiServiceDeps): AiService {
  const log = deps.log.child({ name: AI_LOGGER_NAME });
  const llm = deps.config.llm;
  const provider: AiProvider =
    llm || deps.languageModel
      ? createLlmProvider({
          model: deps.languageModel ?? createLlmModel(llm!),
          directory: deps.subreddits,
          log,
          timeoutMs: llm?.timeoutMs ?? 30_000,
          ...(deps.llmRetryDelayMs !== undefined ? { retryDelayMs: deps.llmRetryDelayMs } : {}),
        })
      : createOfflineProvider({ directory: deps.subreddits });
  log.info(
    { provider: provider.kind, ...(llm ? { endpoint: endpointOf(llm.baseUrl), model: llm.model } : {}) },
    'ai engine ready',
  );

  /** Runs an operation with timing and one log line, success or failure. */
  async function run<T>(
    op: string,
    fields: Record<string, unknown>,
    fn: () => Promise<T>,
    summary: (r: T) => object,
  ) {
    const started = performance.now();
    try {
      const result = await fn();
      log.info(
        {
          op,
          provider: provider.kind,
          ms: Math.round(performance.now() - started),
          ...fields,
          ...summary(result),
        },
        `${op} done`,
      );
      return result;
    } catch (error) {
      const code = error instanceof AiError ? error.code : 'internal';
      log.warn(
        { op, provider: provider.kind, ms: Math.round(performance.now() - started), ...fields, code },
        `${op} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    }
  }

  async function write(op: string, request: WriteDmRequest, variant: number, previous: string | null) {
    requireProduct(request.product);
    const source = parseSource(request.source);
    return run(
      op,
      { source_type: source.source_type, source_id: source.id, variant, patterns: !!request.patterns },
      async () => {
        const draft = await provider.writeDm({
          product: request.product,
          source,
          patterns: request.patterns ?? null,
          variant,
          previous,
        });
        return checked(ZDmDraft, draft, 'The DM draft');
      },
      (d) => ({ length: d.message_content.length }),
    );
  }

  return {
    provider: provider.kind,

    async generateKeywords(product) {
      requireProduct(product);
      return run(
        'generate_keywords',
        {},
        async () => checked(ZKeywordSuggestion.array(), await provider.generateKeywords(product), 'Keywords'),
        (k) => ({
          product_keywords: k.filter((x) => x.type === 'product').length,
          icp_keywords: k.filter((x) => x.type === 'icp').length,
        }),
      );
    },

    async suggestSubreddits(request) {
      requireProduct(request.product);
      if (request.keywords.length === 0) {
        throw new AiError('invalid_input', 'No approved keywords found. Please approve some keywords first.');
      }
      const input = {
        product: request.product,
        keywords: request.keywords,
        limit: request.limit ?? DEFAULT_SUBREDDIT_SUGGESTIONS,
        exclude: request.exclude ?? [],
      };
      return run(
        'suggest_subreddits',
        { keywords: input.keywords.length, excluded: input.exclude.length },
        async () =>
          checked(
            ZSubredditSuggestion.array(),
            await provider.suggestSubreddits(input),
            'Subreddit suggestions',
          ),
        (s) => ({ suggestions: s.length }),
      );
    },

    async writeDm(request) {
      return write('write_dm', request, 0, null);
    },

    async regenerateDm(request) {
      const previous = request.previous.message_content;
      let draft = await write('regenerate_dm', request, request.previous.variant + 1, previous);
      // An LLM may repeat itself once; the offline engine never returns the previous text.
      if (draft.message_content === previous) {
        draft = await write('regenerate_dm', request, request.previous.variant + 2, previous);
      }
      return draft;
    },

    async scoreIntents(request) {
      const scores: IntentScore[] = [];
      for (let i = 0; i < request.items.length; i += INTENT_BATCH_SIZE) {
        const items = request.items.slice(i, i + INTENT_BATCH_SIZE);
        try {
          const batch = await run(
            'score_intents',
            { items: items.length },
            async () => {
              const answer = await provider.scoreIntents({ product: request.product, items });
              if (answer.length !== items.length) {
                throw new AiError('schema_violation', 'The intent scores did not match the items');
              }
              return answer;
            },
            (b) => ({ mean_score: Math.round(b.reduce((sum, x) => sum + x.score, 0) / b.length) }),
          );
          scores.push(...batch);
        } catch (error) {
          // `run` logged the failure; the rules answer for this batch.
          log.info(
            {
              op: 'score_intents',
              items: items.length,
              code: error instanceof AiError ? error.code : 'internal',
            },
            'score_intents scored by the rules instead',
          );
          scores.push(...items.map((item) => scoreIntentByRules(item, item.matches)));
        }
      }
      return scores;
    },

    learnPatterns(examples) {
      const started = performance.now();
      try {
        const patterns = checked(ZLearningPatterns, learnPatterns(examples), 'Learning patterns');
        log.info(
          {
            op: 'learn_patterns',
            ms: Math.round(performance.now() - started),
            sample_size: patterns.structure.sample_size,
            preferred_length: patterns.structure.preferred_length,
            formality_score: patterns.tone.formality_score,
          },
          'learn_patterns done',
        );
        return patterns;
      } catch (error) {
        const code = error instanceof AiError ? error.code : 'internal';
        log.warn(
          { op: 'learn_patterns', code, examples: examples.length },
          `learn_patterns failed: ${String(error)}`,
        );
        throw error;
      }
    },
  };
}
