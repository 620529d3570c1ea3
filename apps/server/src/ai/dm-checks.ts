import { DM_MAX_LENGTH, type TDmSource } from '@threadreach/contract';
import type { ProductInput } from './ai.provider';
import { GENERIC_NOUNS, retag } from './offline/keywords';
import { nounPhrases, type Token, tokenize } from './offline/nlp';
import { greetingsForStyle } from './patterns/apply-patterns';
import { splitSentences } from './patterns/text-metrics';

/**
 * Phrases that make a DM read as spam (and get accounts reported). Neither engine may write them; the
 * LLM's answer is refused when it contains one.
 */
export const SPAM_PHRASES = [
  'act now',
  'limited time',
  'limited-time',
  'click here',
  'click the link',
  'buy now',
  'order now',
  '100% free',
  'risk-free',
  'risk free',
  'guaranteed',
  "don't miss out",
  'dont miss out',
  'once in a lifetime',
  'special promotion',
  'exclusive deal',
  'exclusive offer',
  'dear friend',
  'earn money',
  'make money fast',
  'no obligation',
  'congratulations, you',
  'you have been selected',
  'best price',
  'lowest price',
  'amazing deal',
  'hurry',
  'urgent',
  'double your',
  'increase your sales',
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\%]/g, '\\$&');
/** A phrase as whole words: "hurry" but not "hurrying". */
const phrasePattern = (p: string, flags = '') => new RegExp(`(?<![a-z])${escape(p)}(?![a-z])`, flags);

export function findSpamPhrases(text: string): string[] {
  const lower = text.toLowerCase().replace(/’/g, "'");
  return SPAM_PHRASES.filter((p) => phrasePattern(p).test(lower));
}

/** Neutral words for the spam phrases a customer's own call to action may contain. */
const SOFTER: Record<string, string> = {
  'click here': 'have a look',
  'click the link': 'have a look',
  'buy now': 'take a look',
  'order now': 'take a look',
  '100% free': 'free',
  'risk-free': 'free',
  'risk free': 'free',
  'act now': '',
  'limited time': '',
  'limited-time': '',
  hurry: '',
  urgent: '',
  guaranteed: '',
  'best price': 'a fair price',
  'lowest price': 'a fair price',
};

/** Rewrites spam phrases in text the customer supplied (the call to action), keeping its meaning. */
export function softenSpam(text: string): string {
  let out = text;
  for (const phrase of findSpamPhrases(out)) {
    const replacement = SOFTER[phrase] ?? '';
    out = out.replace(phrasePattern(phrase, 'gi'), replacement);
  }
  return out
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.!?])/g, '$1')
    .trim();
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[.!?]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The call to action is in the message, apart from case and final punctuation. */
export function mentionsCallToAction(message: string, callToAction: string): boolean {
  return norm(message).includes(norm(softenSpam(callToAction)));
}

/** What the person wrote, as one text. */
export function sourceText(source: TDmSource): string {
  switch (source.source_type) {
    case 'post':
      return `${source.title}\n${source.content}`;
    case 'comment':
      return source.content;
    case 'profile':
      return source.bio_content;
  }
}

