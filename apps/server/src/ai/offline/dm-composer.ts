import { DM_MAX_LENGTH, type TDmSource } from '@threadreach/contract';
import type { ProductInput, WriteDmInput } from '../ai.provider';
import { checkDm, readabilityIssues, referencesSource, softenSpam } from '../dm-checks';
import { recipientOf } from '../dm-draft';
import { applyPatterns, targetsFromWritingStyle, type WritingTargets } from '../patterns/apply-patterns';
import { leadsAnyStatement } from '../patterns/learn-patterns';
import { formalityScore, splitSentences } from '../patterns/text-metrics';
import { clauseCut, cleanShortenings } from './clauses';
import { GENERIC_NOUNS, retag } from './keywords';
import { nounPhrases, type Token, tokenize } from './nlp';

/*
 * The offline DM writer: a short, personal message built from what the person wrote, the product,
 * the call to action and the writing targets (the customer's style, moved by learned patterns).
 * Deterministic: every choice is drawn from a generator seeded by the input and the variant.
 *
 * It reads like a person wrote it: the product is shortened only at clause boundaries (clauses.ts),
 * comments and profiles are named by a clean noun phrase of theirs, the greeting and the register
 * follow the writing style and the learned patterns, and it claims nothing the product information
 * does not say (no "I am the founder of ..." unless the description says so).
 */

// ---------------------------------------------------------------------------------------------
// Deterministic choice

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough to pick templates. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Choose = <T>(options: readonly T[]) => T;

// ---------------------------------------------------------------------------------------------
// Register: casual, neutral or formal wording

type Register = 'casual' | 'neutral' | 'formal';

const CONTRACTIONS: [RegExp, string][] = [
  [/\bI am\b/g, "I'm"],
  [/\byou are\b/g, "you're"],
  [/\bYou are\b/g, "You're"],
  [/\bI have (been|built|made|seen|read|found|used|worked)\b/g, "I've $1"],
  [/\bit is\b/g, "it's"],
  [/\bIt is\b/g, "It's"],
  [/\bthat is\b/g, "that's"],
  [/\bdo not\b/g, "don't"],
  [/\bHere is\b/g, "Here's"],
  [/\bI would\b/g, "I'd"],
  [/\bwhat is\b/g, "what's"],
];

