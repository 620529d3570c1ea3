import {
  LEARNING_MIN_EXAMPLES,
  TRANSITION_PHRASES_MAX,
  type TEnthusiasmLevel,
  type TLearningPatterns,
  type TMessageExample,
  type TSentencePosition,
  type TSentenceType,
  type TTone,
} from '@threadreach/contract';
import { AiError } from '../ai.provider';
import {
  brevityOf,
  enthusiasmLevel,
  enthusiasmScore,
  formalityScore,
  mean,
  median,
  round2,
  splitSentences,
  stdDev,
  words,
} from './text-metrics';

const GREETING = /^(hey|hi|hello|dear|good (morning|afternoon|evening)|greetings|yo|howdy)\b/i;
const REFERENCE =
  /\b(your (post|comment|question|thread|profile|bio)|you (mentioned|wrote|said|asked|posted)|saw (your|that you)|read your|noticed (you|your)|came across your)\b/i;
const CALL_TO_ACTION =
  /(https?:\/\/|\b[a-z0-9-]+\.(com|io|app|co|net|org|dev|ai)\b|\b(try|check out|sign up|book|grab|download|install|start free|free trial|let me know|dm me|message me|happy to (send|share|show|help)|want (a|the) link|take a look|have a look)\b)/i;
const OFFER =
  /\b(i (built|made|created|run|work on|developed|launched)|we (built|make|made|created|run)|my (tool|app|product|startup|company)|our (tool|app|product))\b/i;
const SIGN_OFF =
  /^(cheers|best|thanks|thank you|regards|kind regards|best regards|good luck|take care|all the best)\b/i;

/**
 * A sign-off ("Cheers", "Thanks, Sam", "Best regards"): it closes a message, so it is never learned
 * or used as a transition ("Cheers, I built ...").
 */
export function isSignOff(phrase: string): boolean {
  return SIGN_OFF.test(phrase.trim()) && words(phrase).length <= 6;
}

/** The part a sentence plays in a DM; an opening greeting with a reference counts as both. */
export function classifySentence(sentence: string): TSentenceType[] {
  const types: TSentenceType[] = [];
  const short = words(sentence).length <= 4;
  if (GREETING.test(sentence)) types.push('greeting');
  if (short && GREETING.test(sentence)) return types;
  if (isSignOff(sentence)) return [...types, 'sign_off'];
  if (REFERENCE.test(sentence)) types.push('reference');
  if (CALL_TO_ACTION.test(sentence)) types.push('call_to_action');
  else if (OFFER.test(sentence)) types.push('offer');
  else if (sentence.trim().endsWith('?')) types.push('question');
  if (types.length === 0 || (types.length === 1 && types[0] === 'greeting')) types.push('statement');
  return types;
}

/** A name signing a message, on its own line after the sign-off: "Sam", "- Sam", "Sam K." */
const SIGNATURE = /^[-–—~]?\s*[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}[.!]?$/;

/**
 * A message's sentences, with a sign-off written on lines of its own ("Cheers,\nSam") as one: the
 * sign-off that closes it, not "Cheers," in the body and "Sam" as a closing statement.
 */
function sentencesOf(message: string): string[] {
  const sentences = splitSentences(message);
  const [signOff, name] = sentences.slice(-2);
  if (sentences.length < 3 || !signOff || !name || !SIGNATURE.test(name)) return sentences;
  const joined = `${signOff} ${name}`;
  return isSignOff(signOff) && isSignOff(joined) ? [...sentences.slice(0, -2), joined] : sentences;
}

/**
 * The sign-off the customer closes more than half of their messages with ("Cheers, Sam"), as they
 * last wrote it; null when they close differently or not at all.
 */
