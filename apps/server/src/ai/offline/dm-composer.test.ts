import type { TDmSource } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import { BRIEF_INFORMAL, COMMENT, DETAILED_FORMAL, POST, PRODUCT, PROFILE } from '../ai-test.fixtures';
import type { WriteDmInput } from '../ai.provider';
import { checkDm, findSpamPhrases } from '../dm-checks';
import { learnPatterns } from '../patterns/learn-patterns';
import { formalityScore, mean } from '../patterns/text-metrics';
import { composeDm } from './dm-composer';

const input = (source: TDmSource, over: Partial<WriteDmInput> = {}): WriteDmInput => ({
  product: PRODUCT,
  source,
  patterns: null,
  variant: 0,
  previous: null,
  ...over,
});

describe('composeDm', () => {
  it.each([
    ['post', POST, 'track MRR and churn'],
    ['comment', COMMENT, 'failed payments'],
    ['profile', PROFILE, 'cohort retention'],
  ] as const)(
    'answers a %s: names what they wrote, carries the call to action, no spam',
    (_, source, said) => {
      const message = composeDm(input(source));
      expect(message.length).toBeLessThanOrEqual(400);
      expect(message.toLowerCase()).toContain(said.toLowerCase());
      expect(message.toLowerCase()).toContain('try it free for 14 days at churnpilot.io');
      expect(checkDm(message, source, PRODUCT)).toEqual({
        withinLimit: true,
        referencesSource: true,
        hasCallToAction: true,
        spamFree: true,
        ok: true,
      });
    },
  );

  it('is deterministic, and a regeneration differs from the draft it replaces', () => {
    const first = composeDm(input(POST));
    expect(composeDm(input(POST))).toBe(first);
    const second = composeDm(input(POST, { variant: 1, previous: first }));
    expect(second).not.toBe(first);
    expect(composeDm(input(POST, { variant: 1, previous: first }))).toBe(second);
    expect(checkDm(second, POST, PRODUCT).ok).toBe(true);
  });

  it('never exceeds 400 characters, whatever the inputs', () => {
    const long = {
      ...PRODUCT,
      product_description: `ChurnPilot is ${'a very thorough analytics platform, '.repeat(25)}for subscriptions.`,
      call_to_action: `Book a call at churnpilot.io/demo ${'and bring your questions '.repeat(7)}`.slice(
        0,
        200,
      ),
      writing_style: 'Detailed, thorough and formal.',
    };
    const source = { ...POST, title: `Need help with ${'recurring revenue reporting '.repeat(10)}` };
    for (let variant = 0; variant < 5; variant++) {
      const message = composeDm(input(source, { product: long, variant }));
      expect(message.length).toBeLessThanOrEqual(400);
      expect(message.toLowerCase()).toContain(long.call_to_action.trim().toLowerCase().slice(0, 40));
    }
  });

  it('softens spam phrases in the call to action instead of repeating them', () => {
    const product = {
      ...PRODUCT,
      call_to_action: 'Click here for a 100% free, limited time trial at churnpilot.io',
    };
    const message = composeDm(input(POST, { product }));
    expect(findSpamPhrases(message)).toEqual([]);
    expect(message).toContain('churnpilot.io');
  });

  it('writes shorter and less formal with "brief, informal" patterns, longer and more formal with "detailed, formal"', () => {
    const brief = learnPatterns(BRIEF_INFORMAL);
    const formal = learnPatterns(DETAILED_FORMAL);
    const sources = [POST, COMMENT, PROFILE];
    const write = (patterns: WriteDmInput['patterns']) =>
      sources.map((s) => composeDm(input(s, { patterns })));
    const plain = write(null);
    const short = write(brief);
    const long = write(formal);
    const len = (ms: string[]) => mean(ms.map((m) => m.length));
    const form = (ms: string[]) => mean(ms.map(formalityScore));

    expect(len(short)).toBeLessThan(len(plain));
    expect(form(short)).toBeLessThan(form(plain));
    expect(len(long)).toBeGreaterThan(len(plain));
    expect(form(long)).toBeGreaterThan(form(plain));
    // Each message on its own, too, and every one still meets the constraints.
    sources.forEach((source, i) => {
      expect(short[i]!.length).toBeLessThan(plain[i]!.length);
      expect(formalityScore(short[i]!)).toBeLessThan(formalityScore(plain[i]!));
      for (const m of [short[i]!, long[i]!]) expect(checkDm(m, source, PRODUCT).ok).toBe(true);
    });
  });

  it('takes well under a second', () => {
    const started = performance.now();
    for (let variant = 0; variant < 20; variant++) composeDm(input(POST, { variant }));
    expect((performance.now() - started) / 20).toBeLessThan(100);
  });
});