const wordsOf = (s: string) => s.toLowerCase().match(/[a-z0-9%$']+/g) ?? [];

/**
 * The message names something the person wrote: it quotes four or more of their words in a row, or
 * has a noun phrase of two or more words from their text, or a specific single word from it that the
 * product description does not also contain.
 */
export function referencesSource(message: string, source: TDmSource, product?: ProductInput): boolean {
  const msg = norm(message);
  const text = sourceText(source);
  const msgWords = ` ${wordsOf(message).join(' ')} `;
  const srcWords = wordsOf(text);
  for (let i = 0; i + 4 <= srcWords.length; i++) {
    if (msgWords.includes(` ${srcWords.slice(i, i + 4).join(' ')} `)) return true;
  }
  const productText = norm(product ? `${product.product_description} ${product.call_to_action}` : '');
  for (const p of nounPhrases(retag(tokenize(text)))) {
    // "keyword research tool" counts for "cheaper keyword research tool".
    for (let i = 0; i + 2 <= p.tokens.length; i++) {
      if (
        msg.includes(
          p.tokens
            .slice(i)
            .map((t) => t.lower)
            .join(' '),
        )
      )
        return true;
    }
    const word = p.tokens.at(-1)!;
    const acronym = /^[A-Z0-9]{2,}$/.test(word.text);
    const said = phrasePattern(word.lower).test(msg);
    if ((word.lower.length >= 4 || acronym) && !GENERIC_NOUNS.has(word.lemma) && said) {
      if (!productText.includes(word.lower)) return true;
    }
  }
  return false;
}

export interface DmCheck {
  withinLimit: boolean;
  referencesSource: boolean;
  hasCallToAction: boolean;
  spamFree: boolean;
  /** Every constraint at once. */
  ok: boolean;
}

/** The constraints every DM must meet: at most 400 characters, about them, with the call to action, no spam. */
export function checkDm(message: string, source: TDmSource, product: ProductInput): DmCheck {
  const check = {
    withinLimit: message.length > 0 && message.length <= DM_MAX_LENGTH,
    referencesSource: referencesSource(message, source, product),
    hasCallToAction: mentionsCallToAction(message, product.call_to_action),
    spamFree: findSpamPhrases(message).length === 0,
  };
  return { ...check, ok: Object.values(check).every(Boolean) };
}

// ---------------------------------------------------------------------------------------------
// Readability: what makes a draft read as machine-made even when it meets every constraint

export interface ReadabilityOptions {
  /** Greeting words that fit (the writing targets' `greetings`); checked when given. */
  greetings?: readonly string[];
  /** The customer's writing style: the greetings that fit it, when `greetings` is not given. */
  writingStyle?: string;
  /** The product information: a claim it does not make (founder, years, customer counts) is an issue. */
  product?: ProductInput;
  /** What the person wrote: "we tried exit surveys" shows that "about tried ..." starts with a verb. */
  source?: TDmSource;
}

/** Words after which a verb at the end of a sentence lacks its object: "and predicts.", "which helps.". */
const RELATIVE = new Set(['which', 'who', 'whom', 'whose']);
/** Determiners that can stand alone as pronouns: "It might help with this." */
const STANDALONE_DET = new Set([
  'this',
  'that',
  'these',
  'those',
  'all',
  'both',
  'each',
  'either',
  'neither',
  'some',
  'any',
  'none',
  'one',
  'another',
  'more',
  'much',
  'many',
  'few',
  'less',
]);
const POSSESSIVE = new Set(['my', 'your', 'our', 'their', 'his', 'her', 'its']);
/** A preposition after a verb or its object is a particle: "check it out", "sign up". */
const PARTICLES = new Set([
  'out',
  'up',
  'in',
  'on',
  'off',
  'over',
  'down',
  'back',
  'away',
  'around',
  'through',
]);
const GREETING_WORD = /^(hey|hi|hello|dear|yo|greetings|howdy)\b/i;

const isWordToken = (t: Token) => /[A-Za-z0-9]/.test(t.text);

/** Why a sentence does not end on a complete phrase, or null. */
function badEnding(tokens: Token[]): string | null {
  const words = tokens.filter(isWordToken);
  const last = words.at(-1);
  if (!last || last.kind === 'url' || last.kind === 'email') return null;
  const prev = words.at(-2);
  const quoted = `"${words
    .slice(-3)
    .map((t) => t.text)
    .join(' ')}"`;
  if (last.pos === 'CCONJ' || last.pos === 'SCONJ') return `sentence ends on a conjunction: ${quoted}`;
  if (last.pos === 'ADP') {
    const particle = PARTICLES.has(last.lower) && !!prev && (prev.pos === 'VERB' || prev.pos === 'PRON');
    return particle ? null : `sentence ends on a preposition: ${quoted}`;
  }
  if ((last.pos === 'DET' && !STANDALONE_DET.has(last.lower)) || POSSESSIVE.has(last.lower))
    return `sentence ends on a determiner: ${quoted}`;
  if (last.pos === 'AUX' || (last.pos === 'PART' && last.lower === 'to'))
    return `sentence ends on a word that needs a verb after it: ${quoted}`;
  // "and predicts." lacks its object; "MRR and churn." is a noun the tagger read as a verb.
  const nounsJoined = prev?.pos === 'CCONJ' && ['NOUN', 'PROPN'].includes(words.at(-3)?.pos ?? '');
  if (last.pos === 'VERB' && prev && (prev.pos === 'CCONJ' || RELATIVE.has(prev.lower)) && !nounsJoined) {
    return `sentence ends on a verb without its object: ${quoted}`;
  }
  return null;
}

/** Participles that open a clause rather than a list item: "..., built on ...". */
const PARTICIPLES = new Set(['built', 'made', 'done', 'known', 'written', 'given', 'taken', 'seen', 'found']);

/**
 * A list the sentence leaves open: "Collect rent online, track maintenance requests." or "shows MRR,
 * churn rate, failed payments." (no "and" before the last item). Lead-ins ("If it helps, try ...")
 * and appositives ("ChurnPilot, a churn analytics tool") are not lists.
 */
function unclosedList(tokens: Token[]): string | null {
  const segments: Token[][] = [[]];
  for (const t of tokens) {
    if (t.text === ',') segments.push([]);
    else if (isWordToken(t)) segments.at(-1)!.push(t);
  }
  if (segments.length < 2) return null;
  const last = segments.at(-1)!;
  const prev = segments.at(-2)!;
  if (!last.length || !prev.length || last.some((t) => t.pos === 'CCONJ')) return null;
  // "sorts", "track", "makes"; not "tracking" or a participle that opens a clause ("built on ...").
  const verb = (t: Token | undefined) =>
    t?.pos === 'VERB' && !/(ing|ed)$/.test(t.lower) && !PARTICIPLES.has(t.lower);
  const leadIn =
    (prev.length <= 3 && !verb(prev[0])) ||
    ['SCONJ', 'ADV', 'INTJ'].includes(prev[0]!.pos) ||
    /^(if|when|so)$/i.test(prev[0]!.text);
  const verbList = verb(last[0]) && prev.some(verb) && !leadIn;
  // A bare noun: "churn rate", "failed payments" (no article, no conjunction, ends on a noun).
  const bare = (seg: Token[]) =>
    seg.length <= 3 &&
    ['NOUN', 'PROPN'].includes(seg.at(-1)!.pos) &&
    !seg.some((t) => t.pos === 'AUX' || t.pos === 'DET' || t.pos === 'CCONJ' || t.pos === 'PRON');
  const nounList = segments.length >= 3 && bare(last) && bare(prev);
  if (!verbList && !nounList) return null;
  const words = (ts: Token[]) => ts.map((t) => t.text).join(' ');
  return `list without "and" before its last item: "${words(prev.slice(-3))}, ${words(last.slice(0, 4))}"`;
}

/** Past forms that are verbs, hardly ever adjectives before a noun ("failed payments" is fine). */
const PAST_VERBS = new Set(
  (
    'tried wanted needed started decided thought said asked told got went came took gave looked ' +
    'switched stopped raised bought spent hired quit left ran did had was were been'
  ).split(' '),
);

/** "about tried exit surveys": a reference must name a thing, not start with a verb. */
function verbAfterAbout(tokens: Token[], sourceText: string | null): string | null {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1]!;
    if (!['about', 'regarding'].includes(t.lower)) continue;
    if (next.lower.endsWith('ing') || !(next.tag === 'VERB' || next.tag === 'AUX' || next.tag === 'ADJ'))
      continue;
    const saidAsVerb =
      !!sourceText &&
      new RegExp(`\\b(i|we|you|they|he|she|it)\\s+${escape(next.lower)}\\b`, 'i').test(sourceText);
    if (next.tag === 'AUX' || PAST_VERBS.has(next.lower) || saidAsVerb)
      return `reference reads "${t.text} <verb>": "${t.text} ${next.text}"`;
  }
  return null;
}

