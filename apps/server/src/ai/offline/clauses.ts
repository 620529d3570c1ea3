import { GENERIC_NOUNS, retag } from './keywords';
import { type Token, tokenize } from './nlp';

/*
 * Shortening a text (a product description, a phrase of what someone wrote) without breaking it: only
 * at a clause or phrase boundary, and only where what is left ends on a complete phrase. Uses the
 * wink-nlp tags: a shortening never ends on a conjunction, a preposition, a determiner, an attributive
 * adjective or a verb that lost its object ("tracks why customers cancel and predicts" is refused; the
 * coordinated clause goes entirely: "tracks why customers cancel").
 */

/** Words that open a subordinate part: cutting before them keeps the main part whole. */
const SUBORDINATORS = new Set([
  'which',
  'that',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'while',
  'so',
  'because',
  'then',
  'plus',
  'including',
]);
const RELATIVES = new Set(['which', 'that', 'who', 'whom', 'whose', 'where']);
const POSSESSIVES = new Set(['my', 'your', 'our', 'their', 'his', 'her', 'its']);
/** Adverbs that lean on what follows them: "very", "just". */
const LEANING_ADVERBS = new Set([
  'very',
  'so',
  'too',
  'just',
  'also',
  'even',
  'only',
  'really',
  'then',
  'not',
  'more',
  'most',
  'less',
  'as',
  'how',
  'why',
  'what',
]);
const CLAUSE_PUNCT = new Set([',', ';', ':', '(', '—', '–']);
/** Parts of speech a complete phrase may end on (verbs and adjectives have their own rules). */
const FINAL_POS = new Set(['NOUN', 'PROPN', 'NUM', 'PRON', 'ADV', 'X']);
const NOMINAL = new Set(['NOUN', 'PROPN', 'NUM', 'ADJ']);

type Boundary = 'punct' | 'coord' | 'sub';

const isWord = (t: Token | undefined) => !!t && /[A-Za-z0-9]/.test(t.text);
const isVerb = (t: Token | undefined) => t?.pos === 'VERB';
/** A noun that carries meaning: not "way", "list", "people". */
const specificNoun = (t: Token) => ['NOUN', 'PROPN'].includes(t.pos) && !GENERIC_NOUNS.has(t.lemma);

/** Cutting before token i: is it a boundary, and of which kind. */
function boundaryAt(tokens: Token[], i: number): Boundary | null {
  const t = tokens[i]!;
  const prev = tokens[i - 1];
  if (!prev || prev.sentence !== t.sentence) return null;
  // A hyphen left as a word of its own is a dash ("two-person" is one word).
  if (CLAUSE_PUNCT.has(t.text) || t.text === '-') return 'punct';
  if (t.pos === 'CCONJ') return 'coord';
  if (t.pos === 'ADP' || t.pos === 'SCONJ' || SUBORDINATORS.has(t.lower)) return 'sub';
  if (t.pos === 'PART' && t.lower === 'to') return 'sub';
  return null;
}

/** The previous word token before index i, skipping adverbs when asked. */
function wordBefore(tokens: Token[], i: number, skipAdverbs = false): Token | undefined {
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (!isWord(t)) return undefined;
    if (skipAdverbs && t.pos === 'ADV') continue;
    return t;
  }
  return undefined;
}

/**
 * Does a part that ends with token `j` (cut before `j + 1`, a boundary of kind `kind`) end on a
 * complete phrase?
 */