/** Casual wording contracts ("I am" -> "I'm"); the templates are written out in full. */
function contract(text: string): string {
  return CONTRACTIONS.reduce((t, [re, to]) => t.replace(re, to), text);
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Lower-cases a leading ordinary word ("Try", "A"), never a name ("RentDesk", "I", "MRR"). */
const lowerFirst = (s: string) =>
  /^[A-Z][a-z]*(?![A-Za-z0-9])/.test(s) && !/^I\b/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;

function finish(sentence: string, mark = '.'): string {
  const s = sentence.trim().replace(/[,;:]+$/, '');
  if (/[.!?]["”]$/.test(s)) return s;
  if (/[.!?]$/.test(s)) return mark === '!' && s.endsWith('.') ? `${s.slice(0, -1)}!` : s;
  return `${s}${mark}`;
}

/**
 * The last resort for the 400-character limit: whole sentences first, then a clean shortening, then
 * words. Never reached with a call to action within its 200 characters.
 */
function hardCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const sentences = splitSentences(text);
  let kept = '';
  for (const s of sentences) {
    if (`${kept} ${s}`.trim().length > max) break;
    kept = `${kept} ${s}`.trim();
  }
  if (kept) return kept;
  return clauseCut(text, max) ?? text.slice(0, text.lastIndexOf(' ', max)).replace(/[\s,;:-]+$/, '');
}

// ---------------------------------------------------------------------------------------------
// What the person wrote

interface Reference {
  /**
   * A short phrase from their text, a noun phrase with its article ("a CRM for a two-person SaaS",
   * "exit surveys") or what they asked for ("a way to track MRR"); null when none was found.
   */
  phrase: string | null;
  /** They asked for something (a tool, a recommendation): "looking for ...". */
  asking: boolean;
  /**
   * Their own words to quote: a post's title, or for a comment or profile the noun phrase as they
   * wrote it ("exit surveys" in `you mentioned "exit surveys"`).
   */
  quote: string | null;
  /** For a comment or profile, a short sentence of theirs, quoted when no good phrase was found. */
  sentence: string | null;
  /** No good phrase was found: quoting them reads better. */
  weak: boolean;
  /** The phrase in about 32 characters for very brief messages, still naming something of theirs. */
  brief: string | null;
}

const ASKING =
  /\b(recommend|recommendations?|looking for|is there|are there|any (good )?(tool|app|software|suggestions?)|suggestions|alternatives?|best way|does anyone know|what .*\b(do you|to) use|need (a|an|some)|how do (you|i))\b/i;
const TASK =
  /\b(?:(?:tool|app|software|way|something|service|platform)\s+(?:that\s+(?:can\s+|helps?\s+(?:me\s+|you\s+)?)?|to\s+)|best way to\s+|helps?\s+(?:me\s+)?)([^?.!]+)/i;

const NOT_A_TASK =
  /^(does|do|did|is|are|was|were|has|have|had|will|would|can|could|works?|actually|really|just)$/i;
const EXTENDERS = new Set(['for', 'with', 'without', 'on', 'in', 'to', 'of']);
/** Prepositions that belong to the noun before them wherever it stands: "reminders for", "a nightmare of". */
const NOUN_PREPOSITIONS = new Set(['for', 'of']);
/**
 * Verbs whose object keeps a "with", "to", "on" or "in" after it ("I need a CRM with Stripe sync");
 * after any other verb it belongs to the verb: "lose a whole day to the invoice", "spend hours on".
 */
const HOLDING_VERBS = new Set(['have', 'need', 'want', 'use', 'recommend', 'find', 'know', 'like', 'love']);
/** Words before a noun that only measure it and say nothing with it ("too much time"). */
const MEASURES = new Set(['much', 'more', 'less', 'enough', 'such', 'most', 'least']);
const DETS = new Set(['a', 'an', 'the', 'my', 'our']);
const ARTICLES = new Set(['a', 'an', 'the']);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it']);

const startsSentence = (tokens: Token[], i: number) =>
  i === 0 || tokens[i - 1]!.sentence !== tokens[i]!.sentence;

/**
 * A phrase as it reads in a message to them: "my" becomes "your", and a capital that only opens their
 * sentence is dropped ("Sleep regression" -> "sleep regression"; "Google Docs" and "Mint" stay).
 */
function spanText(tokens: Token[], first: number, span: Token[]): string {
  const lead = span[0]!;
  const ordinary =
    lead.pos === 'DET' ||
    (/^[A-Z][a-z]+$/.test(lead.text) &&
      startsSentence(tokens, first) &&
      (lead.pos !== 'PROPN' || (span.length > 1 && span[1]!.pos !== 'PROPN')));
  return span
    .map((t, i) => (i === 0 && ordinary ? t.text.toLowerCase() : t.text))
    .join(' ')
    .replace(/ ([,.!?])/g, '$1')
    .replace(/ - /g, '-')
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bour\b/gi, 'your');
}

/** Words that say nothing about what a person wrote ("this thread", "a big milestone"). */
const VAGUE = new Set([
  'thread',
  'post',
  'comment',
  'question',
  'edit',
  'milestone',
  'reply',
  'sidebar',
  'wiki',
  'way',
]);

interface Span {
  start: number;
  end: number;
  words: Token[];
}

/**
 * A verb the tagger read as an adjective opens the span: "We tried exit surveys" -> "exit surveys",
 * "Tried exit surveys, nobody ..." too; "Failed payments doubled" keeps "failed".
 */
function withoutLeadingVerb(tokens: Token[], span: Span): Span {
  let { start } = span;
  while (start < span.end - 1) {
    const t = tokens[start]!;
    if (t.tag !== 'VERB' || t.lower.endsWith('ing')) break;
    const prev = tokens[start - 1];
    const after = tokens[span.end];
    const afterSubject = !!prev && SUBJECT_PRONOUNS.has(prev.lower);
    const openingVerb = startsSentence(tokens, start) && !(after && after.pos === 'VERB');
    if (!afterSubject && !openingVerb) break;
    start++;
  }
  return { start, end: span.end, words: span.words.slice(start - span.start) };
}

interface KeyPhrase {
  /** As it reads in the message: "your failed payments". */
  phrase: string;
  /** As they wrote it, to quote: "failed payments", "a huge monthly fee" (never with "my" or "our"). */
  words: string;
  score: number;
}

/**
 * The noun phrase that best says what the text is about ("a running plan for a half marathon"), with
 * its article and at most one "for ..." tail, and how good it is: specific words and the person's
 * matched keywords count, vague words and imperatives ("Talk to ...") do not.
 */
function keyPhrase(text: string, keywords: string[], productWords: Set<string>): KeyPhrase | null {
  const tokens = retag(tokenize(text));
  const phrases = nounPhrases(tokens, 3);
  if (phrases.length === 0) return null;
  const kw = new Set(keywords.flatMap((k) => k.toLowerCase().split(/\s+/)));
  const spans: Span[] = phrases.map((p) => ({
    start: p.start,
    end: p.start + p.tokens.length,
    words: p.tokens,
  }));
  /**
   * The preposition after the phrase starting at `start` belongs to the phrase: "for" and "of" do,
   * the others only after a subject ("Problems with Stripe ...") or a verb's object that holds them.
   */
  const attaches = (start: number, preposition: string) => {
    if (NOUN_PREPOSITIONS.has(preposition)) return true;
    const sentence = tokens[start]!.sentence;
    for (let i = start - 1; i >= 0 && tokens[i]!.sentence === sentence; i--) {
      if (tokens[i]!.tag === 'VERB') return HOLDING_VERBS.has(tokens[i]!.lemma);
    }
    return true;
  };
  for (const p of phrases) {
    const end = p.start + p.tokens.length;
    const next = tokens[end];
    if (!next || !EXTENDERS.has(next.lower) || !attaches(p.start, next.lower)) continue;
    // "for a two-person SaaS": the preposition, at most an article, then the tail.
    const tail = phrases.find(
      (q) =>
        q.sentence === p.sentence &&
        (q.start === end + 1 || (q.start === end + 2 && DETS.has(tokens[end + 1]!.lower))),
    );
    if (tail && tail.start + tail.tokens.length - p.start <= 9) {
      spans.push({
        start: p.start,
        end: tail.start + tail.tokens.length,
        words: [...p.tokens, ...tail.tokens],
      });
    }
  }
  let best: Span | null = null;
  let bestScore = -Infinity;
  for (const raw of spans) {
    const span = withoutLeadingVerb(tokens, raw);
    const specific = span.words.filter((t) => !GENERIC_NOUNS.has(t.lemma) && !VAGUE.has(t.lemma)).length;
    const first = tokens[span.start]!;
    const prev = tokens[span.start - 1];
    const after = tokens[span.start + 1];
    // A capitalised word opening a sentence before "to", "down", "the"... is an imperative: "Talk to".
    const imperative =
      (!prev || prev.sentence !== first.sentence) &&
      !!after &&
      ['ADP', 'DET', 'ADV', 'PART', 'PRON'].includes(after.pos);
    // Words the product description also uses do not show that their text was read.
    const echo = span.words.every((t) => productWords.has(t.lower) || GENERIC_NOUNS.has(t.lemma));
    const score =
      3 * span.words.filter((t) => kw.has(t.lower) || kw.has(t.lemma)).length -
      (echo ? 2 : 0) +
      specific +
      0.5 * (span.words.length - 1) -
      (specific === 0 ? 3 : 0) -
      (imperative ? 3 : 0) -
      0.05 * span.start;
    if (score > bestScore) {
      bestScore = score;
      best = span;
    }
  }
  if (!best) return null;
  const before = (i: number) =>
    i > 0 && tokens[i - 1]!.sentence === tokens[i]!.sentence ? tokens[i - 1]! : undefined;
  // The words the phrase finder leaves out before the noun stay with it: "a whole day", "the third
  // tax audit", "two clients", never "day" or "tax audit" alone.
  let modified = best.start;
  for (let k = 0; k < 2; k++) {
    const t = before(modified);
    if (!t || !['ADJ', 'NUM'].includes(t.tag) || t.pos !== t.tag || MEASURES.has(t.lower)) break;
    modified--;
  }
  let start = modified;
  if (DETS.has(before(start)?.lower ?? '')) start--;
  const phrase = spanText(tokens, start, tokens.slice(start, best.end));
  // Quoted with its article ("a small B2B startup"), never with "my" or "our".
  const quoteStart = start < modified && ARTICLES.has(tokens[start]!.lower) ? start : modified;
  const firstWord = tokens[quoteStart]!;
  const lastWord = tokens[best.end - 1]!;
  let words = text.slice(firstWord.offset, lastWord.offset + lastWord.text.length);
  if (
    startsSentence(tokens, quoteStart) &&
    /^[A-Z][a-z]+$/.test(firstWord.text) &&
    (firstWord.pos !== 'PROPN' || tokens[quoteStart + 1]?.pos !== 'PROPN')
  )
    words = words.charAt(0).toLowerCase() + words.slice(1);
  return { phrase: clauseCut(phrase, 70) ?? phrase, words, score: bestScore };
}

const LEADING = new Set([...DETS, 'your', 'every', 'each', 'this', 'that', 'some', 'any']);
/**
 * A phrase that says something by itself has two words or more besides its determiners: "invoice
 * PDFs", "the invoice thing"; a lone keyword ("invoice", "every invoice") reads as a tag, not as
 * what they wrote.
 */
const saysSomething = (phrase: string) =>
  phrase.split(/\s+/).filter((w) => /\w/.test(w) && !LEADING.has(w.toLowerCase())).length >= 2;

function referenceOf(source: TDmSource, product: ProductInput): Reference {
  const productWords = new Set(product.product_description.toLowerCase().match(/[a-z0-9-]+/g) ?? []);
  const title = source.source_type === 'post' ? source.title.trim() : '';
  const main =
    source.source_type === 'post'
      ? title
      : source.source_type === 'comment'
        ? source.content
        : source.bio_content;
  // The sentence that says most: matched keywords first, then asking for something, then substance.
  const sentences = splitSentences(main);
  const kw = source.matched_keywords.map((k) => k.toLowerCase());
  const weight = (s: string) => {
    const n = s.split(/\s+/).length;
    return (
      3 * kw.filter((k) => s.toLowerCase().includes(k)).length +
      (ASKING.test(s) ? 2 : 0) +
      Math.min(n, 12) / 6 -
      (n < 3 ? 3 : 0)
    );
  };
  const focus =
    sentences.map((s, i) => ({ s, i, w: weight(s) })).sort((a, b) => b.w - a.w || a.i - b.i)[0]?.s ?? main;
  const asking = ASKING.test(focus);
  const task = asking ? TASK.exec(focus) : null;
  const quotable = (s: string) => s.length <= 80 && !s.includes('"');
  // A comment or bio: its focus sentence, or a clean first part of it, to quote when nothing better.
  const firstWords = (s: string) => `${s.slice(0, s.lastIndexOf(' ', 70)).replace(/[\s,;:-]+$/, '')}…`;
  const cleanFocus = focus.replace(/[.!]+$/, '');
  const focusQuote = title
    ? null
    : quotable(cleanFocus)
      ? cleanFocus
      : (clauseCut(cleanFocus.replace(/"/g, ''), 80) ?? firstWords(cleanFocus.replace(/"/g, '')));
  // Never a one-word quote ('you wrote "Invoices"').
  const sentence = focusQuote && saysSomething(focusQuote) ? focusQuote : null;
  // A long title is quoted up to a clean boundary.
  const shortTitle = title && !title.includes('"') ? clauseCut(title, 80) : null;
  const titleQuote = title && quotable(title) ? title : shortTitle;
  // "a tool that can track X" -> "a way to track X"; not "a tool that does this".
  const taskText = task?.[1]?.trim() ?? '';
  const taskWords = taskText.split(/\s+/);
  const cleanTask = taskWords.length >= 2 ? clauseCut(taskText.replace(/\bmy\b/gi, 'your'), 60) : null;
  if (cleanTask && cleanTask.split(/\s+/).length >= 2 && !NOT_A_TASK.test(taskWords[0]!)) {
    const phrase = `a way to ${cleanTask}`;
    return {
      phrase,
      asking,
      quote: titleQuote,
      sentence,
      weak: false,
      brief: briefOf(phrase, source, product),
    };
  }
  const found =
    keyPhrase(focus, source.matched_keywords, productWords) ??
    keyPhrase(main, source.matched_keywords, productWords);
  // A lone keyword ("about invoice") is no way to name what they wrote: their title or sentence is,
  // when there is one.
  const lone = found && !saysSomething(found.phrase) && (title ? titleQuote : sentence);
  if (!found || lone) return { phrase: null, asking, quote: titleQuote, sentence, weak: true, brief: null };
  const weak = found.score < 1;
  // Their words, quoted, for a comment or profile: only a phrase that says something by itself.
  const mention =
    !title &&
    !weak &&
    saysSomething(found.words) &&
    !/\b(i|me|my|our|we|us)\b/i.test(found.words) &&
    found.words.length <= 50
      ? found.words
      : null;
  return {
    phrase: found.phrase,
    asking,
    quote: title ? titleQuote : mention,
    sentence,
    weak,
    brief: briefOf(found.phrase, source, product),
  };
}

/**
 * A reference phrase shortened cleanly for a very brief message, keeping something that shows their
 * text was read ("a way to track MRR and churn", not "a way to track MRR" when the product says MRR).
 */
function briefOf(phrase: string, source: TDmSource, product: ProductInput): string {
  const shortenings = cleanShortenings(phrase);
  const named = (max: number) =>
    shortenings.find((s) => s.length <= max && referencesSource(`about ${s}`, source, product));
  return named(32) ?? named(48) ?? phrase;
}

// ---------------------------------------------------------------------------------------------
// Templates. {ref}: the reference phrase, {sub}: subreddit, {quote}: the post title or, for a comment
// or profile, their noun phrase as written ({sentence}: a short sentence of theirs).

type Bank = Record<Register, readonly string[]>;

const POST_ABOUT: Bank = {
  casual: [
    'saw your post in r/{sub} about {ref}',
    'just read your r/{sub} post about {ref}',
    'your post about {ref} in r/{sub} caught my eye',
  ],
  neutral: [
    'I saw your post in r/{sub} about {ref}',
    'I read your r/{sub} post about {ref}',
    'your post about {ref} in r/{sub} caught my attention',
  ],
  formal: ['I read your post in r/{sub} regarding {ref}', 'I came across your post in r/{sub} about {ref}'],
};
const POST_ASKING: Bank = {
  casual: ['saw your r/{sub} post asking about {ref}', 'just saw your question in r/{sub} about {ref}'],
  neutral: ['I saw your post in r/{sub} asking about {ref}', 'I read your question in r/{sub} about {ref}'],
  formal: [
    'I noticed your post in r/{sub} asking about {ref}',
    'I read your question in r/{sub} regarding {ref}',
  ],
};
const POST_QUOTE: Bank = {
  casual: ['saw your post "{quote}" in r/{sub}', 'just read your r/{sub} post "{quote}"'],
  neutral: ['I read your post "{quote}" in r/{sub}', 'I saw your r/{sub} post "{quote}"'],
  formal: ['I came across your post "{quote}" in r/{sub}', 'I read your post "{quote}" in r/{sub}'],
};
const COMMENT: Bank = {
  casual: ['saw your comment in r/{sub} about {ref}', 'your comment about {ref} in r/{sub} stood out'],
  neutral: ['I saw your comment in r/{sub} about {ref}', 'I read your comment about {ref} in r/{sub}'],
  formal: ['I noticed your comment in r/{sub} regarding {ref}', 'I read your comment in r/{sub} about {ref}'],
};
const COMMENT_MENTION: Bank = {
  casual: ['saw you mentioned "{quote}" in r/{sub}', 'your r/{sub} comment about "{quote}" stood out'],
  neutral: ['I saw you mentioned "{quote}" in r/{sub}', 'I read your r/{sub} comment about "{quote}"'],
  formal: [
    'I noticed that you mentioned "{quote}" in r/{sub}',
    'I read your comment in r/{sub} mentioning "{quote}"',
  ],
};
const COMMENT_SENTENCE: Bank = {
  casual: ['saw your comment in r/{sub}: "{sentence}"', 'your r/{sub} comment "{sentence}" stood out'],
  neutral: ['I read your comment in r/{sub}: "{sentence}"', 'I saw your r/{sub} comment "{sentence}"'],
  formal: ['I read your comment in r/{sub}: "{sentence}"', 'I noticed your comment in r/{sub}: "{sentence}"'],
};
const PROFILE: Bank = {
  casual: ['noticed you have been talking about {ref}', 'saw you mentioned {ref}'],
  neutral: ['I noticed you have been posting about {ref}', 'I saw that you mentioned {ref}'],
  formal: [
    'I noticed from your profile that you have written about {ref}',
    'I read your comments about {ref}',
  ],
};
const PROFILE_MENTION: Bank = {
  casual: ['saw you mentioned "{quote}"', 'noticed you brought up "{quote}"'],
  neutral: ['I saw you mentioned "{quote}"', 'I noticed you mentioned "{quote}"'],
  formal: ['I noticed that you mentioned "{quote}"', 'I read your comment mentioning "{quote}"'],
};
const PROFILE_SENTENCE: Bank = {
  casual: ['saw you wrote "{sentence}"', 'noticed you wrote "{sentence}"'],
  neutral: ['I saw you wrote "{sentence}"', 'I noticed you wrote "{sentence}"'],
  formal: ['I noticed you wrote "{sentence}"', 'I read your comment "{sentence}"'],
};
const QUESTION: Bank = {
  casual: [
    'did you ever sort out {ref}? Saw your post in r/{sub}',
    'still looking into {ref}? Saw your r/{sub} post',
  ],
  neutral: ['did you find a good answer on {ref}? I saw your post in r/{sub}'],
  formal: ['have you found a solution regarding {ref}? I read your post in r/{sub}'],
};
/** Nothing of theirs to name (a profile without a bio): where they were found, and no more. */
const FOUND: Bank = {
  casual: ['came across your {place}', 'just came across your {place}'],
  neutral: ['I came across your {place}', 'I found your {place}'],
  formal: ['I came across your {place}', 'I noticed your {place}'],
};
/** Greeting words in the order each register prefers them. */
const GREETING_ORDER: Record<Register, readonly string[]> = {
  casual: ['Hey', 'Hi', 'Hello'],
  neutral: ['Hi', 'Hey', 'Hello'],
  formal: ['Hello', 'Dear', 'Hi'],
};
/**
 * How the customer relates to the product, in words that claim nothing the product information does
 * not say: "I built", "I work on", "we make"; "I am the founder of" only when the description says so.
 */
const MAKER: Record<Register, readonly string[]> = {
  casual: ['I built', 'I made', 'honestly, I built'],
  neutral: ['I built', 'I work on', 'we make'],
  formal: ['I work on', 'I would like to mention'],
};
const FOUNDER_MAKER = 'I am the founder of';
/**
 * The product in a few words, for very brief messages. {product} opens the sentence and may carry
 * what it is ("PennyPlan, a budgeting app, might help."); {name} is its name alone.
 */
const BRIEF_PITCH: Record<Register, readonly string[]> = {
  casual: ['{product} might be handy.', 'Built {name} for this, honestly.'],
  neutral: ['{product} might help.', 'I built {name} for this.'],
  formal: ['{product} may be of help.', 'I work on {name}, which may help.'],
};
/** A sentence between the product and the call to action, for longer messages. */
const BRIDGE: Record<Register, readonly string[]> = {
  casual: ['Might be handy for this.', 'Pretty much made for this.'],
  neutral: ['It might help with this.', 'It was made for exactly this.'],
  formal: ['I believe it may be relevant to your situation.', 'It may be of assistance in your situation.'],
};
const CTA_LEAD: Record<Register, readonly string[]> = {
  casual: ['If you are curious, ', 'No pressure, but ', ''],
  neutral: ['If it helps, ', 'If it is useful, ', ''],
  formal: ['If it would be useful, please ', 'Should it be of interest, please '],
};
const CLOSING: Record<Register, readonly string[]> = {
  casual: ['Good luck with it!', 'Hope it helps!', 'Cheers!'],
  neutral: ['Hope that helps.', 'Good luck either way.'],
  formal: ['Thank you for your time.', 'I would be pleased to answer any questions.', 'Kind regards.'],
};
const IMPERATIVE =
  /^(try|grab|start|book|install|create|plan|set|check|get|sign|download|join|visit|see|take|give|reply|send|use)\b/i;

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
}

