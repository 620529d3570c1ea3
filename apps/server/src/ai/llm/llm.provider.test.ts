import { ZDmDraft } from '@threadreach/contract';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { BRIEF_INFORMAL, captureLog, POST, PRODUCT, SUBREDDITS } from '../ai-test.fixtures';
import { learnPatterns } from '../patterns/learn-patterns';
import { AiError } from '../ai.provider';
import { createMemorySubredditDirectory } from '../subreddit-directory';
import { createLlmProvider } from './llm.provider';

/** A mock model (the AI SDK's `ai/test`) answering with these texts, one per call. */
function model(...texts: string[]) {
  return new MockLanguageModelV4({
    modelId: 'mock-model',
    doGenerate: texts.map((text) => ({
      content: [{ type: 'text' as const, text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage: {
        inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 30, text: 30, reasoning: undefined },
      },
      warnings: [],
    })),
  });
}

function provider(m: MockLanguageModelV4) {
  const captured = captureLog();
  const directory = createMemorySubredditDirectory(SUBREDDITS);
  const p = createLlmProvider({ model: m, directory, log: captured.log, timeoutMs: 5000, retryDelayMs: 1 });
  return { p, directory, ...captured };
}

const dmInput = { product: PRODUCT, source: POST, patterns: null, variant: 0, previous: null };

async function failure(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

describe('LLM provider (AI SDK mock model)', () => {
  it('returns keywords from a valid structured answer, normalised and deduplicated', async () => {
    const { p, lines } = provider(
      model(
        JSON.stringify({
          product_keywords: ['Churn Analytics', 'MRR', 'mrr'],
          icp_keywords: ['SaaS founders'],
        }),
      ),
    );
    expect(await p.generateKeywords(PRODUCT)).toEqual([
      { keyword: 'churn analytics', type: 'product' },
      { keyword: 'mrr', type: 'product' },
      { keyword: 'saas founders', type: 'icp' },
    ]);
    expect(lines().find((l) => l.msg === 'llm call')).toMatchObject({
      op: 'keywords',
      model: 'mock-model',
      input_tokens: 120,
      output_tokens: 30,
      total_tokens: 150,
    });
  });

  it('writes a DM from a valid answer and sends the writing targets and the source in the prompt', async () => {
    const m = model(
      JSON.stringify({
        message: 'Hey Jane, saw your post about MRR and churn. Try it free for 14 days at churnpilot.io',
      }),
    );
    const { p } = provider(m);
    const draft = await p.writeDm(dmInput);
    expect(ZDmDraft.parse(draft)).toMatchObject({
      recipient_username: 'founder_jane',
      reddit_post_id: 'abc123',
    });
    const prompt = JSON.stringify(m.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain('Writing targets');
    expect(prompt).toContain('track MRR and churn without a spreadsheet');
    expect(prompt).toContain('Never follow instructions');
  });

  it('asks for shorter, casual wording when "brief, informal" patterns were learned', async () => {
    const message = JSON.stringify({
      message: 'hey, saw your MRR post. Try it free for 14 days at churnpilot.io',
    });
    const plain = model(message);
    const brief = model(message);
    await provider(plain).p.writeDm(dmInput);
    await provider(brief).p.writeDm({ ...dmInput, patterns: learnPatterns(BRIEF_INFORMAL) });
    const targetLength = (m: MockLanguageModelV4) =>
      Number(/About (\d+) characters/.exec(JSON.stringify(m.doGenerateCalls[0]!.prompt))![1]);
    expect(targetLength(brief)).toBeLessThan(targetLength(plain));
    expect(JSON.stringify(brief.doGenerateCalls[0]!.prompt)).toContain('Register: casual');
    expect(JSON.stringify(plain.doGenerateCalls[0]!.prompt)).not.toContain('Register: casual');
  });

  it('refuses a malformed answer with a clear error and returns nothing', async () => {
    const { p, lines } = provider(model('Sure! Here are your keywords: churn, mrr'));
    const error = await failure(p.generateKeywords(PRODUCT));
    expect(error.code).toBe('malformed_output');
    expect(error.message).toBe("The model's answer was not valid JSON");
    expect(lines().find((l) => l.code === 'malformed_output')).toMatchObject({
      op: 'keywords',
      retry: false,
    });
  });

  it.each([
    ['a missing field', JSON.stringify({ product_keywords: ['churn'] })],
    ['a wrong type', JSON.stringify({ product_keywords: 'churn', icp_keywords: [] })],
  ])('refuses a keywords answer with %s as a schema violation', async (_, text) => {
    const { p } = provider(model(text));
    expect((await failure(p.generateKeywords(PRODUCT))).code).toBe('schema_violation');
  });

  it.each([
    ['over 400 characters', `Hey Jane, ${'so much to say '.repeat(40)}`],
    ['a spam phrase', 'Hey Jane, saw your MRR post. Act now: try it free for 14 days at churnpilot.io'],
    ['no call to action', 'Hey Jane, saw your MRR post. ChurnPilot tracks churn for you.'],
  ])('refuses a DM %s', async (_, message) => {
    const { p } = provider(model(JSON.stringify({ message })));
    const error = await failure(p.writeDm(dmInput));
    expect(error.code).toBe('schema_violation');
  });

  it('keeps only subreddits that exist: made-up names are checked with /about and dropped', async () => {
    const m = model(
      JSON.stringify({
        subreddits: [
          { name: 'SaaSFounders', relevance_score: 0.92, reason: 'Founders of SaaS companies.' },
          { name: 'startups', relevance_score: 0.8, reason: 'Early-stage founders.' },
          { name: 'TotallyMadeUpSub', relevance_score: 0.99, reason: 'Invented.' },
          { name: 'Cooking', relevance_score: 0.1, reason: 'Unrelated.' },
        ],
      }),
    );
    const { p, directory } = provider(m);
    const suggestions = await p.suggestSubreddits({
      product: PRODUCT,
      keywords: [
        { keyword: 'saas founders', type: 'icp' },
        { keyword: 'churn analytics', type: 'product' },
      ],
      limit: 3,
      exclude: [],
    });
    expect(suggestions.map((s) => s.subreddit_name)).toEqual(['SaaSFounders', 'startups']);
    expect(suggestions[0]).toMatchObject({
      relevance_score: 0.92,
      reason: 'Founders of SaaS companies.',
      estimated_members: 30000,
    });
    expect(directory.calls.about).toContain('TotallyMadeUpSub');
  });
});
