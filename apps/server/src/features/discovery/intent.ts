import type { TMatchReason } from '@threadreach/contract';

export interface IntentScore {
  score: number;
  reasons: string[];
}

const SIGNALS: { re: RegExp; weight: number; reason: string }[] = [
  {
    re: /\b(looking for|searching for|need|needs|want)\b.{0,40}\b(tool|app|software|service|platform|solution)\b/i,
    weight: 35,
    reason: 'asks for a tool',
  },
  {
    re: /\b(recommend|recommendation|recommendations|suggest|suggestions|any good)\b/i,
    weight: 25,
    reason: 'asks for a recommendation',
  },
  {
    re: /\b(alternative|alternatives|instead of|replace|switch(ing)? from)\b/i,
    weight: 25,
    reason: 'looks for an alternative',
  },
  {
    re: /\b(frustrat\w*|struggl\w*|problem|pain|hate|annoy\w*|tired of|sick of)\b/i,
    weight: 15,
    reason: 'complains about a problem',
  },
  { re: /\?/, weight: 10, reason: 'asks a question' },
];

/** How likely the author wants what the project sells, 0-100, from rules over the text. */
export function scoreIntent(text: { title: string; body: string }, matches: TMatchReason[]): IntentScore {
  const all = `${text.title}\n${text.body}`;
  let score = Math.min(30, matches.length * 10);
  const reasons: string[] = [];
  if (matches.length > 0)
    reasons.push(`mentions ${[...new Set(matches.map((m) => m.keyword))].slice(0, 3).join(', ')}`);
  for (const s of SIGNALS) {
    if (s.re.test(all)) {
      score += s.weight;
      reasons.push(s.reason);
    }
  }
  return { score: Math.max(0, Math.min(100, score)), reasons };
}