// ---------------------------------------------------------------------------------------------
// The product

/** "ChurnPilot is a churn analytics tool ..." -> name and what it is; null parts when it is not said so. */
function productParts(description: string): { name: string | null; what: string; verb: string | null } {
  const first = splitSentences(description)[0] ?? description;
  const named = /^([A-Z][\w.&'-]*(?: [A-Z][\w.&'-]*)?) (?:is|are) (.+?)[.!]?$/.exec(first);
  if (named) return { name: named[1]!, what: named[2]!, verb: null };
  const acting =
    /^([A-Z][\w.&'-]*) (helps|lets|makes|turns|gives|tracks|builds|finds|shows|connects) (.+?)[.!]?$/.exec(
      first,
    );
  if (acting) return { name: acting[1]!, what: acting[3]!, verb: acting[2]! };
  return { name: null, what: first.replace(/[.!]$/, ''), verb: null };
}

/** The description shortened cleanly to `budget` characters, or its shortest clean form when none fits. */
function fit(text: string, budget: number): string {
  return clauseCut(text, budget) ?? cleanShortenings(text).at(-1) ?? text;
}

/** One sentence saying what the product is, in at most `budget` characters for the description part. */
function pitchOf(product: ProductInput, register: Register, maker: string, budget: number): string {
  const { name, what, verb } = productParts(product.product_description);
  if (name && verb) {
    // "tracks why SaaS customers cancel [and predicts ...]": the verb and its object are cut as one.
    const clause = clauseCut(softenSpam(`${verb} ${what}`), budget + verb.length + 1);
    return clause ? `${maker} ${name}, which ${clause}` : `${maker} ${name}`;
  }
  if (name) {
    const short = clauseCut(softenSpam(what), budget);
    return short ? `${maker} ${name}, ${lowerFirst(short)}` : `${maker} ${name}`;
  }
  const short = fit(softenSpam(what), budget);
  if (/^(a|an)\b/i.test(what)) return `${maker} ${lowerFirst(short)}`;
  if (/^(we|i|our|my)\b/i.test(what)) return short;
  return `${register === 'casual' ? "Here's" : 'Here is'} what I built: ${lowerFirst(short)}`;
}

