import {
  KEYWORDS_PER_PROJECT_MAX,
  ZDiscoveryFilters,
  ZKeywordApproval,
  type TDiscoveryFilters,
  type TKeyword,
  type TKeywordApproval,
  type TKeywordType,
} from '@threadreach/contract';

/** One row of step 2: a stored keyword (with its id) or one the customer added and has not saved yet. */
export interface TKeywordRow {
  id?: string;
  keyword: string;
  type: TKeywordType;
  approved: boolean;
}

export const DUPLICATE_KEYWORD = 'This keyword is already in the list';
export const TOO_MANY_KEYWORDS = `A project has at most ${KEYWORDS_PER_PROJECT_MAX} keywords`;

export function rowsOf(keywords: TKeyword[]): TKeywordRow[] {
  return keywords.map(({ id, keyword, type, approved }) => ({ id, keyword, type, approved }));
}

export function rowKey(row: TKeywordRow): string {
  return row.id ?? `new:${row.type}:${row.keyword.toLowerCase()}`;
}

/**
 * The list a regeneration left, with the customer's unsaved edits carried over: the approval they gave a
 * keyword still listed, and the keywords they added and have not saved (the server never saw those).
 */
export function carryOver(edited: readonly TKeywordRow[], fresh: readonly TKeywordRow[]): TKeywordRow[] {
  const same = (a: TKeywordRow, b: TKeywordRow) =>
    a.type === b.type && a.keyword.toLowerCase() === b.keyword.toLowerCase();
  const rows = fresh.map((row) => {
    const mine = edited.find((e) => same(e, row));
    return mine ? { ...row, approved: mine.approved } : row;
  });
  for (const row of edited) {
    if (!row.id && !rows.some((r) => same(r, row)) && rows.length < KEYWORDS_PER_PROJECT_MAX) rows.push(row);
  }
  return rows;
}

/** Checks a typed keyword with the contract's rule; returns the cleaned keyword or the error to show. */
export function checkNewKeyword(
  text: string,
  type: TKeywordType,
  rows: readonly TKeywordRow[],
): { ok: true; keyword: string } | { ok: false; error: string } {
  const parsed = ZKeywordApproval.shape.keyword.safeParse(text);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid keyword' };
  const keyword = parsed.data;
  const lower = keyword.toLowerCase();
  if (rows.some((r) => r.type === type && r.keyword.toLowerCase() === lower)) {
    return { ok: false, error: DUPLICATE_KEYWORD };
  }
  if (rows.length >= KEYWORDS_PER_PROJECT_MAX) return { ok: false, error: TOO_MANY_KEYWORDS };
  return { ok: true, keyword };
}

/** The approval body: stored rows by id, added rows by their text. */
export function approvalsOf(rows: readonly TKeywordRow[]): TKeywordApproval[] {
  return rows.map(({ id, keyword, type, approved }) =>
    id ? { id, keyword, type, approved } : { keyword, type, approved },
  );
}

export type TFilterField = keyof TDiscoveryFilters;
export type TFilterErrors = Partial<Record<TFilterField, string>>;

/** Checks the negative keywords and exclusions with the contract's schema (r/ and u/ prefixes are dropped). */
export function checkFilters(
  filters: TDiscoveryFilters,
): { ok: true; data: TDiscoveryFilters } | { ok: false; errors: TFilterErrors } {
  const parsed = ZDiscoveryFilters.safeParse(filters);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: TFilterErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as TFilterField | undefined;
    const index = issue.path[1];
    if (!field || errors[field]) continue;
    const entry = typeof index === 'number' ? filters[field][index] : undefined;
    errors[field] = entry === undefined ? issue.message : `${issue.message}: ${entry}`;
  }
  return { ok: false, errors };
}
