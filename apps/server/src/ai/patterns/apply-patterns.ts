import {
  plural,
  type TBrevityLevel,
  type TLearningPatterns,
  type TSentenceType,
} from '@threadreach/contract';
import { isTransition, signOffOf } from './learn-patterns';
import { BREVITY_TARGETS, brevityOf, ENTHUSIASM_OF_LEVEL, round2 } from './text-metrics';

/** How a DM should read: what the composer aims for and what the LLM prompt asks for. */
export interface WritingTargets {
  /** 0 casual - 1 formal. */
  formality: number;
  /** 0-1. */
  enthusiasm: number;
  /** Characters, at most 400. */
  length: number;
  sentences: number;
  brevity: TBrevityLevel;
  /** Opens with a greeting ("Hey Sam, ..."). */
  greet: boolean;
  /**
   * Greeting words that fit, most fitting first: "Hi"/"Hey" for a casual, friendly or short style,
   * "Hello" for a formal or professional one, "Dear" only when the style says formal.
   */
  greetings: Greeting[];
  /** Opens with a question about what the person wrote rather than a statement. */
  openWithQuestion: boolean;
  /** Ends with a short closing line after the call to action. */
  signOff: boolean;
  /**
   * The customer's own sign-off, learned from the edits that mostly close with it ("Cheers, Sam"):
   * the closing line then, word for word, instead of one of ours. (Older targets may lack it.)
   */
  signOffText?: string | null;
  transitions: string[];
}

const has = (text: string, re: RegExp) => re.test(text.toLowerCase());

export type Greeting = 'Hey' | 'Hi' | 'Hello' | 'Dear';

const SAYS_FORMAL = /\b(formal|very formal)\b/;
const PROFESSIONAL = /\b(professional|polite|respectful|business|corporate)\b/;
const CASUAL =
  /\b(casual|relaxed|informal|chill|laid[- ]back|fun|down to earth|buddy|fellow|like a friend)\b/;
const WARM =
  /\b(friendly|warm|kind|short|brief|concise|cheerful|upbeat|gentle|encouraging|helpful|straightforward|empathetic|plain)\b/;

/** The greeting words that fit a writing style, most fitting first ("Dear" only for a formal one). */
export function greetingsForStyle(style: string): Greeting[] {
  const formal = has(style, SAYS_FORMAL);
  const professional = formal || has(style, PROFESSIONAL);
  const casual = has(style, CASUAL);
  const warm = has(style, WARM);
  if (professional && (casual || warm)) return ['Hi', 'Hello'];
  if (professional) return formal ? ['Hello', 'Dear'] : ['Hello'];
  if (casual) return ['Hey', 'Hi'];
  return ['Hi', 'Hey'];
}

/** Targets read from the customer's own description of their writing style (step 1). */
export function targetsFromWritingStyle(style: string): WritingTargets {
  let formality = 0.5;
  if (has(style, /\b(formal|professional|polite|respectful|business|corporate)\b/)) formality = 0.72;
  if (
    has(
      style,
      /\b(casual|relaxed|informal|chill|laid[- ]back|fun|down to earth|buddy|fellow|like a friend)\b/,
    )
  ) {
    formality = formality > 0.6 ? 0.55 : 0.3;
  }
  if (has(style, /\b(very formal|strictly professional)\b/)) formality = 0.85;

  let brevity: TBrevityLevel = 'moderate';
  if (has(style, /\b(short|brief|concise|to the point|straightforward|one[- ]liner|punchy)\b/))
    brevity = 'brief';
  if (has(style, /\b(very short|very brief|ultra[- ]short)\b/)) brevity = 'very_brief';
  if (has(style, /\b(detailed|thorough|in[- ]depth|long)\b/)) brevity = 'detailed';

  let enthusiasm = 0.3;
  if (has(style, /\b(enthusiastic|upbeat|excited|energetic|cheerful|encouraging|positive)\b/))
    enthusiasm = 0.6;
  if (has(style, /\b(calm|gentle|understated|no hype|no hard sell|low[- ]key|non-judgmental)\b/))
    enthusiasm = 0.15;

  const { length, sentences } = BREVITY_TARGETS[brevity];
  return {
    formality,
    enthusiasm,
    length,
    sentences,
    brevity,
    greet: true,
    greetings: greetingsForStyle(style),
    openWithQuestion: false,
    signOff: brevity === 'detailed' || formality >= 0.7,
    signOffText: null,
    transitions: [],
  };
}