/**
 * The product as a noun for the very brief form, whole ("ChurnPilot, a churn analytics tool") and
 * by name alone.
 */
function productNoun(product: ProductInput, budget: number): { full: string; name: string } {
  const { name, what, verb } = productParts(product.product_description);
  if (name && budget < 25) return { full: name, name };
  if (name) {
    const clause = verb
      ? clauseCut(softenSpam(`${verb} ${what}`), budget + verb.length + 1)
      : clauseCut(softenSpam(what), budget);
    if (!clause) return { full: name, name };
    return { full: verb ? `${name}, which ${clause}` : `${name}, ${lowerFirst(clause)}`, name };
  }
  const short = lowerFirst(fit(softenSpam(what), budget));
  return { full: short, name: short };
}

/** The second sentence of the description, if there is one and it shortens cleanly: the detail. */
function detailOf(product: ProductInput, budget: number): string | null {
  const second = splitSentences(product.product_description)[1];
  if (!second) return null;
  const cut = clauseCut(softenSpam(second), budget);
  return cut && cut.split(/\s+/).length >= 3 ? cut : null;
}

// ---------------------------------------------------------------------------------------------
// Composition

const PITCH_BUDGET = { very_brief: 55, brief: 80, moderate: 120, detailed: 170 } as const;

interface Parts {
  opening: string;
  pitch: string | null;
  detail: string | null;
  cta: string;
  closing: string | null;
}

