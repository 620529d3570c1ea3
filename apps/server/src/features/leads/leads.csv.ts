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

/** Spreadsheets run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): text a spreadsheet would take for a formula is prefixed with a quote so it
 * stays text, and a field holding a comma, quote or line break is quoted with its quotes doubled.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: (string | number)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A lead as one CSV record, in the order of LEADS_CSV_COLUMNS. */
export function leadCsvRecord(v: LeadView): string {
  const { lead } = v;
  return csvRecord([
    lead.kind,
    lead.itemName,
    redditUrl(v.permalink),
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
