import { describe, expect, it } from 'vitest';
import { formatPlanPrice, planIntervalText, profilesText } from './plan-format';

describe('plan formatting', () => {
  it('shows the amount in minor units divided by 100, with the currency, default USD', () => {
    expect(formatPlanPrice({ amount: 2900, currency: 'usd' })).toBe('$29.00');
    expect(formatPlanPrice({ amount: 7950 })).toBe('$79.50');
    expect(formatPlanPrice({ amount: 1999, currency: null })).toBe('$19.99');
    expect(formatPlanPrice({ amount: 15000, currency: 'eur' })).toBe('€150.00');
    expect(formatPlanPrice({ amount: 0, currency: 'USD' })).toBe('$0.00');
    expect(formatPlanPrice({ amount: 123456, currency: 'usd' })).toBe('$1,234.56');
  });

  it('falls back to the number and code for a currency Intl refuses', () => {
    expect(formatPlanPrice({ amount: 5000, currency: 'us' })).toBe('50.00 US');
  });

  it('describes the interval: one-time, per unit, or every N units', () => {
    expect(planIntervalText({ interval: null })).toBe('one-time');
    expect(planIntervalText({ interval: 'month', interval_count: 1 })).toBe('per month');
    expect(planIntervalText({ interval: 'year' })).toBe('per year');
    expect(planIntervalText({ interval: 'month', interval_count: 3 })).toBe('every 3 months');
    expect(planIntervalText({ interval: 'week', interval_count: 2 })).toBe('every 2 weeks');
  });

  it("says 'Up to N profiles', and 'profile' for one", () => {
    expect(profilesText(3)).toBe('Up to 3 profiles');
    expect(profilesText(1)).toBe('Up to 1 profile');
    expect(profilesText(0)).toBe('Up to 0 profiles');
  });
});
