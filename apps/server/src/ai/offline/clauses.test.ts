import { describe, expect, it } from 'vitest';
import { clauseCut, cleanShortenings } from './clauses';
import { retag } from './keywords';
import { tokenize } from './nlp';

describe('clean shortenings', () => {
  it('drops a coordinated clause whole instead of cutting it ("... cancel and predicts")', () => {
    const text =
      'tracks why SaaS customers cancel and predicts which accounts are about to churn, with Stripe and HubSpot integrations for small B2B teams';
    expect(cleanShortenings(text)).toEqual([
      text,
      'tracks why SaaS customers cancel and predicts which accounts are about to churn, with Stripe and HubSpot integrations',
      'tracks why SaaS customers cancel and predicts which accounts are about to churn',
      'tracks why SaaS customers cancel',
    ]);
    expect(clauseCut(text, 60)).toBe('tracks why SaaS customers cancel');
    expect(clauseCut(text, 20)).toBeNull();
  });

  it('closes a list it cut with "and", and never splits words that share a head noun', () => {
    expect(
      clauseCut(
        'It connects to Stripe in two clicks and shows MRR, churn rate, failed payments and cohort retention in one dashboard.',
        85,
      ),
    ).toBe('It connects to Stripe in two clicks and shows MRR, churn rate and failed payments');
    expect(
      clauseCut(
        'a budgeting app that links to your bank, sorts every transaction into envelopes and warns you',
        85,
      ),
    ).toBe('a budgeting app that links to your bank and sorts every transaction into envelopes');
    // "Stripe and HubSpot integrations", "a wedding or portrait session": no cut at the conjunction.
    const shortenings = [
      ...cleanShortenings('an app with Stripe and HubSpot integrations for teams'),
      ...cleanShortenings('Upload a wedding or portrait session, share a gallery'),
    ];
    expect(shortenings).not.toContain('an app with Stripe');
    expect(shortenings).not.toContain('Upload a wedding');
  });

  it('never ends on a conjunction, preposition, determiner, adjective or bare verb', () => {
    const texts = [
      'a meal planning app that builds a weekly menu from what is already in your fridge, makes a grocery list sorted by aisle, and keeps meals under a budget you set',
      'Start a timer per client, turn tracked hours into a branded invoice in one click, and send automatic reminders when a client pays late',
      'a way to identify what is killing your tomatoes',
      'an online dog training course with short daily video lessons for leash pulling, recall, crate training and reactivity',
    ];
    for (const text of texts) {
      for (const cut of cleanShortenings(text).slice(1)) {
        const last = retag(tokenize(cut)).at(-1)!;
        expect(['CCONJ', 'SCONJ', 'ADP', 'DET', 'ADJ', 'AUX', 'PART'], cut).not.toContain(last.pos);
        expect(cut, cut).not.toMatch(/\b(and|or|which|that|your|a|the|to|into)$/);
      }
    }
    expect(cleanShortenings('a way to identify what is killing your tomatoes')).toHaveLength(1);
  });

  it('never keeps a verb without what completes it: "turns invoices" without "into tax-ready reports"', () => {
    expect(
      cleanShortenings(
        'LedgerLeaf is a bookkeeping app that turns invoices and receipts into tax-ready reports for freelancers and small agencies',
      ),
    ).toEqual([
      'LedgerLeaf is a bookkeeping app that turns invoices and receipts into tax-ready reports for freelancers and small agencies',
      'LedgerLeaf is a bookkeeping app that turns invoices and receipts into tax-ready reports for freelancers',
      'LedgerLeaf is a bookkeeping app that turns invoices and receipts into tax-ready reports',
      'LedgerLeaf is a bookkeeping app',
    ]);
    expect(
      clauseCut(
        'a bookkeeping app for freelancers that turns invoices and receipts into tax-ready reports',
        60,
      ),
    ).toBe('a bookkeeping app for freelancers');
    const cuts = [
      ...cleanShortenings('turns invoices, receipts and bank statements into tax-ready reports'),
      ...cleanShortenings('a scanner app that converts contracts and receipts to searchable PDFs'),
    ];
    // The verb goes with its object and what completes it, or is cut away whole ("a scanner app").
    for (const cut of cuts)
      expect(cut).not.toMatch(/\b(turns|converts)\b(?!.*\b(into|to) (tax-ready|searchable)\b)/);
    expect(cuts).toContain('a scanner app');
    // "instead of", "because of": a cut between the two words leaves half of it.
    expect(
      cleanShortenings(
        'LedgerLeaf turns invoices and receipts into tax-ready reports, so tax season takes an hour instead of a week',
      ),
    ).not.toContain(
      'LedgerLeaf turns invoices and receipts into tax-ready reports, so tax season takes an hour instead',
    );
  });
});
