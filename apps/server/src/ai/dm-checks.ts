import { DM_MAX_LENGTH, type TDmSource } from '@threadreach/contract';
import type { ProductInput } from './ai.provider';
import { GENERIC_NOUNS, retag } from './offline/keywords';
import { nounPhrases, tokenize } from './offline/nlp';

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
