import type { TMatchReason } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import { scoreIntent } from './intent';

const inBody = (keyword: string): TMatchReason => ({ keyword, field: 'body', start: 0, end: keyword.length });
const inTitle = (keyword: string): TMatchReason => ({
  keyword,
  field: 'title',
  start: 0,
  end: keyword.length,
});

const score = (title: string, body = '', matches: TMatchReason[] = [inBody('crm')]) =>
  scoreIntent({ title, body }, matches);

describe('scoreIntent', () => {
  it('scores a plain mention low and says which keywords it saw', () => {
    const result = score('Our week', 'We moved our CRM data to a new office server.', [inBody('crm')]);
    expect(result).toEqual({ score: 8, reasons: ['mentions crm'] });
  });

  it.each([
    ['asks for a tool', 'Looking for a simple CRM tool for my agency', ''],
    ['asks for a tool', 'Is there a tool that can track MRR without a spreadsheet', ''],
    ['asks for a tool', 'What CRM do you use for a two-person team', ''],
    ['asks for a tool', 'Does anyone know of an app that sends invoices', ''],
    ['asks for a recommendation', 'Can anyone recommend a CRM', ''],
    ['asks for a recommendation', 'Best way to track leads for a small shop', ''],
    ['looks for an alternative', 'Alternatives to HubSpot', ''],
    ['looks for an alternative', 'Switching away from Salesforce', ''],
    ['complains about a problem', 'Tracking leads', 'I am so tired of updating the spreadsheet by hand.'],
    ['mentions budget or pricing', 'CRM', 'Budget is around $20 a month.'],
    ['asks a question', 'Thoughts on pipelines?', ''],
    ['needs it soon', 'CRM', 'Need to decide asap.'],
  ])('recognises that it %s: "%s"', (reason, title, body) => {
    const plain = score('Our week', 'We moved our CRM data.').score;
    const result = score(title, body);
    expect(result.reasons).toContain(reason);
    expect(result.score).toBeGreaterThan(plain);
  });

  it('ranks a buyer asking for a tool with a budget above a question, above a mention', () => {
    const buyer = score(
      'Can anyone recommend a CRM?',
      'Looking for an alternative to HubSpot, it is too expensive. Budget is $30/month.',
      [inTitle('crm'), inBody('hubspot')],
    );
    const question = score('How do you all organise your pipeline?', 'Curious what works.');
    const mention = score('Our week', 'We moved our CRM data to a new office server.');
    expect(buyer.score).toBeGreaterThan(question.score);
    expect(question.score).toBeGreaterThan(mention.score);
    expect(buyer.score).toBeGreaterThanOrEqual(90);
    expect(buyer.reasons).toEqual([
      'mentions crm, hubspot in the title',
      'asks for a recommendation',
      'looks for an alternative',
      'complains about a problem',
      'mentions budget or pricing',
      'asks a question',
    ]);
  });

  it.each([
    ['self-promotion', 'I built a CRM for freelancers, looking for feedback', 'Any suggestions welcome?'],
    ['self-promotion', 'Launched on Product Hunt today', 'Check out my CRM, recommendations welcome?'],
    ['a hiring post', '[Hiring] CRM developer', 'We are hiring a developer to maintain our CRM. Budget $5k.'],
    ['a hiring post', 'Looking for a freelance developer', 'Need someone who knows CRM tools?'],
    ['already solved', 'Which CRM should I use?', 'Edit: solved, thanks for all the replies!'],
  ])('dampens %s: "%s"', (reason, title, body) => {
    const result = score(title, body);
    expect(result.reasons).toContain(reason);
    expect(result.score).toBeLessThanOrEqual(30);
  });

  it('scores self-promotion below the same words asked by a buyer', () => {
    const seller = score('I built a CRM tool, any recommendations on pricing?', '');
    const buyer = score('Looking for a CRM tool, any recommendations on pricing?', '');
    expect(seller.score).toBeLessThan(buyer.score - 30);
  });

  it('stays within 0-100 and counts each signal once', () => {
    const many = score(
      'Recommend a CRM? Need a CRM tool! Alternatives to X? Looking for software?',
      'Recommend, suggest, alternative, frustrated, hate, $10, $20, budget, asap?'.repeat(20),
      Array.from({ length: 10 }, (_, i) => inTitle(`k${i}`)),
    );
    expect(many.score).toBe(100);
    expect(new Set(many.reasons).size).toBe(many.reasons.length);
    const spam = score('I built a thing', '[Hiring] solved', []);
    expect(spam.score).toBe(0);
  });

  it('lists at most three keywords in its reason', () => {
    const result = score('x', '', ['a', 'b', 'c', 'd'].map(inBody));
    expect(result.reasons[0]).toBe('mentions a, b, c');
  });
});