function render(p: Parts): string {
  return [p.opening, p.pitch, p.detail, p.cta, p.closing].filter(Boolean).join(' ');
}

/** The writing targets of a DM: the product's writing style, moved toward learned patterns. */
export function targetsFor(input: Pick<WriteDmInput, 'product' | 'patterns'>): WritingTargets {
  return applyPatterns(targetsFromWritingStyle(input.product.writing_style), input.patterns);
}

/** Everything about a DM that does not depend on the wording choices. */
interface Context {
  input: WriteDmInput;
  targets: WritingTargets;
  ref: Reference;
  base: number;
  /** Learned transitions that read as transitions ("by the way"), not a piece of an old message. */
  transitions: string[];
  /** The description says the customer founded it: "I am the founder of" is no invention then. */
  founder: boolean;
}

/**
 * The registers a DM may be written in: the targets' formality decides, so a friendly style never
 * reads like a letter ("Dear ..., I am ...") and a formal one never like a chat.
 */
function registersFor(formality: number): Register[] {
  if (formality >= 0.65) return ['formal', 'neutral'];
  if (formality >= 0.4) return ['neutral', 'casual'];
  return ['casual', 'neutral'];
}

type QuoteKind = 'title' | 'mention' | 'sentence';

/** What a quoted opening quotes: a post's title, their noun phrase, or (no good phrase) a sentence. */
function quoteKindOf(source: TDmSource, ref: Reference): QuoteKind | null {
  if (source.source_type === 'post') return ref.quote ? 'title' : null;
  if (ref.quote && !ref.weak) return 'mention';
  return ref.sentence ? 'sentence' : null;
}

