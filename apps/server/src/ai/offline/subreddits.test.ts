import { ZSubredditSuggestion, type TKeywordSuggestion } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import { PRODUCT, SUBREDDITS } from '../ai-test.fixtures';
import { MAX_QUERIES, searchQueries } from '../subreddit-candidates';
import { createMemorySubredditDirectory } from '../subreddit-directory';
import { suggestSubredditsOffline } from './subreddits';

const KEYWORDS: TKeywordSuggestion[] = [
  { keyword: 'churn analytics', type: 'product' },
  { keyword: 'failed payments', type: 'product' },
  { keyword: 'mrr', type: 'product' },
  { keyword: 'saas founders', type: 'icp' },
  { keyword: 'bootstrapped startups', type: 'icp' },
  { keyword: 'indie hackers', type: 'icp' },
];

const input = (over: Partial<Parameters<typeof suggestSubredditsOffline>[1]> = {}) => ({
  product: PRODUCT,
  keywords: KEYWORDS,
  limit: 10,
  exclude: [],
  ...over,
});

describe('suggestSubredditsOffline', () => {
  it('suggests only subreddits the search found, relevant ones first, with score and reason', async () => {
    const directory = createMemorySubredditDirectory(SUBREDDITS);
    const suggestions = await suggestSubredditsOffline(directory, input());
    const names = suggestions.map((s) => s.subreddit_name);
    expect(names).toEqual(expect.arrayContaining(['SaaSFounders', 'startups', 'indiehackers', 'churn_talk']));
    expect(names).not.toContain('Cooking');
    expect(names).not.toContain('postprocessing');
    for (const s of suggestions) {
      expect(ZSubredditSuggestion.parse(s)).toEqual(s);
      expect(SUBREDDITS.map((x) => x.name)).toContain(s.subreddit_name);
      expect(s.reason).toMatch(/^About "/);
    }
    const scores = suggestions.map((s) => s.relevance_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('asks /about only for members the search did not give, and drops what /about does not find', async () => {
    const directory = createMemorySubredditDirectory(SUBREDDITS);
    const suggestions = await suggestSubredditsOffline(directory, input());
    expect(directory.calls.about).toEqual(['churn_talk']);
    expect(suggestions.find((s) => s.subreddit_name === 'SaaS')?.estimated_members ?? 412000).toBe(412000);

    const hidden = createMemorySubredditDirectory(SUBREDDITS, { hideSubscribersInSearch: true });
    const filled = await suggestSubredditsOffline(hidden, input());
    expect(filled.find((s) => s.subreddit_name === 'startups')?.estimated_members).toBe(1800000);
    expect(hidden.calls.about.length).toBe(filled.length);

    const vanishing = createMemorySubredditDirectory(SUBREDDITS, { hideSubscribersInSearch: true });
    vanishing.aboutSubreddit = async () => null;
    expect(await suggestSubredditsOffline(vanishing, input())).toEqual([]);
  });

  it('never suggests excluded names again and respects the limit', async () => {
    const directory = createMemorySubredditDirectory(SUBREDDITS);
    const suggestions = await suggestSubredditsOffline(
      directory,
      input({ exclude: ['saasfounders'], limit: 2 }),
    );
    expect(suggestions).toHaveLength(2);
    expect(suggestions.map((s) => s.subreddit_name)).not.toContain('SaaSFounders');
  });

  it('keeps the number of searches within the Reddit budget, people and problems in turn', () => {
    const many = Array.from({ length: 30 }, (_, i): TKeywordSuggestion => ({
      keyword: `topic${i} thing${i}`,
      type: i % 2 ? 'icp' : 'product',
    }));
    expect(searchQueries(many)).toHaveLength(MAX_QUERIES);
    expect(searchQueries(KEYWORDS).slice(0, 4)).toEqual(['founder', 'saas', 'analytic', 'churn']);
  });
});
