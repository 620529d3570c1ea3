import type { TKeywordSuggestion } from '@threadreach/contract';
import type { ProductInput } from '../ai.provider';
import { makePhrase, nounPhrases, type NounPhrase, type Token, tokenize } from './nlp';

export const MAX_PRODUCT_KEYWORDS = 8;
export const MAX_ICP_KEYWORDS = 6;
const MIN_KEYWORDS = 4;

/** Nouns too vague to find anyone on their own. */
export const GENERIC_NOUNS = new Set([
  'thing',
  'way',
  'lot',
  'people',
  'person',
  'time',
  'one',
  'everything',
  'something',
  'anyone',
  'someone',
  'anything',
  'tool',
  'app',
  'application',
  'software',
  'platform',
  'product',
  'service',
  'solution',
  'place',
  'day',
  'week',
  'month',
  'year',
  'hour',
  'minute',
  'work',
  'help',
  'click',
  'team',
  'user',
  'customer',
  'client',
  'business',
  'company',
  'account',
  'option',
  'feature',
  'part',
  'end',
  'kind',
  'type',
  'bit',
  'number',
  'set',
  'world',
  'life',
  'start',
  'level',
  'step',
  'idea',
  'problem',
  'question',
  'issue',
  'result',
  'stuff',
  'adult',
  'beginner',
  'owner',
  'extra',
  'fight',
  'care',
  'tap',
  'second',
  'favourite',
  'favorite',
  'budget',
  'list',
  'plan',
  'dashboard',
  'home',
  'food',
]);

/** Leading words that narrow nothing: "small agencies" is searched as "agencies". */
const GENERIC_MODIFIERS = new Set([
  'small',
  'new',
  'simple',
  'easy',
  'best',
  'good',
  'great',
  'other',
  'many',
  'few',
  'more',
  'most',
  'free',
  'whole',
  'real',
  'own',
  'independent',
  'busy',
  'first',
  'next',
  'last',
  'every',
  'such',
  'same',
  'extra',
  'automatic',
  'one-click',
  'shareable',
  'exhausted',
  'professional',
  'single',
  'daily',
  'weekly',
  'entire',
]);

/** Trailing words that name the kind of product rather than what it is about. */
const GENERIC_HEADS = new Set([
  'tool',
  'app',
  'application',
  'software',
  'platform',
  'solution',
  'service',
  'tip',
  'course',
]);

/** People nouns read through "of": "founders of SaaS startups" -> "startup founders". */
const ROLE_NOUNS = new Set([
  'founder',
  'owner',
  'parent',
  'user',
  'fan',
  'manager',
  'member',
  'buyer',
  'seller',
  'teacher',
  'customer',
]);

interface Candidate {
  key: string;
  display: string;
  score: number;
  first: number;
  words: string[];
  /** Times the phrase occurs. */
  count: number;
  /** Has a proper noun or an acronym ("Stripe", "MRR"). */
  specific: boolean;
}

/** Verbs the tagger often reads as nouns ("tracks sets", "students book lessons"). */
const VERB_LIKE = new Set(
  (
    'track screen log book chase waste include bring stop drop sort link share check train struggle pay ' +
    'start turn send get make build help keep let see collect draw upload sell pick run bill sync warn ' +
    'create adjust connect show predict split spend want need grow plan work save find use love hate try'
  )
    .split(' ')
    .flatMap((v) => [v, /(s|sh|ch|x)$/.test(v) ? `${v}es` : `${v}s`])
    .concat(['including', 'miss', 'misses', 'teach', 'teaches']),
);

/** Words before which a verb-like word is a noun: "a bill", "your plan". */
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'your', 'my', 'our', 'their', 'his', 'her', 'its']);

const NOUNISH = new Set(['NOUN', 'PROPN']);
/** Pronouns that are the subject of the verb after them. */
const SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'who']);

/**
 * Fixes the tags that matter for phrases: participles before a noun are adjectives ("failed payments",
 * "paying customers"), a word used as a noun elsewhere in the text is a noun before a noun ("churn
 * rate"), and common verbs are verbs unless an article or adjective precedes them ("a bill").
 */
