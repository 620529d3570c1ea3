import { afterEach, describe, expect, it } from 'vitest';
import { captureLog, POST, PRODUCT, SUBREDDITS } from '../ai-test.fixtures';
import { AiError } from '../ai.provider';
import { AI_LOGGER_NAME, createAiService } from '../ai.service';
import { createMemorySubredditDirectory } from '../subreddit-directory';
import { type FakeAnswer, type FakeOpenAi, promptOf, startFakeOpenAi } from './fake-openai.server';

const API_KEY = 'sk-test-0123456789abcdef';
let fake: FakeOpenAi | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The AI service configured for a local fake OpenAI-compatible endpoint that answers in turn. */
async function serviceWith(answers: FakeAnswer[], timeoutMs = 5000) {
  let i = 0;
  fake = await startFakeOpenAi(() => answers[Math.min(i++, answers.length - 1)]!);
  const captured = captureLog();
  const service = createAiService({
    config: { llm: { baseUrl: fake.url, apiKey: API_KEY, model: 'test-model', timeoutMs } },
    log: captured.log,
    subreddits: createMemorySubredditDirectory(SUBREDDITS),
    llmRetryDelayMs: 1,
  });
  return { service, fake, ...captured };
}

async function failure(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

const KEYWORDS = JSON.stringify({ product_keywords: ['churn analytics'], icp_keywords: ['saas founders'] });

describe('LLM provider against a local OpenAI-compatible server', () => {
  it('calls /chat/completions with the model, the key and a JSON schema, and logs token usage', async () => {
    const { service, fake, lines, raw } = await serviceWith([
      { content: KEYWORDS, usage: { prompt_tokens: 210, completion_tokens: 17 } },
    ]);
    expect(service.provider).toBe('llm');
    expect(await service.generateKeywords(PRODUCT)).toEqual([
      { keyword: 'churn analytics', type: 'product' },
      { keyword: 'saas founders', type: 'icp' },
    ]);
    const request = fake.requests[0]!;
    expect(request.model).toBe('test-model');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'keywords', strict: false },
    });
    expect(promptOf(request)).toContain('<input>');

    const call = lines().find((l) => l.msg === 'llm call');
    expect(call).toMatchObject({
      name: AI_LOGGER_NAME,
      op: 'keywords',
      input_tokens: 210,
      output_tokens: 17,
      total_tokens: 227,
    });
    expect(lines().every((l) => l.name === AI_LOGGER_NAME)).toBe(true);
    expect(raw()).not.toContain(API_KEY);
  });

  it('refuses malformed JSON at once: a clear error, no retry, nothing returned', async () => {
    const { service, fake } = await serviceWith([{ content: '{"product_keywords": ["churn", ' }]);
    const error = await failure(service.generateKeywords(PRODUCT));
    expect(error).toMatchObject({
      code: 'malformed_output',
      message: "The model's answer was not valid JSON",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses JSON that breaks the schema, for keywords and for DMs', async () => {
    const { service } = await serviceWith([
      { content: JSON.stringify({ keywords: ['churn'] }) },
      { content: JSON.stringify({ message: 'x'.repeat(401) }) },
    ]);
    const keywords = await failure(service.generateKeywords(PRODUCT));
    expect(keywords.code).toBe('schema_violation');
    expect(keywords.message).toMatch(/^The model's answer did not match the schema/);
    const dm = await failure(service.writeDm({ product: PRODUCT, source: POST }));
    expect(dm.code).toBe('schema_violation');
  });

  it('retries a server error and succeeds', async () => {
    const { service, fake, lines } = await serviceWith([{ status: 503 }, { content: KEYWORDS }]);
    expect(await service.generateKeywords(PRODUCT)).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
    expect(lines().find((l) => l.code === 'upstream_error')).toMatchObject({ attempt: 1, retry: true });
  });

  it('gives up after two retries, and does not retry a refusal', async () => {
    const down = await serviceWith([{ status: 500 }]);
    expect((await failure(down.service.generateKeywords(PRODUCT))).code).toBe('upstream_error');
    expect(down.fake.requests).toHaveLength(3);
    await down.fake.close();

    const refused = await serviceWith([{ status: 400, message: 'bad request' }]);
    const error = await failure(refused.service.generateKeywords(PRODUCT));
    expect(error).toMatchObject({ code: 'upstream_error', message: 'The LLM endpoint answered 400' });
    expect(refused.fake.requests).toHaveLength(1);
  });

  it('stops a call that takes longer than the time limit', async () => {
    const { service, fake } = await serviceWith([{ content: KEYWORDS, delayMs: 2000 }], 150);
    const error = await failure(service.generateKeywords(PRODUCT));
    expect(error).toMatchObject({ code: 'timeout', message: 'The LLM call took longer than 150 ms' });
    // A slow endpoint is not asked again.
    expect(fake.requests).toHaveLength(1);
  });

  it('writes and regenerates a DM through the endpoint', async () => {
    const { service, fake } = await serviceWith([
      {
        content: JSON.stringify({
          message: 'Hey Jane, saw your MRR post. Try it free for 14 days at churnpilot.io',
        }),
      },
      {
        content: JSON.stringify({
          message: 'Jane, re your churn spreadsheet: try it free for 14 days at churnpilot.io',
        }),
      },
    ]);
    const first = await service.writeDm({ product: PRODUCT, source: POST });
    const second = await service.regenerateDm({ product: PRODUCT, source: POST, previous: first });
    expect(second.variant).toBe(1);
    expect(second.message_content).not.toBe(first.message_content);
    expect(promptOf(fake.requests[1]!)).toContain('previous_draft');
  });
});
