import { describe, expect, it } from 'vitest';
import { COMMENT, POST, PRODUCT } from './ai-test.fixtures';
import { checkDm, findSpamPhrases, mentionsCallToAction, referencesSource, softenSpam } from './dm-checks';

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
