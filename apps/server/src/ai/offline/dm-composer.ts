import { DM_MAX_LENGTH, type TDmSource } from '@threadreach/contract';
import type { ProductInput, WriteDmInput } from '../ai.provider';
import { softenSpam } from '../dm-checks';
import { recipientOf } from '../dm-draft';
import { applyPatterns, targetsFromWritingStyle, type WritingTargets } from '../patterns/apply-patterns';
import { formalityScore, splitSentences } from '../patterns/text-metrics';
import { GENERIC_NOUNS, retag } from './keywords';
import { nounPhrases, type Token, tokenize } from './nlp';

/*
 * The offline DM writer: a short, personal message built from what the person wrote, the product,
 * the call to action and the writing targets (the customer's style, moved by learned patterns).
 * Deterministic: every choice is drawn from a generator seeded by the input and the variant.
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

/** Cuts at the last clause boundary (or word) that keeps it within `max` characters. */
function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const boundaries = [
    ', ',
    ' that ',
    ' which ',
    ' and ',
    ' so ',
    ' with ',
    ' to ',
    ' in ',
    ' for ',
    ' from ',
  ];
  let best = -1;
  for (const b of boundaries) {
    const i = head.lastIndexOf(b);
    if (i > best && i >= 20) best = i;
  }
  const cut = best > 0 ? text.slice(0, best) : head.slice(0, head.lastIndexOf(' '));
  // Never end on a word that needs what was cut: "without a".
  return cut
    .replace(/(\s+(a|an|the|and|or|to|for|with|without|of|in|on|at|your|my|that|which))+$/i, '')
    .replace(/[\s,;:-]+$/, '');
}

// ---------------------------------------------------------------------------------------------
// What the person wrote

interface Reference {
  /** A short phrase from their text: "a CRM for a two-person SaaS". */
  phrase: string;
  /** They asked for something (a tool, a recommendation): "looking for ...". */
  asking: boolean;
  /** The post title, or for a comment or bio the focus sentence, when short enough to quote. */
  quote: string | null;
  /** No good phrase was found: quoting them reads better. */
  weak: boolean;
}

const ASKING =
  /\b(recommend|recommendations?|looking for|is there|are there|any (good )?(tool|app|software|suggestions?)|suggestions|alternatives?|best way|does anyone know|what .*\b(do you|to) use|need (a|an|some)|how do (you|i))\b/i;
const TASK =
  /\b(?:(?:tool|app|software|way|something|service|platform)\s+(?:that\s+(?:can\s+|helps?\s+(?:me\s+|you\s+)?)?|to\s+)|best way to\s+|helps?\s+(?:me\s+)?)([^?.!]+)/i;

const NOT_A_TASK =
  /^(does|do|did|is|are|was|were|has|have|had|will|would|can|could|works?|actually|really|just)$/i;
const EXTENDERS = new Set(['for', 'with', 'without', 'on', 'in', 'to', 'of']);
const DETS = new Set(['a', 'an', 'the', 'my', 'our']);

