import { describe, expect, it } from 'vitest';
import { approvalsOf, checkFilters, checkNewKeyword, DUPLICATE_KEYWORD } from './keyword-rows';

const rows = [{ id: '1', keyword: 'Invoice App', type: 'product' as const, approved: true }];

describe('checkNewKeyword', () => {
  it('trims and accepts a new keyword', () => {
    expect(checkNewKeyword('  tax reports ', 'product', rows)).toEqual({ ok: true, keyword: 'tax reports' });
  });

  it("refuses what the contract refuses, with the contract's message", () => {
    expect(checkNewKeyword('a', 'product', rows)).toEqual({
      ok: false,
      error: 'Keywords are at least 2 characters',
    });
    expect(checkNewKeyword('x'.repeat(81), 'icp', rows)).toEqual({
      ok: false,
      error: 'Keywords are at most 80 characters',
    });
  });

  it('refuses a keyword already listed with the same type, whatever its case', () => {
    expect(checkNewKeyword('invoice app', 'product', rows)).toEqual({ ok: false, error: DUPLICATE_KEYWORD });
    expect(checkNewKeyword('invoice app', 'icp', rows).ok).toBe(true);
  });
});

describe('approvalsOf', () => {
  it('sends stored rows by id and added rows by text', () => {
    expect(approvalsOf([...rows, { keyword: 'tax', type: 'icp', approved: false }])).toEqual([
      { id: '1', keyword: 'Invoice App', type: 'product', approved: true },
      { keyword: 'tax', type: 'icp', approved: false },
    ]);
  });
});

describe('checkFilters', () => {
  it('drops r/ and u/ prefixes', () => {
    expect(
      checkFilters({
        negative_keywords: ['hiring'],
        excluded_subreddits: ['r/jobs'],
        excluded_authors: ['u/AutoModerator'],
      }),
    ).toEqual({
      ok: true,
      data: {
        negative_keywords: ['hiring'],
        excluded_subreddits: ['jobs'],
        excluded_authors: ['AutoModerator'],
      },
    });
  });

  it('names the bad entry', () => {
    const result = checkFilters({
      negative_keywords: [],
      excluded_subreddits: ['no spaces'],
      excluded_authors: [],
    });
    expect(result).toEqual({
      ok: false,
      errors: { excluded_subreddits: 'Invalid subreddit name: no spaces' },
    });
  });
});