function patternOf(patterns: TLearningPatterns, position: string, type: TSentenceType) {
  return patterns.structure.sentence_patterns.find((p) => p.position === position && p.type === type);
}

function frequency(patterns: TLearningPatterns, position: string, type: TSentenceType): number {
  return patternOf(patterns, position, type)?.frequency ?? 0;
}

/**
 * Moves the targets toward what was learned. Learned values weigh at least half even with little
 * confidence: the customer chose to train the agent, so their edits beat the generic style.
 */
export function applyPatterns(base: WritingTargets, patterns: TLearningPatterns | null): WritingTargets {
  if (!patterns) return base;
  const blend = (from: number, to: number, confidence: number) =>
    from + (0.5 + 0.5 * confidence) * (to - from);
  const { structure, style, tone } = patterns;
  const length = Math.round(blend(base.length, structure.preferred_length, structure.confidence));
  const formality = round2(blend(base.formality, tone.formality_score, tone.confidence));
  // Learned formality moves the greeting too; "Dear" still only when the style allowed it.
  const formalGreetings = base.greetings.filter((g) => g === 'Hello' || g === 'Dear');
  const greetings: Greeting[] =
    formality >= 0.65
      ? formalGreetings.length
        ? formalGreetings
        : ['Hello']
      : formality < 0.4
        ? ['Hey', 'Hi']
        : base.greetings;
  return {
    formality,
    enthusiasm: round2(blend(base.enthusiasm, ENTHUSIASM_OF_LEVEL[tone.enthusiasm_level], tone.confidence)),
    length: Math.min(400, length),
    sentences: Math.max(
      1,
      Math.round(blend(base.sentences, structure.avg_sentence_count, structure.confidence)),
    ),
    brevity: style.confidence >= 0.3 ? style.brevity_level : brevityOf(length),
    greet: frequency(patterns, 'opening', 'greeting') >= 0.5,
    greetings,
    openWithQuestion: frequency(patterns, 'opening', 'question') >= 0.5,
    signOff: frequency(patterns, 'closing', 'sign_off') >= 0.5,
    // The sign-off they used in most edits, named in its pattern ("Cheers, Sam").
    signOffText: signOffOf(patternOf(patterns, 'closing', 'sign_off')?.description ?? ''),
    // Patterns learned before transitions were told apart from sign-offs and content may hold
    // "cheers" or "i made ledgerly": only connectives go into a draft.
    transitions: style.transition_phrases.filter(isTransition),
  };
}

/** The targets in words, for an LLM prompt. */
export function describeTargets(t: WritingTargets): string[] {
  const register =
    t.formality < 0.35
      ? 'casual: contractions, plain words, like a message to a peer'
      : t.formality > 0.65
        ? 'formal and polite: no slang, no contractions'
        : 'friendly and natural, neither stiff nor slangy';
  const energy = t.enthusiasm > 0.55 ? 'upbeat' : t.enthusiasm < 0.2 ? 'calm, no exclamation marks' : 'warm';
  const lines = [
    `About ${t.length} characters and ${plural(t.sentences, 'sentence')} (${t.brevity.replace('_', ' ')}).`,
    `Register: ${register} (formality ${t.formality} on a 0-1 scale).`,
    `Energy: ${energy}.`,
    t.greet
      ? `Open with a short greeting using their username: ${t.greetings.map((g) => `"${g} <username>,"`).join(' or ')}.`
      : 'Do not open with a greeting; start with what they wrote.',
  ];
  if (t.openWithQuestion) lines.push('Open with a question about their situation.');
  if (t.signOffText) lines.push(`End with the customer's own sign-off, word for word: "${t.signOffText}".`);
  else if (t.signOff) lines.push('End with a short sign-off line.');
  if (t.transitions.length)
    lines.push(`Transitions this customer likes: ${t.transitions.map((x) => `"${x}"`).join(', ')}.`);
  return lines;
}
