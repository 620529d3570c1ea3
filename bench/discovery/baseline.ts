import type { Matcher } from '../../apps/server/src/features/discovery/matcher';
import type { RedditClient } from '../../apps/server/src/integrations/reddit';
import type { BenchProject } from './scenario';

/** One lead: the project and the item's fullname. */
export type LeadKey = `${string}|${string}`;

export interface BaselineCycle {
  requests: number;
  /** New leads of this cycle, with the item's creation time (ms). */
  leads: Map<LeadKey, number>;
}

const CONCURRENCY = 16;

/**
 * What a tool without a shared engine does every cycle: for each project, for each of its subreddits,
 * for each keyword, one search of that subreddit's newest posts. Its leads are the results created
 * since the last cycle that the same matcher accepts for that project.
 */
export async function baselineCycle(
  client: RedditClient,
  projects: { id: string; spec: BenchProject }[],
  matcher: Matcher,
  window: { afterSec: number; untilSec: number },
): Promise<BaselineCycle> {
  const searches = projects.flatMap((p) =>
    p.spec.subreddits.flatMap((sub) => p.spec.keywords.map((q) => ({ project: p.id, sub, q }))),
  );
  const leads = new Map<LeadKey, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < searches.length) {
        const s = searches[next++]!;
        // `t=hour` lets the simulator stop at the hour's posts; a minute-old cursor needs no more.
        const page = await client.app.search({
          q: s.q,
          subreddit: s.sub,
          sort: 'new',
          t: 'hour',
          limit: 100,
        });
        for (const { data: post } of page.data.children) {
          if (post.created_utc <= window.afterSec || post.created_utc > window.untilSec) continue;
          const matched = matcher.match({
            name: post.name,
            kind: 't3',
            subreddit: post.subreddit,
            author: post.author,
            title: post.title,
            body: post.selftext,
          });
          if (matched.some((m) => m.projectId === s.project)) {
            leads.set(`${s.project}|${post.name}`, post.created_utc * 1000);
          }
        }
      }
    }),
  );
  return { requests: searches.length, leads };
}