function endsComplete(tokens: Token[], j: number, kind: Boundary): boolean {
  const last = tokens[j]!;
  const next = tokens[j + 1];
  if (!isWord(last)) return last.text === ')' || last.text === '%';
  const prev = wordBefore(tokens, j);
  const prevSkippingAdverbs = wordBefore(tokens, j, true);
  if (POSSESSIVES.has(last.lower) || RELATIVES.has(last.lower)) return false;
  if (isVerb(last)) {
    // "customers cancel": a verb after its subject can stand alone; "and predicts" cannot, nor can
    // "pay [off debt]", "sells [out]" or "a list sorted [by aisle]".
    const subject = prevSkippingAdverbs;
    if (!subject) return false;
    // "MRR and churn": after a noun and a conjunction, the tagger's verb is a noun.
    if (subject.pos === 'CCONJ') return ['NOUN', 'PROPN'].includes(wordBefore(tokens, j - 1)?.pos ?? '');
    if (kind === 'sub' && next?.pos === 'ADP') return false;
    if (kind === 'sub' && /(ed|en)$/.test(last.lower)) return false;
    if (RELATIVES.has(subject.lower) || subject.pos === 'DET') return false;
    if (
      ['NOUN', 'PROPN'].includes(subject.pos) ||
      (subject.pos === 'PRON' && !POSSESSIVES.has(subject.lower))
    )
      return true;
    // "are about to churn,": the writer closed the clause with a comma.
    return kind === 'punct' && subject.lower === 'to';
  }
  if (last.pos === 'ADJ') {
    // "it is free" (a predicate) ends well; "for small" does not.
    return !!prev && (prev.pos === 'AUX' || prev.pos === 'VERB') && kind !== 'sub';
  }
  if (last.pos === 'ADV' && (LEANING_ADVERBS.has(last.lower) || prev?.pos === 'AUX')) return false;
  if (!FINAL_POS.has(last.pos)) return false;
  // "an app for people", "turns a list [of places]": a vague noun that needed what followed.
  if (
    kind === 'sub' &&
    last.pos === 'NOUN' &&
    GENERIC_NOUNS.has(last.lemma) &&
    (prev?.pos === 'ADP' || prev?.pos === 'DET')
  )
    return false;
  return true;
}

/**
 * "Stripe and HubSpot integrations": the words after the conjunction share a head noun with the word
 * before it, so the conjunction is no place to cut.
 */
function sharesHead(tokens: Token[], i: number): boolean {
  let run = 0;
  const nominal = (t: Token) => isWord(t) && (NOMINAL.has(t.pos) || NOMINAL.has(t.tag));
  for (let k = i + 1; k < tokens.length && nominal(tokens[k]!); k++) run++;
  if (run < 2) return false;
  // "client gallery and proofing software": the kind of product is the shared head.
  if (GENERIC_NOUNS.has(tokens[i + run]!.lemma)) return true;
  const before = tokens[i - 1]!;
  const beforeThat = tokens[i - 2];
  if (before.pos === 'PROPN' || before.pos === 'ADJ') return true;
  return (
    before.pos === 'NOUN' &&
    !before.lower.endsWith('s') &&
    !(beforeThat && ['NOUN', 'ADJ', 'PROPN'].includes(beforeThat.pos))
  );
}

/** Verbs whose object needs its "to ..." too: "converts receipts to PDFs", "turns leads to customers". */
const TO_COMPLETES = new Set(['turn', 'convert', 'transform', 'translate', 'change']);
/** Words that make one preposition with the next: "instead of", "because of", "rather than". */
const COMPOUND_PREPOSITIONS = new Set([
  'instead of',
  'because of',
  'ahead of',
  'out of',
  'regardless of',
  'rather than',
  'such as',
  'due to',
  'thanks to',
  'according to',
  'apart from',
]);

/**
 * Cutting before token i leaves behind what completes a verb of the part kept: "turns invoices [and
 * receipts into tax-ready reports]", "converts contracts[, receipts] to PDFs". The words cut are
 * more of the verb's object (a list, "and ...") followed by "into", or "to" after a verb of changing.
 */
function strandsComplement(tokens: Token[], i: number): boolean {
  const sentence = tokens[i]!.sentence;
  const objectWord = (t: Token) =>
    t.sentence === sentence &&
    (t.text === ',' ||
      t.text === '-' ||
      ['CCONJ', 'DET', 'NOUN', 'PROPN', 'ADJ', 'NUM'].includes(t.pos) ||
      POSSESSIVES.has(t.lower));
  let k = i;
  while (k < tokens.length && objectWord(tokens[k]!)) k++;
  const stop = tokens[k];
  if (!stop || stop.sentence !== sentence) return false;
  if (stop.lower === 'into') return true;
  if (stop.lower !== 'to') return false;
  // The verb whose object runs up to the cut ("converts contracts [and receipts] to ...").
  let v = i - 1;
  while (v >= 0 && objectWord(tokens[v]!)) v--;
  const verb = tokens[v];
  return v < i - 1 && isVerb(verb) && verb!.sentence === sentence && TO_COMPLETES.has(verb!.lemma);
}

