import { beforeAll, describe, expect, it } from 'vitest';
import { BRIEF_INFORMAL, captureLog, COMMENT, POST, PRODUCT, PROFILE, SUBREDDITS } from './ai-test.fixtures';
import { AiError } from './ai.provider';
import { AI_LOGGER_NAME, type AiService, createAiService } from './ai.service';
import { checkDm } from './dm-checks';
import { createMemorySubredditDirectory } from './subreddit-directory';

let service: AiService;
let captured: ReturnType<typeof captureLog>;

beforeAll(() => {
  captured = captureLog();
  service = createAiService({
    config: { llm: null },
    log: captured.log,
    subreddits: createMemorySubredditDirectory(SUBREDDITS),
  });
});

async function failure(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

describe('AI service (offline engine, the embedded default)', () => {
  it('runs the offline engine when no LLM endpoint is configured', () => {
    expect(service.provider).toBe('offline');
  });

  it('runs the whole chain: keywords, subreddits, a DM per source, a regeneration', async () => {
    const keywords = await service.generateKeywords(PRODUCT);
    expect(keywords.some((k) => k.type === 'product') && keywords.some((k) => k.type === 'icp')).toBe(true);

    const subreddits = await service.suggestSubreddits({ product: PRODUCT, keywords });
    expect(subreddits.length).toBeGreaterThan(0);
    expect(subreddits.every((s) => SUBREDDITS.some((x) => x.name === s.subreddit_name))).toBe(true);

    for (const source of [POST, COMMENT, PROFILE]) {
      const draft = await service.writeDm({ product: PRODUCT, source });
      expect(draft.variant).toBe(0);
      expect(checkDm(draft.message_content, source, PRODUCT).ok).toBe(true);
      const again = await service.regenerateDm({ product: PRODUCT, source, previous: draft });
      expect(again.variant).toBe(1);
      expect(again.message_content).not.toBe(draft.message_content);
    }
  });

  it('marks the source of a DM as the spec says: post id, comment_<id>, profile_<id>', async () => {
    const ids = await Promise.all(
      [POST, COMMENT, PROFILE].map((source) => service.writeDm({ product: PRODUCT, source })),
    );
    expect(ids.map((d) => d.reddit_post_id)).toEqual(['abc123', 'comment_c9x', 'profile_indie_ines']);
    expect(ids[1]).toMatchObject({
      comment_content: COMMENT.source_type === 'comment' && COMMENT.content,
      subreddit: 'startups',
    });
  });

  it('applies learned patterns when writing', async () => {
    const patterns = service.learnPatterns(BRIEF_INFORMAL);
    const plain = await service.writeDm({ product: PRODUCT, source: POST });
    const brief = await service.writeDm({ product: PRODUCT, source: POST, patterns });
    expect(brief.message_content.length).toBeLessThan(plain.message_content.length);
  });

  it('refuses bad input with typed errors', async () => {
    expect((await failure(service.generateKeywords({ ...PRODUCT, product_description: ' ' }))).code).toBe(
      'invalid_input',
    );
    expect((await failure(service.suggestSubreddits({ product: PRODUCT, keywords: [] }))).code).toBe(
      'invalid_input',
    );
    const badSource = { ...POST, author: '' };
    expect((await failure(service.writeDm({ product: PRODUCT, source: badSource }))).code).toBe(
      'invalid_input',
    );
    expect(() => service.learnPatterns(BRIEF_INFORMAL.slice(0, 2))).toThrow(
      expect.objectContaining({ code: 'not_enough_training_data' }),
    );
  });

  it('logs every operation under the ai-service logger name', () => {
    const lines = captured.lines();
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((l) => l.name === AI_LOGGER_NAME)).toBe(true);
    expect(lines.find((l) => l.op === 'suggest_subreddits')).toMatchObject({
      provider: 'offline',
      msg: 'suggest_subreddits done',
    });
    expect(lines.find((l) => l.code === 'not_enough_training_data')).toMatchObject({ level: 40 });
  });
});
