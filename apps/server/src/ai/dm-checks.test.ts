import { describe, expect, it } from 'vitest';
import type { TDmSource } from '@threadreach/contract';
import { COMMENT, POST, PRODUCT } from './ai-test.fixtures';
import type { ProductInput } from './ai.provider';
import {
  checkDm,
  findSpamPhrases,
  mentionsCallToAction,
  readabilityIssues,
  referencesSource,
  softenSpam,
} from './dm-checks';
import { greetingsForStyle } from './patterns/apply-patterns';

describe('DM checks', () => {
  it('finds spam phrases as whole words', () => {
    expect(findSpamPhrases('Act now! This is 100% free, click here.')).toEqual([
      'act now',
      'click here',
      '100% free',
    ]);
    expect(findSpamPhrases('No hurrying, try it when you like.')).toEqual([]);
    expect(findSpamPhrases('Don’t miss out')).toEqual(["don't miss out"]);
  });

  it('softens spam phrases in a call to action, keeping the link', () => {
    const soft = softenSpam('Click here to start your risk-free trial at x.io, limited time!');
    expect(findSpamPhrases(soft)).toEqual([]);
    expect(soft).toContain('x.io');
  });

  it('recognises the call to action apart from case and final punctuation', () => {
    expect(
      mentionsCallToAction(
        'Hi. If it helps, try it free for 14 days at churnpilot.io!',
        PRODUCT.call_to_action,
      ),
    ).toBe(true);
    expect(mentionsCallToAction('Hi. Try it for free at churnpilot.io', PRODUCT.call_to_action)).toBe(false);
  });

  it('counts a quote or a phrase of theirs as a reference, not a word the product also uses', () => {
    expect(referencesSource('Saw your post about a way to track MRR and churn.', POST, PRODUCT)).toBe(true);
    expect(referencesSource('Saw you are "updating a Google Sheet every Monday".', POST, PRODUCT)).toBe(true);
    expect(referencesSource('ChurnPilot shows churn. Try it.', POST, PRODUCT)).toBe(false);
    expect(referencesSource('Sorry about the dunning by hand.', COMMENT, PRODUCT)).toBe(true);
  });

  it('checks every constraint at once', () => {
    const long = `Saw your post about MRR and churn. ${'x'.repeat(400)}`;
    expect(checkDm(long, POST, PRODUCT)).toMatchObject({ withinLimit: false, ok: false });
    expect(
      checkDm(
        'Saw your post about a Google Sheet. Act now: try it free for 14 days at churnpilot.io',
        POST,
        PRODUCT,
      ),
    ).toMatchObject({ spamFree: false, referencesSource: true, hasCallToAction: true, ok: false });
  });
});