/** One wording of the DM: `offset` picks the templates, `register` the word choice, `quote` the opening. */
function compose(ctx: Context, register: Register, offset: number, quote: boolean): string {
  const { input, targets, ref, base } = ctx;
  const { product, source } = input;
  const random = generator(hash32(`${base}:${register}:${offset}`));
  let salt = 0;
  const rotate: Choose = (options) => options[(base + 7919 * ++salt + offset) % options.length]!;
  const excited = targets.enthusiasm >= 0.55;
  const calm = targets.enthusiasm < 0.2;
  const veryBrief = targets.brevity === 'very_brief';

  // Opening: a greeting and what they wrote, as a phrase or quoted.
  const phrase = ref.phrase ?? '';
  const vars = {
    ref: veryBrief ? (ref.brief ?? phrase) : phrase,
    sub: source.source_type === 'profile' ? '' : source.subreddit,
    quote: ref.quote ?? '',
    sentence: ref.sentence ?? '',
    name: recipientOf(source),
    place: source.source_type === 'profile' ? 'profile' : `${source.source_type} in r/${source.subreddit}`,
  };
  const plainBank =
    source.source_type === 'profile'
      ? PROFILE
      : source.source_type === 'comment'
        ? COMMENT
        : targets.openWithQuestion
          ? QUESTION
          : ref.asking
            ? POST_ASKING
            : POST_ABOUT;
  const kind = quoteKindOf(source, ref);
  const quoteBank =
    kind === 'title'
      ? POST_QUOTE
      : kind === 'mention'
        ? source.source_type === 'comment'
          ? COMMENT_MENTION
          : PROFILE_MENTION
        : source.source_type === 'comment'
          ? COMMENT_SENTENCE
          : PROFILE_SENTENCE;
  // Very brief messages leave out where they wrote it.
  const where = (t: string) =>
    veryBrief ? t.replace(/ in r\/\w+/, '').replace(/r\/\w+ (post|comment|question)/, '$1') : t;
  const plainText = ref.phrase ? where(fill(rotate(plainBank[register]), vars)) : null;
  const quoteText = kind ? where(fill(rotate(quoteBank[register]), vars)) : null;
  // Neither a phrase nor a quote (an empty bio): an empty body would leave "Hi harbor96, . I built".
  const foundText = plainText || quoteText ? '' : where(fill(rotate(FOUND[register]), vars));
  // The greeting word fits the style and the patterns ("Hi", "Hey"; "Hello" when formal), and the
  // register among those: "Hey" casual, "Hi" neutral, "Hello" (or "Dear", when allowed) formal.
  // (Targets that went through an LLM prompt and back may lack them.)
  const allowed = targets.greetings?.length ? targets.greetings : ['Hi'];
  const fitting = GREETING_ORDER[register].filter((g) => allowed.includes(g));
  const word = fitting.length ? (register === 'formal' ? rotate(fitting) : fitting[0]!) : allowed[0]!;
  const greeting = !targets.greet
    ? ''
    : excited && word === 'Hey' && random() < 0.5
      ? `Hey ${vars.name}!`
      : `${word} ${vars.name},`;
  const opening = (withGreeting: boolean, quoted: boolean) => {
    const body = finish((quoted && quoteText) || plainText || quoteText || foundText);
    if (!withGreeting || !greeting) return upperFirst(body);
    return greeting.endsWith('!') ? `${greeting} ${upperFirst(body)}` : `${greeting} ${lowerFirst(body)}`;
  };

  // The call to action, verbatim apart from spam phrases, after a soft lead-in when it is an imperative.
  const rawCta = softenSpam(product.call_to_action);
  const leadIn = rotate(CTA_LEAD[register]);
  const lead = IMPERATIVE.test(rawCta) && !veryBrief ? leadIn : '';
  const cta = finish(lead ? `${lead}${lowerFirst(rawCta)}` : upperFirst(rawCta), excited ? '!' : '.');

  const transition = ctx.transitions.length && random() < 0.75 ? rotate(ctx.transitions) : null;
  const withTransition = (s: string) => (transition ? `${upperFirst(transition)}, ${lowerFirst(s)}` : s);
  const closingLine = rotate(CLOSING[register]);
  const closing = calm ? closingLine.replace(/!$/, '.') : closingLine;
  // The customer's own sign-off ("Cheers, Sam") closes every draft, as they write it, in place of ours.
  const ownSignOff = targets.signOffText ?? null;
  const bridge = rotate(BRIDGE[register]);
  const maker = rotate(
    ctx.founder && register === 'formal' ? [...MAKER[register], FOUNDER_MAKER] : MAKER[register],
  );
  const briefPitch = rotate(BRIEF_PITCH[register]);
  // Very brief: the product in a few words, no detail.
  const short = veryBrief || targets.sentences <= 2;

  const build = (budget: number, withGreeting: boolean, quoted: boolean): Parts => {
    if (short) {
      const noun = productNoun(product, budget);
      // "PennyPlan, a budgeting app, might help.": the description closes with a comma.
      const named = fill(briefPitch, {
        product: noun.full.includes(',') ? `${noun.full},` : noun.full,
        name: noun.name,
      });
      return {
        opening: opening(withGreeting, quoted),
        pitch: upperFirst(named),
        detail: null,
        cta,
        closing: ownSignOff,
      };
    }
    return {
      opening: opening(withGreeting, quoted),
      pitch: finish(upperFirst(withTransition(pitchOf(product, register, maker, budget)))),
      detail: null,
      cta,
      closing: ownSignOff,
    };
  };

  // Fit the length target: shorten the product part, then drop the quote, then the greeting.
  const limit = Math.min(DM_MAX_LENGTH, Math.round(targets.length * 1.15));
  let budget: number = PITCH_BUDGET[targets.brevity];
  let quoted = quote && quoteText !== null;
  let parts = build(budget, true, quoted);
  while (render(parts).length > limit && budget > (short ? 10 : 35)) {
    budget -= 15;
    parts = build(budget, true, quoted);
  }
  if (render(parts).length > limit && quoted && plainText && (veryBrief || !ref.weak))
    parts = build(budget, true, (quoted = false));
  if (render(parts).length > limit && veryBrief) parts = build(budget, false, quoted);

  // Add the detail, a bridge and a closing line while the targets leave room.
  const count = () => splitSentences(render(parts)).length;
  const room = (extra: string) => render(parts).length + extra.length + 1 <= limit;
  const detail = detailOf(product, Math.max(60, limit - render(parts).length - 2));
  if (detail && count() < targets.sentences && room(detail)) parts = { ...parts, detail: finish(detail) };
  if (!short && count() < targets.sentences && room(bridge)) {
    parts = { ...parts, detail: parts.detail ? `${parts.detail} ${bridge}` : bridge };
  }
  // (The customer's own sign-off is there already.)
  if (!ownSignOff && (targets.signOff || count() < targets.sentences) && room(closing))
    parts = { ...parts, closing };
  else if (!ownSignOff && targets.signOff) {
    // The patterns sign off: the shortest closing line that still fits.
    const shortest = [...CLOSING[register]].sort((a, b) => a.length - b.length)[0]!;
    if (room(shortest)) parts = { ...parts, closing: calm ? shortest.replace(/!$/, '.') : shortest };
  }

  let text = render(parts);
  if (register === 'casual') text = contract(text);
  // The hard limit: whatever the targets, never more than 400 characters.
  if (text.length > DM_MAX_LENGTH) text = render({ ...parts, detail: null, closing: ownSignOff });
  if (text.length > DM_MAX_LENGTH) text = render({ ...parts, detail: null, closing: null });
  if (text.length > DM_MAX_LENGTH) text = render(build(35, false, false));
  if (text.length > DM_MAX_LENGTH) text = `${opening(false, false)} ${cta}`;
  if (text.length > DM_MAX_LENGTH) text = hardCut(text, DM_MAX_LENGTH);
  return text;
}

