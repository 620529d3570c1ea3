import { beforeAll, describe, expect, it } from 'vitest';
import { useRedditRig } from '../integrations/reddit/use-reddit-rig';
import { PRODUCT } from './ai-test.fixtures';
import { createOfflineProvider } from './offline/offline.provider';
import { createRedditSubredditDirectory } from './reddit-directory.adapter';
import type { SubredditDirectory } from './subreddit-directory';

/** The offline engine on the server's Reddit client against the simulator's corpus. */
const env = useRedditRig();
let directory: SubredditDirectory;
let clientId: string;

beforeAll(() => {
  clientId = `ai-directory-${Date.now()}`;
  directory = createRedditSubredditDirectory(env.rig.client({ clientId }).app);
});

describe('subreddit directory over the Reddit client', () => {
  it('searches subreddits and reads their about page', async () => {
    const found = await directory.searchSubreddits('landlord', 10);
    expect(found.map((s) => s.name)).toContain('Landlord');
    expect(found[0]!.subscribers).toBeGreaterThan(0);
    expect(await directory.aboutSubreddit('Landlord')).toMatchObject({ name: 'Landlord', title: 'Landlord' });
    expect(await directory.aboutSubreddit('NoSuchSubredditHere')).toBeNull();
  });

  it('suggests only subreddits that exist in the corpus, the SaaS ones for a SaaS product', async () => {
    const provider = createOfflineProvider({ directory });
    const keywords = await provider.generateKeywords(PRODUCT);
    const suggestions = await provider.suggestSubreddits({
      product: PRODUCT,
      keywords,
      limit: 10,
      exclude: [],
    });
    expect(suggestions.length).toBeGreaterThanOrEqual(3);
    for (const s of suggestions) expect(await directory.aboutSubreddit(s.subreddit_name)).not.toBeNull();
    expect(suggestions.map((s) => s.subreddit_name)).toEqual(
      expect.arrayContaining(['SaaSFounders', 'startups']),
    );
    // Well within Reddit's budget of 100 requests a minute per client.
    expect(env.rig.sim.inspect.maxRequestsInWindow(clientId)).toBeLessThan(30);
  });
});
