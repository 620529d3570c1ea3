import { describe, expect, it } from 'vitest';
import { matchSummary, matchesIn, previewSegments } from './highlight';

const marked = (text: string, ranges: { start: number; end: number }[], limit?: number) =>
  previewSegments(text, ranges, limit)
    .segments.map((s) => (s.match ? `[${s.text}]` : s.text))
    .join('');

describe('previewSegments', () => {
  it('marks the matched ranges from their offsets (end exclusive)', () => {
    const text = 'Need a CRM for my agency, any CRM works';
    expect(
      marked(text, [
        { start: 7, end: 10 },
        { start: 30, end: 33 },
      ]),
    ).toBe('Need a [CRM] for my agency, any [CRM] works');
  });

  it('merges overlapping ranges, sorts them and ignores empty or outside ones', () => {
    const text = 'invoice software for designers';
    expect(
      marked(text, [
        { start: 8, end: 16 },
        { start: 0, end: 16 },
        { start: 5, end: 5 },
        { start: 40, end: 50 },
      ]),
    ).toBe('[invoice software] for designers');
  });

  it('cuts the preview at the limit and marks the cut', () => {
    const text = 'a'.repeat(10) + 'crm' + 'b'.repeat(300);
    const preview = previewSegments(text, [{ start: 10, end: 13 }], 200);
    expect(preview.segments.map((s) => s.text).join('')).toHaveLength(200);
    expect(preview.cutStart).toBe(false);
    expect(preview.cutEnd).toBe(true);
    expect(preview.segments[1]).toEqual({ text: 'crm', match: true });
  });

  it('starts the preview shortly before a match that lies beyond the limit', () => {
    const text = 'x'.repeat(500) + ' bookkeeping ' + 'y'.repeat(500);
    const preview = previewSegments(text, [{ start: 501, end: 512 }], 150);
    expect(preview.cutStart).toBe(true);
    expect(preview.cutEnd).toBe(true);
    expect(preview.segments.map((s) => s.text).join('')).toHaveLength(150);
    expect(preview.segments.find((s) => s.match)?.text).toBe('bookkeeping');
  });

  it('keeps the whole text without a limit, and clips a match at the preview end', () => {
    expect(marked('short text', [])).toBe('short text');
    expect(marked('abcdef', [{ start: 4, end: 6 }], 5)).toBe('abcd[e]');
  });
});

describe('match reasons', () => {
  const matches = [
    { keyword: 'crm', field: 'title' as const, start: 0, end: 3 },
    { keyword: 'crm', field: 'body' as const, start: 4, end: 7 },
    { keyword: 'crm', field: 'body' as const, start: 20, end: 23 },
  ];

  it('filters by field', () => {
    expect(matchesIn(matches, 'title')).toHaveLength(1);
    expect(matchesIn(matches, 'body')).toHaveLength(2);
  });

  it('names each keyword and field once', () => {
    expect(matchSummary(matches)).toEqual(['“crm” in title', '“crm” in body']);
  });
});
