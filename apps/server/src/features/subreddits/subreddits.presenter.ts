import type { TSubreddit } from '@threadreach/contract';
import type { SubredditRow } from './subreddits.table';

export function presentSubreddit(row: SubredditRow): TSubreddit {
  return {
    id: row.id,
    subreddit_name: row.name,
    description: row.description,
    estimated_members: row.estimatedMembers,
    // Stored as a 4-byte real: two decimals are what the engine meant.
    relevance_score: Math.round(row.relevanceScore * 100) / 100,
    approved: row.approved,
  };
}
