import { csvRecord } from '../../http/csv';
import type { LeadView } from './leads.repository';
import { redditUrl } from './leads.presenter';

export const LEADS_CSV_COLUMNS = [
  'kind',
  'reddit_id',
  'url',
  'subreddit',
  'author',
  'title',
  'content',
  'matched_keywords',
  'intent_score',
  'intent_reasons',
  'created_utc',
  'found_at',
] as const;

/** A lead as one CSV record, in the order of LEADS_CSV_COLUMNS; its url on Reddit at `redditOrigin`. */
export function leadCsvRecord(v: LeadView, redditOrigin: string): string {
  const { lead } = v;
  return csvRecord([
    lead.kind,
    lead.itemName,
    redditUrl(v.permalink, redditOrigin),
    lead.subreddit,
    lead.author,
    v.title,
    v.body,
    lead.matchedKeywords.join('; '),
    lead.intentScore,
    lead.intentReasons.join('; '),
    lead.itemCreatedAt.toISOString(),
    lead.foundAt.toISOString(),
  ]);
}