/**
 * How far a wording is from the targets, measured as the pattern learner measures messages. A weak
 * phrase ("about Pricing") costs a little: quoting them reads better then.
 */
function distance(text: string, targets: WritingTargets, weakPhrase: boolean): number {
  return (
    (weakPhrase ? 0.15 : 0) +
    Math.abs(text.length - targets.length) / targets.length +
    1.5 * Math.abs(formalityScore(text) - targets.formality) +
    (0.3 * Math.abs(splitSentences(text).length - targets.sentences)) / targets.sentences
  );
}

const WORDINGS_PER_VARIANT = 3;

/**
 * Learned transitions that can open the pitch: connectives that lead into any statement ("By the
 * way, I built ..."), not a sign-off ("cheers" closes the message), a piece of an old message
 * ("i made ledgerly") or one that only leads a question ("Quick question, I built ...").
 */
function usableTransitions(targets: WritingTargets): string[] {
  return targets.transitions.filter(leadsAnyStatement);
}

/**
 * Writes the DM text: several wordings (templates x the registers the targets allow) are composed
 * and, of those that meet every constraint and read cleanly (`readabilityIssues`), the one closest
 * to the writing targets (by default the product's style moved by the learned patterns) wins.
 * Variant n draws from its own templates, and never repeats `previous`.
 * Same input and variant, same text.
 */