function usualSignOff(sentenceLists: string[][]): string | null {
  const counts = new Map<string, { text: string; n: number }>();
  for (const sentences of sentenceLists) {
    const last = sentences.at(-1);
    if (sentences.length < 2 || !last || !isSignOff(last)) continue;
    const key = last.toLowerCase().replace(/[.!]+$/, '');
    counts.set(key, { text: last, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  const usual = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  return usual && usual.n * 2 > sentenceLists.length ? usual.text : null;
}

/** The description of a learned closing sign-off: the customer's own words when they have one. */
export function signOffDescription(text: string): string {
  return `${POSITION_TEXT.closing} the sign-off "${text}"`;
}

/** The sign-off a learned "closing: sign_off" pattern names ("Cheers, Sam"), or null. */
export function signOffOf(description: string): string | null {
  const text = /^Closes with the sign-off "(.+)"$/.exec(description)?.[1];
  return text && isSignOff(text) ? text : null;
}

function positionOf(index: number, count: number): TSentencePosition {
  if (index === 0) return 'opening';
  return index === count - 1 ? 'closing' : 'body';
}

const POSITION_TEXT: Record<TSentencePosition, string> = {
  opening: 'Opens with',
  body: 'In the body,',
  closing: 'Closes with',
};
const TYPE_TEXT: Record<TSentenceType, string> = {
  greeting: 'a greeting',
  reference: 'a reference to what the person wrote',
  question: 'a question',
  offer: 'a mention of the product',
  call_to_action: 'the call to action',
  sign_off: 'a sign-off',
  statement: 'a plain statement',
};

/**
 * The connective phrases a writer leads a sentence with, the only ones learned as transitions: a
 * lead-in before a comma is as often their own content ("I made Ledgerly, ...", "Last week, ..."),
 * which a draft cannot reuse. These lead into any statement ("By the way, I built ...").
 */
const CONNECTIVES = [
  'by the way',
  'btw',
  'funny enough',
  'funnily enough',
  'for what it’s worth',
  "for what it's worth",
  'fwiw',
  'that said',
  'that being said',
  'having said that',
  'with that said',
  'on that note',
  'speaking of which',
  'full disclosure',
  'side note',
  'on a side note',
  'quick note',
  'heads up',
  'fun fact',
  'for context',
  'in fact',
  'as it happens',
  'to be honest',
  'to be fair',
  'honestly',
  'frankly',
  'tbh',
  'actually',
  'anyway',
  'either way',
  'in any case',
  'also',
  'plus',
  'besides',
  'on top of that',
  'so',
  'incidentally',
  'additionally',
  'however',
  'if it helps',
  'if you are curious',
  "if you're curious",
  'if you’re curious',
];

/** Connectives that only lead a question or follow one ("Quick question: ...", "If so, ..."). */
const QUESTION_CONNECTIVES = ['quick question', 'out of curiosity', 'just curious', 'if so', 'if not'];

const ALL_CONNECTIVES = [...CONNECTIVES, ...QUESTION_CONNECTIVES].sort((a, b) => b.length - a.length);

/** A known connective phrase ("By the way", "also"), in any casing. */
export function isTransition(phrase: string): boolean {
  return ALL_CONNECTIVES.includes(phrase.trim().toLowerCase());
}

/** A connective that can lead into any statement, so a draft may open its pitch with it. */
export function leadsAnyStatement(phrase: string): boolean {
  return CONNECTIVES.includes(phrase.trim().toLowerCase());
}

/**
 * The connective a sentence starts with (after any greeting), as the writer cased it: "By the way"
 * and "Quick question" before a comma, colon or dash or going on, a single word ("Also,") only
 * before a comma or colon: "So I built" starts with no transition.
 */
function transitionOf(sentence: string): string | null {
  const body = sentence.replace(/^(hey|hi|hello|dear)\b[^,]*,\s*/i, '');
  const lower = body.toLowerCase();
  const known = ALL_CONNECTIVES.find(
    (t) =>
      lower.startsWith(t) && (t.includes(' ') ? /^(\s|[,:;–—]|$)/ : /^\s*[,:]/).test(lower.slice(t.length)),
  );
  return known ? body.slice(0, known.length) : null;
}

const capital = (s: string) => (/^[A-Z]/.test(s) ? 1 : 0);

/**
 * The connectives the customer leads sentences with in at least two edits, most used first, each as
 * they write it most often ("by the way" after "Hi Sam," and "By the way" as often: the one that
 * starts a sentence); at most 5.
 */
function usualTransitions(sentenceLists: string[][]): string[] {
  const used = new Map<string, { edits: number; forms: Map<string, number> }>();
  for (const sentences of sentenceLists) {
    const found = sentences.map(transitionOf).filter((t): t is string => t !== null);
    const inEdit = new Set<string>();
    for (const form of found) {
      const key = form.toLowerCase();
      const entry = used.get(key) ?? { edits: 0, forms: new Map<string, number>() };
      entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
      if (!inEdit.has(key)) entry.edits += 1;
      inEdit.add(key);
      used.set(key, entry);
    }
  }
  return [...used.entries()]
    .filter(([, e]) => e.edits >= 2)
    .sort((a, b) => b[1].edits - a[1].edits || a[0].localeCompare(b[0]))
    .slice(0, TRANSITION_PHRASES_MAX)
    .map(
      ([, e]) => [...e.forms.entries()].sort((a, b) => b[1] - a[1] || capital(b[0]) - capital(a[0]))[0]![0],
    );
}

const TONE_CUES: Record<TTone, RegExp> = {
  casual:
    /\b(hey|yeah|cool|awesome|btw|lol|haha|gonna|kinda|stuff|super|pretty|totally|grab|quick)\b|[a-z]['’](m|re|ve|ll|s)\b|n['’]t\b/gi,
  friendly: /\b(thanks|hope|happy|glad|cheers|good luck|no pressure|feel free|hope this helps)\b/gi,
  professional:
    /\b(hello|regards|please|would|could|however|therefore|appreciate|regarding|opportunity|provide|ensure|thank you)\b/gi,
  enthusiastic: /!|\b(love|great|awesome|amazing|excited|fantastic|thrilled|brilliant|stoked)\b/gi,
  empathetic: /\b(sorry|understand|tough|frustrating|struggle|been there|same boat|know how|hard)\b/gi,
};

/**
 * The tone with the most cues. Enthusiastic only when the enthusiasm level is high: both count the
 * same exclamation marks, and a "Hi Sam!" and "Cheers!" around plain sentences are no more than
 * medium enthusiasm, so they do not make the tone enthusiastic either.
 */
function dominantTone(messages: string[], enthusiasm: TEnthusiasmLevel): TTone {
  const totals = (Object.keys(TONE_CUES) as TTone[])
    .filter((tone) => tone !== 'enthusiastic' || enthusiasm === 'high')
    .map((tone) => ({
      tone,
      n: messages.reduce((sum, m) => sum + (m.match(TONE_CUES[tone])?.length ?? 0), 0),
    }));
  totals.sort((a, b) => b.n - a.n);
  return totals[0]!.n > 0 ? totals[0]!.tone : 'friendly';
}

/** More examples and more agreement between them give more confidence: 3 similar ones about 0.5. */
function confidence(sampleSize: number, consistency: number): number {
  const size = sampleSize / (sampleSize + 2);
  return round2(Math.max(0, Math.min(1, size * (0.4 + 0.6 * consistency))));
}

/**
 * Learns structure, style and tone from the customer's saved edits. Pure: the same examples always
 * give the same patterns. Needs at least 3 examples.
 */
export function learnPatterns(examples: Pick<TMessageExample, 'final_message'>[]): TLearningPatterns {
  const messages = examples.map((e) => e.final_message.trim()).filter(Boolean);
  if (messages.length < LEARNING_MIN_EXAMPLES) {
    throw new AiError(
      'not_enough_training_data',
      `Not enough training data: learning needs at least ${LEARNING_MIN_EXAMPLES} saved edits, got ${messages.length}`,
    );
  }
  const n = messages.length;
  const lengths = messages.map((m) => m.length);
  const sentenceLists = messages.map(sentencesOf);
  const sentenceCounts = sentenceLists.map((s) => s.length);

  // Which (position, type) pairs appear, counted once per message.
  const seen = new Map<string, number>();
  for (const sentences of sentenceLists) {
    const pairs = new Set<string>();
    sentences.forEach((s, i) => {
      for (const type of classifySentence(s)) pairs.add(`${positionOf(i, sentences.length)}:${type}`);
    });
    for (const p of pairs) seen.set(p, (seen.get(p) ?? 0) + 1);
  }
  const order: TSentencePosition[] = ['opening', 'body', 'closing'];
  // The sign-off they keep using is said in its pattern's description: drafts close with it.
  const signOff = usualSignOff(sentenceLists);
  const sentencePatterns = [...seen.entries()]
    .map(([key, count]) => {
      const [position, type] = key.split(':') as [TSentencePosition, TSentenceType];
      return {
        position,
        type,
        description:
          signOff && key === 'closing:sign_off'
            ? signOffDescription(signOff)
            : `${POSITION_TEXT[position]} ${TYPE_TEXT[type]}`,
        frequency: round2(count / n),
      };
    })
    .filter((p) => p.frequency >= 0.3)
    .sort((a, b) => order.indexOf(a.position) - order.indexOf(b.position) || b.frequency - a.frequency)
    .slice(0, 10);

  const transitionPhrases = usualTransitions(sentenceLists);

  const preferredLength = Math.round(median(lengths));
  const brevity = brevityOf(preferredLength);
  const brevityAgreement = lengths.filter((l) => brevityOf(l) === brevity).length / n;
  const formality = messages.map(formalityScore);
  const enthusiasm = mean(messages.map(enthusiasmScore));
  const lengthConsistency = 1 - Math.min(1, stdDev(lengths) / Math.max(1, mean(lengths)));

  return {
    structure: {
      preferred_length: Math.min(400, preferredLength),
      avg_sentence_count: Math.round(mean(sentenceCounts) * 10) / 10,
      sentence_patterns: sentencePatterns,
      confidence: confidence(n, lengthConsistency),
      sample_size: n,
    },
    style: {
      brevity_level: brevity,
      transition_phrases: transitionPhrases,
      confidence: confidence(n, brevityAgreement),
      sample_size: n,
    },
    tone: {
      dominant_tone: dominantTone(messages, enthusiasmLevel(enthusiasm)),
      formality_score: round2(mean(formality)),
      enthusiasm_level: enthusiasmLevel(enthusiasm),
      confidence: confidence(n, 1 - Math.min(1, stdDev(formality) * 3)),
      sample_size: n,
    },
  };
}
