import { ZKeywordSuggestion } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import { PRODUCT } from '../ai-test.fixtures';
import { extractKeywords, MAX_ICP_KEYWORDS, MAX_PRODUCT_KEYWORDS } from './keywords';

const words = (list: { keyword: string }[]) => list.map((k) => k.keyword);

describe('extractKeywords', () => {
  const keywords = extractKeywords(PRODUCT);
  const product = words(keywords.filter((k) => k.type === 'product'));
  const icp = words(keywords.filter((k) => k.type === 'icp'));

  it('splits noun phrases of the description (product) and of the ideal client profile (ICP)', () => {
    expect(keywords.every((k) => ZKeywordSuggestion.safeParse(k).success)).toBe(true);
    expect(product).toEqual(expect.arrayContaining(['churn analytics', 'failed payments', 'stripe', 'mrr']));
    expect(icp).toEqual(expect.arrayContaining(['indie hackers', 'bootstrapped saas startups']));
    expect(product.length).toBeLessThanOrEqual(MAX_PRODUCT_KEYWORDS);
    expect(icp.length).toBeLessThanOrEqual(MAX_ICP_KEYWORDS);
  });

  it('leaves out the product name, vague nouns, verbs read as nouns and duplicates', () => {
    const all = words(keywords);
    expect(all).not.toContain('churnpilot');
    for (const vague of ['tool', 'dashboard', 'clicks', 'one', 'software']) expect(all).not.toContain(vague);
    expect(all.some((k) => /^(shows|connects|track)\b/.test(k))).toBe(false);
    expect(new Set(all).size).toBe(all.length);
  });

  it('reads "founders of X" as "X founders" and participles as adjectives', () => {
    expect(icp).toContain('startup founders');
    expect(product).toContain('failed payments');
  });

  it('is deterministic', () => {
    expect(extractKeywords({ ...PRODUCT })).toEqual(keywords);
  });
});
