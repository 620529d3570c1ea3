import { RedditApiError, type RedditApi, type TRedditSubreddit } from '../integrations/reddit';
import type { SubredditDirectory, SubredditInfo } from './subreddit-directory';

/** The two calls of the server's Reddit client the AI engine needs (app-only is enough). */
export type RedditSubredditApi = Pick<RedditApi, 'searchSubreddits' | 'aboutSubreddit'>;

function toInfo(s: TRedditSubreddit): SubredditInfo {
  return {
    name: s.display_name,
    title: s.title ?? '',
    publicDescription: s.public_description ?? '',
    subscribers: typeof s.subscribers === 'number' ? s.subscribers : null,
  };
}

/**
 * The AI engine's subreddit directory over the server's Reddit client (`client.app`): every call goes
 * through the credential's shared rate budget, token cache and retries. The only file of the ai module
 * that knows the Reddit client.
 */
export function createRedditSubredditDirectory(api: RedditSubredditApi): SubredditDirectory {
  return {
    async searchSubreddits(query, limit) {
      const listing = await api.searchSubreddits(query, { limit: Math.min(100, limit) });
      return listing.data.children.map((c) => toInfo(c.data));
    },
    async aboutSubreddit(name) {
      try {
        const about = await api.aboutSubreddit(name);
        return about ? toInfo(about) : null;
      } catch (error) {
        // Private and banned subreddits answer 403: for suggestions they do not exist.
        if (error instanceof RedditApiError && error.status === 403) return null;
        throw error;
      }
    },
  };
}

/**
 * A directory that asks for its Reddit API on every call, so the process-wide AI engine always reads
 * through a credential that is enabled now (the least recently used one), never one captured at start.
 */
export function createLazySubredditDirectory(api: () => Promise<RedditSubredditApi>): SubredditDirectory {
  return {
    async searchSubreddits(query, limit) {
      return createRedditSubredditDirectory(await api()).searchSubreddits(query, limit);
    },
    async aboutSubreddit(name) {
      return createRedditSubredditDirectory(await api()).aboutSubreddit(name);
    },
  };
}
