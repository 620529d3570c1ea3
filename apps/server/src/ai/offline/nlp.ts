import winkNLP, { type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One word of a text as the offline engine reads it. */
export interface Token {
  text: string;
  lower: string;
  /** Lower-case base form: "payments" -> "payment". */
  lemma: string;
  pos: string;
  /** The tagger's own part of speech, before any fix (`retag` changes `pos` only). */
  tag: string;
  stop: boolean;
  /** word, number, punctuation, url, email, ... */
  kind: string;
  sentence: number;
  /** Where the word starts in the text, in characters. */
  offset: number;
}

/** A run of adjectives and nouns that ends in a noun: "churn analytics tool", "small SaaS teams". */
export interface NounPhrase {
  tokens: Token[];
  /** As written, e.g. "small SaaS teams". */
  text: string;
  /** Lower-case base forms joined by spaces, e.g. "small saas team". */
  key: string;
  sentence: number;
  /** Position of the first token in the text. */
  start: number;
}

let loaded: WinkMethods | undefined;

/** The English model loads once per process (about 100 ms), on first use. */
function nlp(): WinkMethods {
  loaded ??= winkNLP(model);
  return loaded;
}

/** Warms the model so the first operation is not the slow one. */
export function loadNlp(): void {
  nlp();
}

const PLURAL_SAFE = /(ss|us|is|ics|ous|news)$/;

/** Base form of a proper noun the model left alone: "Founders" -> "founder", "Analytics" stays. */
function singular(word: string): string {
  if (word.length <= 3 || PLURAL_SAFE.test(word) || !word.endsWith('s')) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** Words of a text with part of speech and lemma; hyphenated compounds stay one word. */
export function tokenize(text: string): Token[] {
  const w = nlp();
  const doc = w.readDoc(text);
  const its = w.its;
  const out = <T>(f: unknown) => doc.tokens().out(f as ItsFunction<T>) as T[];
  const values = out<string>(its.value);
  const lemmas = out<string>(its.lemma);
  const pos = out<string>(its.pos);
  const stops = out<boolean>(its.stopWordFlag);
  const kinds = out<string>(its.type);
  const spaces = out<string>(its.precedingSpaces);
  const sentenceOf: number[] = [];
  doc.sentences().each((s, i) => {
    for (let k = 0; k < s.tokens().length(); k++) sentenceOf.push(i);
  });

  const tokens: Token[] = [];
  let cursor = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const found = text.indexOf(value, cursor);
    const offset = found >= 0 ? found : cursor;
    cursor = offset + value.length;
    const prev = tokens.at(-1);
    const next = values[i + 1];
    // "two-person", "e-commerce", "follow-up": one word, tagged as its last part.
    if (value === '-' && prev && next && spaces[i] === '' && spaces[i + 1] === '' && prev.kind === 'word') {
      const merged = `${prev.text}-${next}`;
      tokens[tokens.length - 1] = {
        ...prev,
        text: merged,
        lower: merged.toLowerCase(),
        lemma: `${prev.lower}-${lemmas[i + 1]!.toLowerCase()}`,
        pos: pos[i + 1] === 'VERB' ? 'ADJ' : pos[i + 1]!,
        tag: pos[i + 1] === 'VERB' ? 'ADJ' : pos[i + 1]!,
        stop: false,
      };
      const end = text.indexOf(next, cursor);
      if (end >= 0) cursor = end + next.length;
      i++;
      continue;
    }
    const lower = value.toLowerCase();
    let lemma = lemmas[i]!.toLowerCase();
    if (pos[i] === 'PROPN' && value !== value.toUpperCase()) lemma = singular(lemma);
    tokens.push({
      text: value,
      lower,
      lemma,
      pos: pos[i]!,
      tag: pos[i]!,
      stop: stops[i]!,
      kind: kinds[i]!,
      sentence: sentenceOf[i] ?? 0,
      offset,
    });
  }
  return tokens;
}

const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
const HEAD = new Set(['NOUN', 'PROPN']);
/** Words the tagger sometimes calls nouns that never start a useful phrase. */
const NEVER_FIRST = new Set(['one', 'more', 'most', 'other', 'same', 'such', 'own', 'every', 'each']);

/** Words and spelled-out or written numbers ("ten customers", "14 days"). */
const isWord = (t: Token) => t.kind === 'word' || (t.pos === 'NUM' && t.kind === 'number');

/** Maximal adjective/noun runs ending in a noun, up to `maxWords` words, in text order. */
export function nounPhrases(tokens: Token[], maxWords = 4): NounPhrase[] {
  const phrases: NounPhrase[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (!MODIFIER.has(t.pos) || !isWord(t) || t.stop || NEVER_FIRST.has(t.lower)) {
      i++;
      continue;
    }
    let j = i;
    while (
      j + 1 < tokens.length &&
      MODIFIER.has(tokens[j + 1]!.pos) &&
      isWord(tokens[j + 1]!) &&
      tokens[j + 1]!.sentence === t.sentence &&
      !tokens[j + 1]!.stop
    ) {
      j++;
    }
    // End on the last noun of the run.
    let end = j;
    while (end >= i && !HEAD.has(tokens[end]!.pos)) end--;
    if (end >= i) {
      const run = tokens.slice(Math.max(i, end - maxWords + 1), end + 1);
      phrases.push(makePhrase(run, tokens.indexOf(run[0]!)));
    }
    i = j + 1;
  }
  return phrases;
}

export function makePhrase(run: Token[], start: number): NounPhrase {
  return {
    tokens: run,
    text: run.map((t) => t.text).join(' '),
    key: run.map((t) => t.lemma).join(' '),
    sentence: run[0]!.sentence,
    start,
  };
}
