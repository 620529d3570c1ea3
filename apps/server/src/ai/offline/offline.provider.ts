import type { AiProvider } from '../ai.provider';
import { toDraft } from '../dm-draft';
import type { SubredditDirectory } from '../subreddit-directory';
import { composeDm } from './dm-composer';
import { scoreIntentByRules } from './intent';
import { extractKeywords } from './keywords';
import { loadNlp } from './nlp';
import { suggestSubredditsOffline } from './subreddits';

/**
 * The embedded engine: NLP and templates, no model, no network beyond Reddit's subreddit search.
 * Deterministic: the same input always gives the same answer.
 */
export function createOfflineProvider(options: { directory: SubredditDirectory }): AiProvider {
  loadNlp();
  return {
    kind: 'offline',
    async generateKeywords(product) {
      return extractKeywords(product);
    },
    async suggestSubreddits(input) {
      return suggestSubredditsOffline(options.directory, input);
    },
    async writeDm(input) {
      return toDraft(input.source, composeDm(input), input.variant);
    },
    async scoreIntents(input) {
      return input.items.map((item) => scoreIntentByRules(item, item.matches));
    },
  };
}
