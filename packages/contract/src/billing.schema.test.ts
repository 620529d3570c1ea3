import { describe, expect, it } from 'vitest';
import { ZCreateCheckoutSessionRequest, ZSubscriptionPlan } from './billing.schema';

describe('subscription plan', () => {
  it('fills in USD, a monthly interval and no description', () => {
    expect(
      ZSubscriptionPlan.parse({ price_id: 'p', product_name: 'Starter', amount: 2900, profiles_limit: 1 }),
    ).toEqual({
      price_id: 'p',
      product_name: 'Starter',
      amount: 2900,
      currency: 'usd',
      interval: 'month',
      interval_count: 1,
      profiles_limit: 1,
      description: null,
    });
  });

  it('accepts a one-time plan and refuses amounts that are not whole minor units', () => {
    expect(
      ZSubscriptionPlan.parse({
        price_id: 'p',
        product_name: 'Once',
        amount: 100,
        profiles_limit: 1,
        interval: null,
      }).interval,
    ).toBeNull();
    expect(
      ZSubscriptionPlan.safeParse({ price_id: 'p', product_name: 'X', amount: 29.5, profiles_limit: 1 })
        .success,
    ).toBe(false);
    expect(
      ZSubscriptionPlan.safeParse({ price_id: 'p', product_name: 'X', amount: 100, profiles_limit: 0 })
        .success,
    ).toBe(false);
    expect(
      ZSubscriptionPlan.safeParse({
        price_id: 'p',
        product_name: 'X',
        amount: 1,
        profiles_limit: 1,
        currency: 'us',
      }).success,
    ).toBe(false);
  });

  it('needs a price id to start checkout', () => {
    expect(ZCreateCheckoutSessionRequest.safeParse({ price_id: '  ' }).success).toBe(false);
    expect(ZCreateCheckoutSessionRequest.parse({ price_id: ' price_1 ' })).toEqual({ price_id: 'price_1' });
  });
});
