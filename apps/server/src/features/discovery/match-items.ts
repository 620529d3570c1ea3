import type { NewLead } from '../leads';
import type { NewRedditItem } from './discovery.repository';
import { scoreIntent } from './intent';
import type { Matcher } from './matcher';
import type { ListedItem } from './reddit-reader';

/** Authors Reddit shows for deleted accounts: nobody to reach. */
const NO_AUTHOR = new Set(['[deleted]', '[removed]', '']);

export interface MatchedItems {
  /** The items some project matched (only these are stored). */
  items: NewRedditItem[];
  leads: NewLead[];
}

/** Matches each item once against every project the matcher holds, and scores each match's intent. */
export function matchItems(matcher: Matcher, listed: ListedItem[], now: Date): MatchedItems {
  const items: NewRedditItem[] = [];
  const leads: NewLead[] = [];
  const seen = new Set<string>();
  for (const item of listed) {
    if (seen.has(item.name) || NO_AUTHOR.has(item.author)) continue;
    seen.add(item.name);
    const found = matcher.match(item);
    if (found.length === 0) continue;
    const createdAt = new Date(item.createdUtc * 1000);
    items.push({
      name: item.name,
      kind: item.kind,
      subreddit: item.subreddit,
      author: item.author,
      title: item.postTitle,
      body: item.body,
      permalink: item.permalink,
      score: item.score,
      createdAt,
      fetchedAt: now,
    });
    for (const match of found) {
      const intent = scoreIntent({ title: item.title, body: item.body }, match.matches);
      leads.push({
        projectId: match.projectId,
        itemName: item.name,
        kind: item.kind === 't3' ? 'post' : 'comment',
        author: item.author,
        subreddit: item.subreddit,
        matchedKeywords: match.matchedKeywords,
        matches: match.matches,
        intentScore: intent.score,
        intentReasons: intent.reasons,
        itemCreatedAt: createdAt,
        foundAt: now,
      });
    }
  }
  return { items, leads };
}