export function composeDm(input: WriteDmInput, targets: WritingTargets = targetsFor(input)): string {
  const ref = referenceOf(input.source, input.product);
  const ctx: Context = {
    input,
    targets,
    ref,
    base: hash32(JSON.stringify([input.source, input.product, input.patterns])),
    transitions: usableTransitions(targets),
    founder: /\bfound(er|ed)\b/i.test(input.product.product_description),
  };
  const candidates: { text: string; distance: number }[] = [];
  const quoting = !quoteKindOf(input.source, ref) ? [false] : ref.phrase ? [false, true] : [true];
  for (let k = 0; k < WORDINGS_PER_VARIANT; k++) {
    for (const register of registersFor(targets.formality)) {
      for (const quote of quoting) {
        const text = compose(ctx, register, input.variant * WORDINGS_PER_VARIANT + k, quote);
        if (text === input.previous || candidates.some((c) => c.text === text)) continue;
        candidates.push({ text, distance: distance(text, targets, ref.weak && !quote) });
      }
    }
  }
  // Closest first (a stable sort: ties keep their order); the first that meets everything wins.
  candidates.sort((a, b) => a.distance - b.distance);
  const meets = (text: string) => checkDm(text, input.source, input.product).ok;
  const reads = (text: string) =>
    readabilityIssues(text, { greetings: targets.greetings, product: input.product, source: input.source })
      .length === 0;
  const best =
    candidates.find((c) => meets(c.text) && reads(c.text)) ??
    candidates.find((c) => meets(c.text)) ??
    candidates[0];
  return best?.text ?? compose(ctx, 'neutral', (input.variant + 1) * WORDINGS_PER_VARIANT, false);
}
