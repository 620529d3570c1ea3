/**
 * Measures of a message that the pattern learner, the DM composer and the quality harness share:
 * the same scorer learns a customer's formality and checks that a draft follows it.
 */

/** Sentences of a message: split after . ! ? and at line breaks. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[A-Za-z0-9]/.test(s));
}

export function words(text: string): string[] {
  return text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
}

const CONTRACTION =
  /\b(i['’]m|i['’]ve|i['’]d|i['’]ll|you['’](re|ve|d|ll)|we['’](re|ve|ll|d)|they['’](re|ve|ll)|(it|that|there|here|what|who|he|she|let)['’]s|\w+n['’]t)\b/gi;

const INFORMAL = new Set([
  'hey',
  'yeah',
  'yep',
  'yup',
  'nope',
  'cool',
  'awesome',
  'btw',
  'lol',
  'haha',
  'gonna',
  'wanna',
  'gotta',
  'kinda',
  'sorta',
  'stuff',
  'super',
  'totally',
  'folks',
  'guys',
  'ok',
  'okay',
  'cheers',
  'tbh',
  'imo',
  'fwiw',
  'dude',
  'pretty',
  'literally',
  'honestly',
  'anyway',
  'thx',
  'grab',
  'handy',
  'quick',
  'shout',
  'ping',
]);

const FORMAL = new Set([
  'dear',
  'hello',
  'regards',
  'sincerely',
  'please',
  'would',
  'could',
  'kindly',
  'however',
  'therefore',
  'furthermore',
  'additionally',
  'assist',
  'appreciate',
  'opportunity',
  'regarding',
  'consider',
  'ensure',
  'provide',
  'provides',
  'thank',
  'certainly',
  'pleased',
  'currently',
  'perhaps',
  'require',
  'requires',
  'welcome',
  'may',
  'solution',
  'designed',
]);

const ENTHUSIASTIC = new Set([
  'love',
  'great',
  'awesome',
  'amazing',
  'excited',
  'glad',
  'happy',
  'fantastic',
  'thrilled',
  'super',
  'wonderful',
  'brilliant',
  'stoked',
]);

const EMOJI = /\p{Extended_Pictographic}/gu;

function count(re: RegExp, text: string): number {
  return text.match(re)?.length ?? 0;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Formality in 0-1: 0 reads like a chat with a friend, 1 like a business letter. Contractions, casual
 * words, exclamation marks and emoji pull down; polite and formal words and longer words pull up.
 */
export function formalityScore(text: string): number {
  const ws = words(text);
  if (ws.length === 0) return 0.5;
  const sentences = Math.max(1, splitSentences(text).length);
  const lower = ws.map((w) => w.toLowerCase());
  const informal =
    count(CONTRACTION, text) +
    lower.filter((w) => INFORMAL.has(w)).length +
    0.7 * count(/!/g, text) +
    count(EMOJI, text) +
    0.5 * splitSentences(text).filter((s) => /^[a-z]/.test(s)).length;
  const formal = lower.filter((w) => FORMAL.has(w)).length;
  const avgWord = ws.reduce((n, w) => n + w.length, 0) / ws.length;
  const raw = (formal - informal) / Math.sqrt(sentences) + (avgWord - 4.6) * 0.8;
  return round2(sigmoid(raw));
}

/** Enthusiasm in 0-1: exclamation marks and enthusiastic words per sentence. */
export function enthusiasmScore(text: string): number {
  const sentences = Math.max(1, splitSentences(text).length);
  const hits =
    count(/!/g, text) +
    words(text).filter((w) => ENTHUSIASTIC.has(w.toLowerCase())).length +
    count(EMOJI, text);
  return round2(Math.min(1, hits / sentences));
}

export function enthusiasmLevel(score: number): 'low' | 'medium' | 'high' {
  return score < 0.25 ? 'low' : score < 0.6 ? 'medium' : 'high';
}

export const ENTHUSIASM_OF_LEVEL = { low: 0.1, medium: 0.4, high: 0.75 } as const;

export type Brevity = 'very_brief' | 'brief' | 'moderate' | 'detailed';

/** Brevity of a message length in characters (a DM has at most 400). */
export function brevityOf(length: number): Brevity {
  return length < 140 ? 'very_brief' : length < 220 ? 'brief' : length < 300 ? 'moderate' : 'detailed';
}

/** Typical length and sentence count of each brevity level, used when nothing was learned. */
export const BREVITY_TARGETS: Record<Brevity, { length: number; sentences: number }> = {
  very_brief: { length: 120, sentences: 2 },
  brief: { length: 190, sentences: 3 },
  moderate: { length: 260, sentences: 4 },
  detailed: { length: 340, sentences: 5 },
};

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

export function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function stdDev(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
}