export function retag(tokens: Token[]): Token[] {
  const nounLemmas = new Set(tokens.filter((t) => NOUNISH.has(t.pos)).map((t) => t.lemma));
  return tokens.map((t, i) => {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const beforeNoun = !!next && NOUNISH.has(next.pos);
    const afterNoun = !!prev && NOUNISH.has(prev.pos);
    const verbLike = VERB_LIKE.has(t.lower);
    if (verbLike && t.pos !== 'VERB' && !(prev && (DETERMINERS.has(prev.lower) || prev.pos === 'ADJ'))) {
      return { ...t, pos: 'VERB' };
    }
    if (t.pos === 'VERB' && beforeNoun && !verbLike) {
      // "failed payments", but "we tried exit surveys": after a subject it stays a verb.
      if (t.lower.endsWith('ed') && !(prev && SUBJECTS.has(prev.lower))) {
        return { ...t, pos: 'ADJ', lemma: t.lower };
      }
      // A gerund names a thing: "budgeting app", "paying customers".
      if (t.lower.endsWith('ing') && !afterNoun) return { ...t, pos: 'NOUN', lemma: t.lower };
      if (nounLemmas.has(t.lemma)) return { ...t, pos: 'NOUN' };
    }
    // "businesses teaching online", "nomads planning trips": after a plural noun, -ing is a verb.
    if (
      t.pos === 'NOUN' &&
      t.lower.endsWith('ing') &&
      prev &&
      NOUNISH.has(prev.pos) &&
      /s$/.test(prev.lower)
    ) {
      return { ...t, pos: 'VERB' };
    }
    return t;
  });
}

/** The product's own name ("ChurnPilot is a ..."): nobody on Reddit asks for it yet. */
function productName(tokens: Token[]): string | null {
  const first = tokens[0];
  const second = tokens[1];
  if (
    first &&
    first.pos === 'PROPN' &&
    second &&
    /^(is|helps|lets|makes|turns|gives|tracks|builds)$/.test(second.lower)
  ) {
    return first.lemma;
  }
  return null;
}

/** Trims generic modifiers and heads; null when nothing specific is left. */
function normalize(phrase: NounPhrase, name: string | null): NounPhrase | null {
  let run = phrase.tokens;
  while (run.length > 1 && (GENERIC_MODIFIERS.has(run[0]!.lower) || run[0]!.pos === 'NUM'))
    run = run.slice(1);
  if (run.length > 1 && (GENERIC_HEADS.has(run.at(-1)!.lemma) || GENERIC_HEADS.has(run.at(-1)!.lower))) {
    run = run.slice(0, -1);
  }
  run = run.filter((t) => t.lemma !== name);
  if (run.length === 0) return null;
  if (run.every((t) => GENERIC_NOUNS.has(t.lemma) || GENERIC_MODIFIERS.has(t.lower) || t.pos === 'NUM'))
    return null;
  if (run.length === 1 && (run[0]!.lower.length < 3 || run[0]!.pos === 'ADJ')) return null;
  if (run.some((t) => !/^[a-z][a-z0-9-]*$/i.test(t.text))) return null;
  return makePhrase(run, phrase.start);
}

function display(phrase: NounPhrase): string {
  return phrase.tokens.map((t) => t.lower).join(' ');
}