describe('readability checks', () => {
  const CHURN: ProductInput = {
    product_description:
      'ChurnPilot tracks why SaaS customers cancel and predicts which accounts are about to churn, with Stripe and HubSpot integrations for small B2B teams.',
    ideal_client_profile: 'Small B2B SaaS teams',
    call_to_action: 'Happy to give you a free trial if you want to try it',
    writing_style: 'friendly, short, no hard sell',
  };
  const TRIED: TDmSource = {
    source_type: 'comment',
    id: 'c1',
    content: 'We tried exit surveys but nobody fills them in.',
    post_title: 'Churn',
    author: 'bob',
    subreddit: 'startups',
    matched_keywords: [],
  };
  const options = { writingStyle: CHURN.writing_style, product: CHURN };

  it('flags the four reported drafts of the old composer', () => {
    // 1. The product clause cut mid-coordination (and "Hello" for a friendly style).
    expect(
      readabilityIssues(
        'Hello jane_doe, I read your post "How do you figure out why customers cancel?" in r/SaaS. I work on ChurnPilot, which tracks why SaaS customers cancel and predicts. Happy to give you a free trial if you want to try it.',
        options,
      ),
    ).toEqual([
      'sentence ends on a verb without its object: "cancel and predicts"',
      'greeting "Hello" does not fit the writing style (Hi or Hey)',
    ]);
    // 2. "Dear" and 4. an invented founder.
    expect(
      readabilityIssues(
        'Dear jane_doe, I came across your post "How do you figure out why customers cancel?" in r/SaaS. I am the founder of ChurnPilot, which tracks why SaaS customers cancel. Happy to give you a free trial if you want to try it.',
        options,
      ),
    ).toEqual([
      'greeting "Dear" does not fit the writing style (Hi or Hey)',
      'claims to be the founder, which the product information does not say',
    ]);
    // 3. A comment named by a verb.
    expect(
      readabilityIssues(
        'Dear bob, I read your comment in r/startups about tried exit surveys. I work on ChurnPilot, which tracks why SaaS customers cancel. Happy to give you a free trial if you want to try it.',
        { ...options, source: TRIED },
      ),
    ).toEqual([
      'reference reads "about <verb>": "about tried"',
      'greeting "Dear" does not fit the writing style (Hi or Hey)',
    ]);
  });

  it('accepts the rewritten drafts and ordinary endings', () => {
    expect(
      readabilityIssues(
        'Hi bob, saw your comment in r/startups about exit surveys. I built ChurnPilot, which tracks why SaaS customers cancel. Happy to give you a free trial if you want to try it.',
        { ...options, source: TRIED },
      ),
    ).toEqual([]);
    for (const ending of [
      'Hope that helps.',
      'It might help with this.',
      'Feel free to check it out.',
      'It shows MRR and churn.',
      'Try it at churnpilot.io.',
      'Saw you wrote "the one I ended up with".',
    ]) {
      expect(readabilityIssues(`Hey Sam, saw your post about failed payments. ${ending}`)).toEqual([]);
    }
  });

  it('finds endings on a conjunction, preposition or determiner, repeated words and invented numbers', () => {
    expect(readabilityIssues('I built a tool for.')).toEqual([
      'sentence ends on a preposition: "a tool for"',
    ]);
    expect(readabilityIssues('It tracks churn and.')).toEqual([
      'sentence ends on a conjunction: "tracks churn and"',
    ]);
    expect(readabilityIssues('It tracks the the churn of your.')).toEqual([
      'sentence ends on a determiner: "churn of your"',
      'repeated word: "the the"',
    ]);
    expect(
      readabilityIssues('Over 500 customers use it, built on 10 years of experience.', { product: CHURN }),
    ).toEqual([
      'claims "500 customers", which the product information does not say',
      'claims "10 years", which the product information does not say',
    ]);
    expect(readabilityIssues('Backed by years of experience.', { product: CHURN })).toEqual([
      'claims "years of experience", which the product information does not say',
    ]);
    // What the product information says may be repeated.
    expect(
      readabilityIssues('It is free for your first 3 clients.', {
        product: { ...CHURN, call_to_action: 'Free for your first 3 clients' },
      }),
    ).toEqual([]);
  });

  it('finds a list left without "and", not a lead-in or an appositive', () => {
    expect(readabilityIssues('Collect rent online, track maintenance requests.')).toEqual([
      'list without "and" before its last item: "Collect rent online, track maintenance requests"',
    ]);
    expect(readabilityIssues('It shows MRR, churn rate, failed payments.')).toEqual([
      'list without "and" before its last item: "churn rate, failed payments"',
    ]);
    for (const fine of [
      'Collect rent online and track maintenance requests.',
      'If it helps, try it free for 14 days.',
      'Wayfarer is free, grab it at wayfarer.travel.',
      'I built PennyPlan, a budgeting app for couples.',
      'It shows MRR, churn rate and failed payments.',
    ]) {
      expect(readabilityIssues(fine), fine).toEqual([]);
    }
  });

  it('lets the writing style choose the greeting: "Dear" only when it says formal', () => {
    expect(greetingsForStyle('friendly, short, no hard sell')).toEqual(['Hi', 'Hey']);
    expect(greetingsForStyle('Casual and helpful, short sentences.')).toEqual(['Hey', 'Hi']);
    expect(greetingsForStyle('Professional, clear and to the point.')).toEqual(['Hello']);
    expect(greetingsForStyle('Warm and professional.')).toEqual(['Hi', 'Hello']);
    expect(greetingsForStyle('Formal and polite.')).toEqual(['Hello', 'Dear']);
    expect(greetingsForStyle('Informal.')).toEqual(['Hey', 'Hi']);
  });
});
