import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { TKeywordSuggestion, TSubredditSuggestion } from '@threadreach/contract';
import {
  APICallError,
  generateText,
  type LanguageModel,
  NoContentGeneratedError,
  NoObjectGeneratedError,
  Output,
} from 'ai';
import type { BaseLogger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../../config/config';
import {
  AiError,
  type AiProvider,
  type IntentScore,
  type ScoreIntentsInput,
  type SuggestSubredditsInput,
  type WriteDmInput,
} from '../ai.provider';
import { scoreIntentByRules } from '../offline/intent';
import { toDraft } from '../dm-draft';
import { scoreCandidates } from '../offline/subreddits';
import { targetsFor } from '../offline/dm-composer';
import { gatherCandidates, withMembers } from '../subreddit-candidates';
import type { SubredditDirectory, SubredditInfo } from '../subreddit-directory';
import {
  dmAnswerSchema,
  dmPrompt,
  intentPrompt,
  keywordsPrompt,
  subredditsPrompt,
  SYSTEM,
  ZIntentAnswer,
  ZKeywordsAnswer,
  ZSubredditsAnswer,
} from './prompts';

/** Name of the provider in the AI SDK; also the key of its provider options. */
const PROVIDER_NAME = 'llm';
const MAX_CANDIDATES_IN_PROMPT = 40;
const MAX_PROPOSED_NAMES = 5;
/** The model's own low scores mean "unrelated". */
const MIN_RELEVANCE = 0.3;
/**
 * Intent scoring runs inside the discovery cycle, which must not stall on a slow model: one attempt,
 * at most this long, and the rules answer instead.
 */
export const INTENT_TIMEOUT_MS = 20_000;
const INTENT_REASONS = 3;
const INTENT_REASON_LENGTH = 80;

/** The chat model of an OpenAI-compatible endpoint: OpenAI, Ollama (`/v1`), vLLM, ... */
export function createLlmModel(llm: NonNullable<Config['llm']>, fetchImpl?: typeof fetch): LanguageModel {
  const provider = createOpenAICompatible({
    name: PROVIDER_NAME,
    baseURL: llm.baseUrl,
    ...(llm.apiKey ? { apiKey: llm.apiKey } : {}),
    supportsStructuredOutputs: true,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return provider.chatModel(llm.model);
}

export interface LlmProviderOptions {
  model: LanguageModel;
  directory: SubredditDirectory;
  log: BaseLogger;
  timeoutMs: number;
  /** Further attempts after a failed call that may succeed later (429, 5xx, network). Default 2. */
  maxRetries?: number;
  /** First wait before a retry, doubled each time. Default 500 ms. */
  retryDelayMs?: number;
}

const modelName = (model: LanguageModel) => (typeof model === 'string' ? model : model.modelId);

/** Maps whatever the AI SDK threw to an AiError, and says whether another attempt may help. */
function classify(error: unknown, timeoutMs: number): { error: AiError; retryable: boolean } {
  if (error instanceof AiError) return { error, retryable: false };
  if (NoObjectGeneratedError.isInstance(error)) {
    const cause = error.cause as { name?: string; message?: string } | undefined;
    if (cause?.name === 'AI_TypeValidationError') {
      return {
        error: new AiError(
          'schema_violation',
          `The model's answer did not match the schema: ${cause.message ?? ''}`,
          {
            cause: error,
          },
        ),
        retryable: false,
      };
    }
    return {
      error: new AiError('malformed_output', "The model's answer was not valid JSON", { cause: error }),
      retryable: false,
    };
  }
  if (NoContentGeneratedError.isInstance(error)) {
    return {
      error: new AiError('malformed_output', 'The model answered with no content', { cause: error }),
      retryable: false,
    };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryable =
      error.isRetryable || status === undefined || status === 408 || status === 429 || status >= 500;
    const what = status ? `answered ${status}` : `could not be reached (${error.message})`;
    return { error: new AiError('upstream_error', `The LLM endpoint ${what}`, { cause: error }), retryable };
  }
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return {
      error: new AiError('timeout', `The LLM call took longer than ${timeoutMs} ms`, { cause: error }),
      retryable: false,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    error: new AiError('upstream_error', `The LLM call failed: ${message}`, { cause: error }),
    retryable: false,
  };
}

/**
 * The LLM engine: structured answers validated by zod schemas, a time limit per call, bounded retries
 * for failures that may pass (rate limits, 5xx, network), token usage logged. A malformed or
 * schema-violating answer is an AiError at once: nothing from it is returned.
 */
export function createLlmProvider(options: LlmProviderOptions): AiProvider {
  const { model, directory, log, timeoutMs } = options;
  const maxRetries = options.maxRetries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const name = modelName(model);

  async function generate<T>(
    op: string,
    schema: z.ZodType<T>,
    prompt: string,
    settings: { temperature: number; seed?: number; timeoutMs?: number; maxRetries?: number },
  ): Promise<T> {
    const callTimeoutMs = settings.timeoutMs ?? timeoutMs;
    const callRetries = settings.maxRetries ?? maxRetries;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      try {
        const result = await generateText({
          model,
          system: SYSTEM,
          prompt,
          output: Output.object({ schema, name: op }),
          temperature: settings.temperature,
          ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
          maxRetries: 0,
          timeout: callTimeoutMs,
          // Some servers reject strict JSON schemas with length limits; the answer is validated here anyway.
          providerOptions: { [PROVIDER_NAME]: { strictJsonSchema: false } },
        });
        const usage = result.totalUsage;
        log.info(
          {
            op,
            model: name,
            attempt,
            ms: Math.round(performance.now() - started),
            input_tokens: usage.inputTokens ?? null,
            output_tokens: usage.outputTokens ?? null,
            total_tokens: usage.totalTokens ?? null,
            finish_reason: result.finishReason,
          },
          'llm call',
        );
        return result.output as T;
      } catch (thrown) {
        const { error, retryable } = classify(thrown, callTimeoutMs);
        const again = retryable && attempt <= callRetries;
        log.warn(
          {
            op,
            model: name,
            attempt,
            ms: Math.round(performance.now() - started),
            code: error.code,
            retry: again,
          },
          `llm call failed: ${error.message}`,
        );
        if (!again) throw error;
        await new Promise((r) => setTimeout(r, retryDelayMs * 2 ** (attempt - 1)));
      }
    }
  }

  return {
    kind: 'llm',

    async generateKeywords(product) {
      const answer = await generate('keywords', ZKeywordsAnswer, keywordsPrompt(product), {
        temperature: 0.2,
      });
      const seen = new Set<string>();
      const take = (list: string[], type: TKeywordSuggestion['type'], max: number) =>
        list
          .map((k) => k.trim().toLowerCase().replace(/\s+/g, ' '))
          .filter((k) => k.length >= 2 && !seen.has(k) && seen.add(k))
          .slice(0, max)
          .map((keyword): TKeywordSuggestion => ({ keyword, type }));
      return [...take(answer.product_keywords, 'product', 10), ...take(answer.icp_keywords, 'icp', 8)];
    },

    async suggestSubreddits(input: SuggestSubredditsInput) {
      const { candidates, queries } = await gatherCandidates(directory, input.keywords, input.exclude);
      // Pre-rank by the offline score so the prompt carries the most promising candidates.
      const ranked = scoreCandidates([...candidates.values()], input.keywords, queries.length)
        .sort((a, b) => b.score - a.score)
        .slice(0, MAX_CANDIDATES_IN_PROMPT)
        .map((s) => s.info);
      const answer = await generate(
        'subreddits',
        ZSubredditsAnswer,
        subredditsPrompt({ ...input, candidates: ranked }),
        { temperature: 0.1 },
      );

      const excluded = new Set(input.exclude.map((n) => n.toLowerCase()));
      const chosen = new Map<string, { info: SubredditInfo; score: number; reason: string }>();
      let proposed = 0;
      for (const entry of [...answer.subreddits].sort((a, b) => b.relevance_score - a.relevance_score)) {
        if (chosen.size >= input.limit) break;
        const key = entry.name.toLowerCase();
        if (excluded.has(key) || chosen.has(key) || entry.relevance_score < MIN_RELEVANCE) continue;
        let info = candidates.get(key)?.info ?? null;
        if (!info) {
          // Only subreddits that exist: a name the model made up is checked, and dropped if unknown.
          if (++proposed > MAX_PROPOSED_NAMES) continue;
          info = await directory.aboutSubreddit(entry.name);
          if (!info) {
            log.info({ op: 'subreddits', name: entry.name }, 'llm proposed a subreddit that does not exist');
            continue;
          }
        }
        chosen.set(key, { info, score: entry.relevance_score, reason: entry.reason });
      }
      const infos = await withMembers(
        directory,
        [...chosen.values()].map((c) => c.info),
      );
      return infos.map((info): TSubredditSuggestion => {
        const c = chosen.get(info.name.toLowerCase())!;
        return {
          subreddit_name: info.name,
          description: info.publicDescription || info.title,
          estimated_members: info.subscribers ?? 0,
          relevance_score: Math.round(c.score * 100) / 100,
          reason: c.reason,
        };
      });
    },

    async writeDm(input: WriteDmInput) {
      const targets = targetsFor(input);
      const answer = await generate(
        input.previous ? 'regenerate_dm' : 'dm',
        dmAnswerSchema(input.product.call_to_action),
        dmPrompt(input, targets),
        {
          temperature: input.previous ? 0.9 : 0.7,
          seed: input.variant,
        },
      );
      return toDraft(input.source, answer.message, input.variant);
    },

    async scoreIntents(input: ScoreIntentsInput) {
      const answer = await generate('intent', ZIntentAnswer, intentPrompt(input), {
        temperature: 0,
        timeoutMs: Math.min(timeoutMs, INTENT_TIMEOUT_MS),
        maxRetries: 0,
      });
      const byId = new Map(answer.items.map((a) => [a.id, a]));
      let missing = 0;
      const scores = input.items.map((item): IntentScore => {
        const a = byId.get(item.id);
        if (!a) {
          // An item the model skipped is scored by the rules rather than dropped.
          missing++;
          return scoreIntentByRules(item, item.matches);
        }
        const reasons = a.reasons
          .map((r) => r.replace(/\s+/g, ' ').slice(0, INTENT_REASON_LENGTH))
          .slice(0, INTENT_REASONS);
        return { score: Math.round(a.score), reasons };
      });
      if (missing > 0) log.info({ op: 'intent', missing, items: input.items.length }, 'llm skipped items');
      return scores;
    },
  };
}