/** Candidate keywords of one text, best first. */
export function rankPhrases(text: string): Candidate[] {
  const tokens = retag(tokenize(text));
  const name = productName(tokens);
  const phrases = collectPhrases(tokens);
  const candidates = new Map<string, Candidate>();
  const wordFreq = new Map<string, number>();

  const add = (p: NounPhrase, weight: number) => {
    const n = normalize(p, name);
    if (!n || n.tokens.length > 3 || n.text.length > 40) return;
    const words = n.tokens.map((t) => t.lemma);
    const specific = n.tokens.some((t) => t.pos === 'PROPN' || /[A-Z]{2}/.test(t.text));
    const score =
      weight * (1 + 0.6 * (words.length - 1)) * (n.sentence === 0 ? 1.3 : 1) * (specific ? 1.15 : 1);
    const existing = candidates.get(n.key);
    if (existing) {
      existing.score += score;
      existing.count += weight === 1 ? 1 : 0;
    } else {
      candidates.set(n.key, {
        key: n.key,
        display: display(n),
        score,
        first: n.start,
        words,
        count: weight === 1 ? 1 : 0,
        specific,
      });
    }
  };

  for (const p of phrases) {
    add(p, 1);
    for (const t of new Set(p.tokens.map((t) => t.lemma))) wordFreq.set(t, (wordFreq.get(t) ?? 0) + 1);
  }
  // A noun that recurs across phrases ("churn" in "churn rate" and "churn analytics") is a keyword itself.
  for (const p of phrases) {
    const head = p.tokens.at(-1)!;
    for (const t of p.tokens) {
      if (t === head && p.tokens.length === 1) continue;
      if ((t.pos === 'NOUN' || t.pos === 'PROPN') && (wordFreq.get(t.lemma) ?? 0) >= 2) {
        add(makePhrase([t], p.start), 0.5);
      }
    }
  }

  // A phrase gains from the other phrases that share its words.
  for (const c of candidates.values()) {
    const shared = c.words.reduce((n, w) => n + Math.max(0, (wordFreq.get(w) ?? 0) - 1), 0);
    c.score += 0.25 * shared;
  }
  return [...candidates.values()].sort((a, b) => b.score - a.score || a.first - b.first);
}

/** Noun phrases plus "X of Y" read as "Y X": "founders of bootstrapped startups" -> "startup founders". */
function collectPhrases(tokens: Token[]): NounPhrase[] {
  const phrases = nounPhrases(tokens, 3);
  const extra: NounPhrase[] = [];
  for (let k = 0; k + 1 < phrases.length; k++) {
    const a = phrases[k]!;
    const b = phrases[k + 1]!;
    const between = tokens.slice(a.start + a.tokens.length, b.start);
    if (
      a.tokens.length === 1 &&
      between.length === 1 &&
      between[0]!.lower === 'of' &&
      ROLE_NOUNS.has(a.tokens[0]!.lemma)
    ) {
      const head = b.tokens.at(-1)!;
      if (!GENERIC_NOUNS.has(head.lemma)) {
        extra.push(makePhrase([{ ...head, lower: head.lemma, text: head.lemma }, a.tokens[0]!], a.start));
      }
    }
  }
  return [...phrases, ...extra];
}

function pick(ranked: Candidate[], max: number, taken: Set<string>): string[] {
  const chosen: Candidate[] = [];
  if (ranked.length === 0) return [];
  const floor = ranked[0]!.score * 0.2;
  for (const c of ranked) {
    if (chosen.length >= max) break;
    if (c.score < floor || taken.has(c.key)) continue;
    // A phrase inside a chosen phrase adds nothing unless it recurs on its own.
    const inside = chosen.some((d) => c.words.every((w) => d.words.includes(w)));
    if (inside && c.score < 1.5) continue;
    // A common noun said once ("session", "aisle") is a weak keyword: only to fill a short list.
    if (c.words.length === 1 && !c.specific && c.count < 2 && chosen.length >= MIN_KEYWORDS) continue;
    chosen.push(c);
    taken.add(c.key);
  }
  return chosen.map((c) => c.display);
}

/**
 * Keywords of step 2: noun phrases of the product description (product keywords) and of the ideal
 * client profile (ICP keywords), scored by frequency, length, position and shared words.
 */
export function extractKeywords(product: Pick<ProductInput, 'product_description' | 'ideal_client_profile'>) {
  const taken = new Set<string>();
  const productKeywords = pick(rankPhrases(product.product_description), MAX_PRODUCT_KEYWORDS, taken);
  const icpKeywords = pick(rankPhrases(product.ideal_client_profile), MAX_ICP_KEYWORDS, taken);
  return [
    ...productKeywords.map((keyword): TKeywordSuggestion => ({ keyword, type: 'product' })),
    ...icpKeywords.map((keyword): TKeywordSuggestion => ({ keyword, type: 'icp' })),
  ];
}