/** Quotes and brackets are closed in the part kept. */
function balanced(text: string): boolean {
  const quotes = (text.match(/"/g) ?? []).length;
  return quotes % 2 === 0 && (text.match(/\(/g) ?? []).length === (text.match(/\)/g) ?? []).length;
}

/**
 * A list the cut left open ("shows MRR, churn rate, failed payments") is closed with "and": "shows
 * MRR, churn rate and failed payments"; so are verb phrases ("links to your bank, sorts every
 * transaction" -> "links to your bank and sorts every transaction").
 */
function closeList(text: string, tokens: Token[], end: number, continues: boolean): string {
  const commas: number[] = [];
  let depth = 0;
  for (let k = 0; k <= end; k++) {
    const t = tokens[k]!.text;
    if (t === '(') depth++;
    else if (t === ')') depth = Math.max(0, depth - 1);
    else if (t === ',' && depth === 0 && tokens[k]!.sentence === tokens[end]!.sentence) commas.push(k);
  }
  const c = commas.at(-1);
  if (c === undefined) return text;
  const lastSegment = tokens.slice(c + 1, end + 1);
  const previousStart = (commas.at(-2) ?? -1) + 1;
  const previousSegment = tokens.slice(previousStart, c);
  const first = lastSegment[0];
  if (!first || first.pos === 'CCONJ' || previousSegment.length === 0) return text;
  const hasVerb = (ts: Token[]) => ts.some((t) => isVerb(t) || t.pos === 'AUX');
  // "sorts every transaction into envelopes and warns you": the list is closed already.
  const closed = lastSegment.some((t, k) => t.pos === 'CCONJ' && hasVerb(lastSegment.slice(k + 1, k + 2)));
  const verbList = isVerb(first) && hasVerb(tokens.slice(0, c)) && !closed;
  const nounList =
    !hasVerb(lastSegment) &&
    !lastSegment.some((t) => t.pos === 'CCONJ') &&
    lastSegment.length <= 4 &&
    (continues || ['NOUN', 'PROPN'].includes(previousSegment.at(-1)!.pos));
  if (!verbList && !nounList) return text;
  const comma = tokens[c]!;
  return `${text.slice(0, comma.offset)} and${text.slice(comma.offset + 1)}`;
}

const cache = new Map<string, string[]>();

/**
 * Every clean shortening of a text, longest first, the whole text (without its final full stop)
 * included. Deterministic; cached per text.
 */
export function cleanShortenings(text: string): string[] {
  const whole = text.trim().replace(/[.!]+$/, '');
  const hit = cache.get(whole);
  if (hit) return hit;
  const tokens = retag(tokenize(whole));
  const out = new Set<string>([whole]);
  const words = (n: number) => tokens.slice(0, n).filter((t) => isWord(t)).length;
  for (let i = tokens.length - 1; i > 0; i--) {
    if (tokens[i]!.sentence !== tokens[i - 1]!.sentence) {
      // Whole sentences.
      out.add(whole.slice(0, tokens[i]!.offset).trim());
      continue;
    }
    const kind = boundaryAt(tokens, i);
    if (!kind) continue;
    // "turn tracked hours [into a branded invoice]": "into" is never optional, nor is what leads to
    // it ("turns invoices [and receipts into ...]").
    if (tokens[i]!.lower === 'into' || strandsComplement(tokens, i)) continue;
    // "an hour instead [of a week]": half of a two-word preposition.
    if (COMPOUND_PREPOSITIONS.has(`${tokens[i - 1]!.lower} ${tokens[i]!.lower}`)) continue;
    if (kind === 'coord' && sharesHead(tokens, i)) continue;
    // "LinkedIn, Instagram and TikTok posts": names in a list share what follows them.
    if (kind === 'punct' && tokens[i - 1]!.pos === 'PROPN' && tokens[i + 1]?.pos === 'PROPN') continue;
    // Cut before the boundary, and before a comma just ahead of it (", and ...").
    let j = i - 1;
    while (j >= 0 && CLAUSE_PUNCT.has(tokens[j]!.text)) j--;
    if (j < 0 || words(j + 1) < 2) continue;
    if (!tokens.slice(0, j + 1).some(specificNoun)) continue;
    if (!endsComplete(tokens, j, kind)) continue;
    const last = tokens[j]!;
    const cut = whole.slice(0, last.offset + last.text.length).trim();
    if (!balanced(cut)) continue;
    // The list went on after the cut: "recall, crate training [and reactivity]".
    const continues = kind === 'coord' || tokens[i + 1]?.pos === 'CCONJ';
    out.add(closeList(cut, tokens, j, continues));
  }
  const result = [...out].sort((a, b) => b.length - a.length);
  if (cache.size > 2000) cache.clear();
  cache.set(whole, result);
  return result;
}

/** The longest clean shortening of a text within `max` characters, or null when none is that short. */
export function clauseCut(text: string, max: number): string | null {
  const whole = text.trim();
  if (whole.length <= max) return whole;
  return cleanShortenings(whole).find((s) => s.length <= max) ?? null;
}
