import type { TCheckoutSessionResponse } from '@threadreach/contract';
import { expect } from 'vitest';
import type { TestUser } from '../../test/factories';
import type { TestApp } from '../../test/test-app';

/** Starts a checkout for `priceId` as `user` through the API; fails the test unless it answers 200. */
export async function startCheckout(
  t: TestApp,
  user: TestUser,
  priceId: string,
): Promise<TCheckoutSessionResponse> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/create-checkout-session',
    headers: user.auth,
    payload: { price_id: priceId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
