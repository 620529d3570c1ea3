import type { TDiscoveryFilters, TKeyword, TKeywordType } from '@threadreach/contract';
import type { DiscoveryFiltersRow, KeywordRow } from './keywords.table';

export function presentKeyword(row: KeywordRow): TKeyword {
  return { id: row.id, keyword: row.keyword, type: row.type as TKeywordType, approved: row.approved };
}

/** A project that never saved step 2 has no filters: every list is empty. */
export function presentFilters(row: DiscoveryFiltersRow | null): TDiscoveryFilters {
  return {
    negative_keywords: row?.negativeKeywords ?? [],
    excluded_subreddits: row?.excludedSubreddits ?? [],
    excluded_authors: row?.excludedAuthors ?? [],
  };
}