/** A sentence-initial capital is not a name: "Sleep regression" -> "sleep regression", "Mint" stays. */
function spanText(tokens: Token[]): string {
  const ordinary = (t: Token) =>
    t.pos === 'DET' || (/^[A-Z][a-z]+$/.test(t.text) && (t.pos !== 'PROPN' || tokens.length > 1));
  return tokens
    .map((t, i) => (i === 0 && ordinary(t) ? t.text.toLowerCase() : t.text))
    .join(' ')
    .replace(/ ([,.!?])/g, '$1')
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
 * The noun phrase that best says what the text is about ("a running plan for a half marathon"), with
 * its article and at most one "for ..." tail, and how good it is: specific words and the person's
 * matched keywords count, vague words and imperatives ("Talk to ...") do not.
 */
function keyPhrase(
  text: string,
  keywords: string[],
  productWords: Set<string>,
): { phrase: string; score: number } | null {
  const tokens = retag(tokenize(text));
  const phrases = nounPhrases(tokens, 3);
  if (phrases.length === 0) return null;
  const kw = new Set(keywords.flatMap((k) => k.toLowerCase().split(/\s+/)));
  const spans: Span[] = phrases.map((p) => ({
    start: p.start,
    end: p.start + p.tokens.length,
    words: p.tokens,
  }));
  for (const p of phrases) {
    const end = p.start + p.tokens.length;
    const next = tokens[end];
    if (!next || !EXTENDERS.has(next.lower)) continue;
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
  for (const span of spans) {
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
  let start = best.start;
  if (start > 0 && DETS.has(tokens[start - 1]!.lower)) start--;
  return { phrase: cutToLength(spanText(tokens.slice(start, best.end)), 70), score: bestScore };
}

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
  const quote = title
    ? quotable(title)
      ? title
      : null
    : quotable(focus)
      ? focus.replace(/[.!]+$/, '')
      : null;
  // "a tool that can track X" -> "a way to track X"; not "a tool that does this".
  const taskText = task?.[1]?.trim() ?? '';
  const taskWords = taskText.split(/\s+/);
  if (taskWords.length >= 2 && !NOT_A_TASK.test(taskWords[0]!)) {
    return {
      phrase: `a way to ${cutToLength(taskText.replace(/\bmy\b/gi, 'your'), 60)}`,
      asking,
      quote,
      weak: false,
    };
  }
  const found =
    keyPhrase(focus, source.matched_keywords, productWords) ??
    keyPhrase(main, source.matched_keywords, productWords);
  if (found) return { phrase: found.phrase, asking, quote, weak: found.score < 1 };
  return { phrase: cutToLength(focus.split(/\s+/).slice(0, 8).join(' '), 60), asking, quote, weak: true };
}

// ---------------------------------------------------------------------------------------------
// Templates. {ref}: the reference phrase, {sub}: subreddit, {quote}: the post title.

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
const COMMENT_QUOTE: Bank = {
  casual: ['saw your comment in r/{sub}: "{quote}"', 'your r/{sub} comment "{quote}" stood out'],
  neutral: ['I read your comment in r/{sub}: "{quote}"', 'I saw your r/{sub} comment "{quote}"'],
  formal: ['I read your comment in r/{sub}: "{quote}"', 'I noticed your comment in r/{sub}: "{quote}"'],
};
const PROFILE: Bank = {
  casual: ['noticed you have been talking about {ref}', 'saw you mentioned {ref}'],
  neutral: ['I noticed you have been posting about {ref}', 'I saw that you mentioned {ref}'],
  formal: [
    'I noticed from your profile that you have written about {ref}',
    'I read your comments about {ref}',
  ],
};
const PROFILE_QUOTE: Bank = {
  casual: ['saw you wrote "{quote}"', 'noticed you wrote "{quote}"'],
  neutral: ['I saw you wrote "{quote}"', 'I noticed you wrote "{quote}"'],
  formal: ['I noticed you wrote "{quote}"', 'I read your comment "{quote}"'],
};
const QUESTION: Bank = {
  casual: [
    'did you ever sort out {ref}? Saw your post in r/{sub}',
    'still looking into {ref}? Saw your r/{sub} post',
  ],
  neutral: ['did you find a good answer on {ref}? I saw your post in r/{sub}'],
  formal: ['have you found a solution regarding {ref}? I read your post in r/{sub}'],
};
const GREETING: Record<Register, readonly string[]> = {
  casual: ['Hey {name},', 'Hey {name}!', 'Hey {name},'],
  neutral: ['Hi {name},', 'Hey {name},'],
  formal: ['Hello {name},', 'Dear {name},'],
};
const MAKER: Record<Register, readonly string[]> = {
  casual: ['I built', 'I made', 'honestly, I built'],
  neutral: ['I built', 'I work on'],
  formal: ['I work on', 'I am the founder of'],
};
/** The product in a few words, for very brief messages. */
const BRIEF_PITCH: Record<Register, readonly string[]> = {
  casual: ['{product} might be handy.', 'Built {product} for this, honestly.'],
  neutral: ['{product} might help.', 'I built {product} for this.'],
  formal: ['{product} may be of help.', 'I work on {product}, which may help.'],
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

/** One sentence saying what the product is, in at most `budget` characters for the description part. */
function pitchOf(product: ProductInput, register: Register, maker: string, budget: number): string {
  const { name, what, verb } = productParts(product.product_description);
  const short = cutToLength(softenSpam(what), budget);
  if (name && verb) return `${maker} ${name}, which ${verb} ${short}`;
  if (name) return `${maker} ${name}, ${lowerFirst(short)}`;
  if (/^(a|an)\b/i.test(what)) return `${maker} ${lowerFirst(short)}`;
  if (/^(we|i|our|my)\b/i.test(what)) return short;
  return `${register === 'casual' ? "Here's" : 'Here is'} what I built: ${lowerFirst(short)}`;
}

/** The product as a noun for the very brief form: "ChurnPilot (a churn analytics tool ...)". */
function productNoun(product: ProductInput, budget: number): string {
  const { name, what, verb } = productParts(product.product_description);
  if (name && budget < 25) return name;
  const short = cutToLength(softenSpam(what), budget);
  if (name && !verb) return `${name}, ${lowerFirst(short)}`;
  if (name) return `${name}, which ${verb} ${short}`;
  return lowerFirst(short);
}

/** The second sentence of the description, if there is one: the detail. */
function detailOf(product: ProductInput, budget: number): string | null {
  const second = splitSentences(product.product_description)[1];
  return second ? cutToLength(softenSpam(second), budget) : null;
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
}

const REGISTERS: Register[] = ['casual', 'neutral', 'formal'];

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
  const vars = {
    ref: veryBrief ? cutToLength(ref.phrase, 32) : ref.phrase,
    sub: source.source_type === 'profile' ? '' : source.subreddit,
    quote: ref.quote ?? ref.phrase,
    name: recipientOf(source),
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
  const quoteBank =
    source.source_type === 'post'
      ? POST_QUOTE
      : source.source_type === 'comment'
        ? COMMENT_QUOTE
        : PROFILE_QUOTE;
  // Very brief messages leave out where they wrote it.
  const where = (t: string) =>
    veryBrief ? t.replace(/ in r\/\w+/, '').replace(/r\/\w+ (post|comment|question)/, '$1') : t;
  const plainText = where(fill(rotate(plainBank[register]), vars));
  const quoteText = ref.quote ? where(fill(rotate(quoteBank[register]), vars)) : null;
  let greeting = targets.greet ? fill(rotate(GREETING[register]), vars) : '';
  if (greeting.endsWith('!') && !excited) greeting = greeting.replace(/!$/, ',');
  const opening = (withGreeting: boolean, quoted: boolean) => {
    const body = finish(quoted && quoteText ? quoteText : plainText);
    if (!withGreeting || !greeting) return upperFirst(body);
    return greeting.endsWith('!') ? `${greeting} ${upperFirst(body)}` : `${greeting} ${lowerFirst(body)}`;
  };

  // The call to action, verbatim apart from spam phrases, after a soft lead-in when it is an imperative.
  const rawCta = softenSpam(product.call_to_action);
  const leadIn = rotate(CTA_LEAD[register]);
  const lead = IMPERATIVE.test(rawCta) && !veryBrief ? leadIn : '';
  const cta = finish(lead ? `${lead}${lowerFirst(rawCta)}` : upperFirst(rawCta), excited ? '!' : '.');

  const transition = targets.transitions.length && random() < 0.75 ? rotate(targets.transitions) : null;
  const withTransition = (s: string) => (transition ? `${upperFirst(transition)}, ${lowerFirst(s)}` : s);
  const closingLine = rotate(CLOSING[register]);
  const closing = calm ? closingLine.replace(/!$/, '.') : closingLine;
  const bridge = rotate(BRIDGE[register]);
  const maker = rotate(MAKER[register]);
  const briefPitch = rotate(BRIEF_PITCH[register]);
  // Very brief: the product in a few words, no detail.
  const short = veryBrief || targets.sentences <= 2;

  const build = (budget: number, withGreeting: boolean, quoted: boolean): Parts => {
    if (short) {
      const named = fill(briefPitch, { product: productNoun(product, budget) });
      return { opening: opening(withGreeting, quoted), pitch: named, detail: null, cta, closing: null };
    }
    return {
      opening: opening(withGreeting, quoted),
      pitch: finish(upperFirst(withTransition(pitchOf(product, register, maker, budget)))),
      detail: null,
      cta,
      closing: null,
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
  if (render(parts).length > limit && quoted && (veryBrief || !ref.weak))
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
  if ((targets.signOff || count() < targets.sentences) && room(closing)) parts = { ...parts, closing };

  let text = render(parts);
  if (register === 'casual') text = contract(text);
  // The hard limit: whatever the targets, never more than 400 characters.
  if (text.length > DM_MAX_LENGTH) text = render({ ...parts, detail: null, closing: null });
  if (text.length > DM_MAX_LENGTH) text = render(build(35, false, false));
  if (text.length > DM_MAX_LENGTH) text = `${opening(false, false)} ${cta}`;
  if (text.length > DM_MAX_LENGTH) text = cutToLength(text, DM_MAX_LENGTH);
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
 * Writes the DM text: several wordings (templates x register) are composed and the one closest to
 * the writing targets (by default the product's style moved by the learned patterns) wins. Variant n
 * draws from its own templates, and never repeats `previous`.
 * Same input and variant, same text.
 */
export function composeDm(input: WriteDmInput, targets: WritingTargets = targetsFor(input)): string {
  const ctx: Context = {
    input,
    targets,
    ref: referenceOf(input.source, input.product),
    base: hash32(JSON.stringify([input.source, input.product, input.patterns])),
  };
  let best: string | null = null;
  let bestDistance = Infinity;
  const quoting = ctx.ref.quote ? [false, true] : [false];
  for (let k = 0; k < WORDINGS_PER_VARIANT; k++) {
    for (const register of REGISTERS) {
      for (const quote of quoting) {
        const text = compose(ctx, register, input.variant * WORDINGS_PER_VARIANT + k, quote);
        if (text === input.previous) continue;
        const d = distance(text, ctx.targets, ctx.ref.weak && !quote);
        if (d < bestDistance) {
          bestDistance = d;
          best = text;
        }
      }
    }
  }
  return best ?? compose(ctx, 'neutral', (input.variant + 1) * WORDINGS_PER_VARIANT, false);
}
