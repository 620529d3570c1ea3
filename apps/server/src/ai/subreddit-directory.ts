/** A subreddit as the AI engine needs it, whatever client fetched it. */
export interface SubredditInfo {
  name: string;
  title: string;
  publicDescription: string;
  /** Null when the listing did not say; `aboutSubreddit` fills it. */
  subscribers: number | null;
}

/**
 * The part of Reddit the AI engine reads: subreddit search and about. The server's Reddit client
 * implements it through an adapter; tests use the in-memory directory below.
 */
export interface SubredditDirectory {
  searchSubreddits(query: string, limit: number): Promise<SubredditInfo[]>;
  /** Null when the subreddit does not exist (or is banned or private). */
  aboutSubreddit(name: string): Promise<SubredditInfo | null>;
}

/**
 * A fixed list searched like Reddit's simulator does (every word in name, title or description),
 * largest first. `hideSubscribersInSearch` makes search omit member counts, as some listings do.
 */
export function createMemorySubredditDirectory(
  subreddits: SubredditInfo[],
  options: { hideSubscribersInSearch?: boolean } = {},
): SubredditDirectory & { calls: { search: string[]; about: string[] } } {
  const calls = { search: [] as string[], about: [] as string[] };
  return {
    calls,
    async searchSubreddits(query, limit) {
      calls.search.push(query);
      const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
      if (terms.length === 0) return [];
      return subreddits
        .filter((s) => {
          const text = `${s.name} ${s.title} ${s.publicDescription}`.toLowerCase();
          return terms.every((t) => text.includes(t));
        })
        .sort((a, b) => (b.subscribers ?? 0) - (a.subscribers ?? 0))
        .slice(0, limit)
        .map((s) => (options.hideSubscribersInSearch ? { ...s, subscribers: null } : { ...s }));
    },
    async aboutSubreddit(name) {
      calls.about.push(name);
      const found = subreddits.find((s) => s.name.toLowerCase() === name.toLowerCase());
      return found ? { ...found } : null;
    },
  };
}
