import type { TMessageExample } from '@threadreach/contract';
import type { SampleProduct } from './products';

/** Words of a keyword, lower-case, plural "s" removed: "SaaS founders" -> ["saas", "founder"]. */
export function keywordWords(keyword: string): string[] {
  return keyword
    .toLowerCase()
    .split(/[\s/-]+/)
    .map((w) => w.replace(/[^a-z0-9&]/g, ''))
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/**
 * A generated keyword matches a labelled one when, after that normalisation, the words of one contain
 * the words of the other: "bootstrapped saas startups" matches "bootstrapped startups", "churn" matches
 * "churn rate". Lenient on purpose: a person approving keywords accepts both.
 */
export function keywordMatches(generated: string, label: string): boolean {
  const g = keywordWords(generated);
  const l = keywordWords(label);
  if (!g.length || !l.length) return false;
  return g.every((w) => l.includes(w)) || l.every((w) => g.includes(w));
}

export interface PrecisionRecall {
  hits: number;
  total: number;
  found: number;
  labels: number;
  /** Generated items equal to a label (same words), for keywords; else the same as hits. */
  exact: number;
}

const same = (a: string, b: string) => keywordWords(a).join(' ') === keywordWords(b).join(' ');

export function keywordScore(generated: string[], labels: string[]): PrecisionRecall {
  return {
    hits: generated.filter((g) => labels.some((l) => keywordMatches(g, l))).length,
    total: generated.length,
    found: labels.filter((l) => generated.some((g) => keywordMatches(g, l))).length,
    labels: labels.length,
    exact: generated.filter((g) => labels.some((l) => same(g, l))).length,
  };
}

export function subredditScore(suggested: string[], labels: string[]): PrecisionRecall {
  const relevant = new Set(labels.map((l) => l.toLowerCase()));
  const hits = suggested.filter((s) => relevant.has(s.toLowerCase())).length;
  return { hits, total: suggested.length, found: hits, labels: labels.length, exact: hits };
}

export function sum(scores: PrecisionRecall[]): PrecisionRecall {
  return scores.reduce(
    (a, b) => ({
      hits: a.hits + b.hits,
      total: a.total + b.total,
      found: a.found + b.found,
      labels: a.labels + b.labels,
      exact: a.exact + b.exact,
    }),
    { hits: 0, total: 0, found: 0, labels: 0, exact: 0 },
  );
}

export const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(0)}%`);

/** The product's name and what it is, from "Name is a ...". */
function nameAndWhat(p: SampleProduct): { name: string; what: string } {
  const m = /^(\S+) is (.+?)\./.exec(p.product_description);
  return { name: m?.[1] ?? 'our tool', what: (m?.[2] ?? 'a tool for this').slice(0, 70) };
}

function example(final_message: string, i: number): TMessageExample {
  return {
    project_id: 'bench',
    example_type: 'user_approved',
    final_message: final_message.slice(0, 400),
    original_generated: '',
    original_context: { source_type: 'post', source_id: `t3_${i}` },
    post_title: null,
    post_content: null,
    subreddit: null,
  };
}

/** Saved edits of a customer who writes short and casual. */
export function briefInformalEdits(p: SampleProduct): TMessageExample[] {
  const { name } = nameAndWhat(p);
  const kw = p.labels.product_keywords[0]!;
  const cta = p.call_to_action.replace(/\.$/, '');
  return [
    `hey, saw your post about ${kw}. tbh ${name} might help: ${cta}`,
    `Hey! Saw you're stuck on ${kw}. Built a thing for that. ${cta}`,
    `yo, your ${kw} post hit home, been there! ${cta}`,
    `hey, saw your comment on ${kw}. honestly worth a look: ${cta}`,
  ].map(example);
}

/** Saved edits of a customer who writes long and formal. */
export function detailedFormalEdits(p: SampleProduct): TMessageExample[] {
  const { name, what } = nameAndWhat(p);
  const kw = p.labels.product_keywords[1] ?? p.labels.product_keywords[0]!;
  const cta = p.call_to_action.replace(/\.$/, '');
  return [
    `Hello Sarah, I read your post regarding ${kw}. I am the founder of ${name}, ${what}. I believe it may be relevant to your situation. Should it be of interest, ${cta}. Thank you for your time.`,
    `Hello James, I noticed your comment regarding ${kw}. I would like to mention ${name}, which was designed for exactly this situation. By the way, I would be pleased to answer any questions you may have. ${cta}. Kind regards.`,
    `Dear Alex, I came across your question about ${kw}. ${name} provides a considered solution to this problem, and it requires very little setup. I would appreciate your feedback if you decide to try it. ${cta}. Best regards.`,
  ].map(example);
}