/** Claims the product information does not make: being its founder, years, counts of customers. */
function inventedClaims(text: string, product: ProductInput): string[] {
  const known =
    `${product.product_description} ${product.ideal_client_profile} ${product.call_to_action}`.toLowerCase();
  const lower = text.toLowerCase();
  const issues: string[] = [];
  if (/\b(co-?)?founder\b|\bfounded\b/.test(lower) && !/\bfound(er|ed)\b/.test(known))
    issues.push('claims to be the founder, which the product information does not say');
  for (const m of lower.matchAll(
    /\b(?:\d[\d,.]*\+?|many|several|ten|twenty) years?\b|\byears of experience\b|\b(?:\d[\d,.]*k?\+?|hundreds of|thousands of) (?:happy |paying |active )?(?:customers|users|clients|teams|companies|businesses|people)\b/g,
  )) {
    if (!known.includes(m[0])) issues.push(`claims "${m[0]}", which the product information does not say`);
  }
  return issues;
}

/**
 * What reads badly in a draft: a sentence ending on a conjunction, preposition, determiner or a verb
 * without its object ("... and predicts."), a reference that starts with a verb ("about tried exit
 * surveys"), a repeated word, a greeting that does not fit the writing style ("Dear" for a friendly
 * one), and claims the product information does not make. Quoted words are theirs and not checked.
 * Empty when none.
 */
export function readabilityIssues(text: string, options: ReadabilityOptions = {}): string[] {
  const issues: string[] = [];
  const plain = text.replace(/"[^"]*"|“[^”]*”/g, '"Q"');
  for (const sentence of splitSentences(plain)) {
    const tokens = retag(tokenize(sentence));
    const ending = badEnding(tokens);
    if (ending) issues.push(ending);
    const about = verbAfterAbout(tokens, options.source ? sourceText(options.source) : null);
    if (about) issues.push(about);
    const list = unclosedList(tokens);
    if (list) issues.push(list);
  }
  const repeated = /\b([a-z]+)\s+\1\b/i.exec(plain);
  if (repeated) issues.push(`repeated word: "${repeated[0]}"`);

  const greetings =
    options.greetings ?? (options.writingStyle ? greetingsForStyle(options.writingStyle) : null);
  const greeting = GREETING_WORD.exec(text.trim())?.[1];
  if (greetings && greeting) {
    const word = greeting.charAt(0).toUpperCase() + greeting.slice(1).toLowerCase();
    if (!greetings.includes(word))
      issues.push(`greeting "${word}" does not fit the writing style (${greetings.join(' or ')})`);
  }
  if (options.product) issues.push(...inventedClaims(text, options.product));
  return issues;
}
