import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCookieFor } from '../auth/auth.test-support';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { findUserById } from '../users';
import { startCheckout } from './billing.test-support';

/** The embedded default: plans from configuration and the local checkout page, no card charged. */
let t: TestApp;
const PLANS = [
  { price_id: 'price_duo', product_name: 'Duo', amount: 4900, profiles_limit: 2, description: 'Two of each' },
  { price_id: 'price_solo', product_name: 'Solo', amount: 1900, profiles_limit: 1, currency: 'eur' },
];

beforeAll(async () => {
  t = await createTestApp({ env: { BILLING_PLANS: JSON.stringify(PLANS) } });
});
afterAll(() => t.close());

const checkout = (user: TestUser, priceId: string) => startCheckout(t, user, priceId);

const pathOf = (url: string) => new URL(url).pathname;
const post = (url: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

describe('local checkout', () => {
  it('sells the configured plans, cheapest first, without sign-in', async () => {
    const res = await t.app.inject({ url: '/api/v1/billing/available-plans' });
    expect(res.json().map((p: { price_id: string }) => p.price_id)).toEqual(['price_solo', 'price_duo']);
    expect(res.json()[0]).toMatchObject({
      currency: 'eur',
      interval: 'month',
      interval_count: 1,
      description: null,
    });
  });

  it('completes a purchase through the checkout page; the new limit reaches the token', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, 'price_duo');
    expect(session).toMatchObject({ profiles_limit: 2, customer_id: expect.stringMatching(/^cus_local_/) });
    expect(session.checkout_url).toBe(`${t.url}/billing/local-checkout/${session.session_id}`);

    const page = await t.app.inject({ url: pathOf(session.checkout_url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const text of [
      'Demo checkout — no card is charged',
      'Duo',
      '$49.00',
      'per month',
      'Up to 2 profiles',
    ]) {
      expect(page.body).toContain(text);
    }
    expect(page.body).toContain('Complete purchase');
    expect(page.body).toContain('Cancel');

    const done = await post(`${pathOf(session.checkout_url)}/complete`);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${t.url}/subscribe/success?session_id=${session.session_id}`);
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(2);

    // A second click changes nothing and lands on the same page.
    const again = await post(`${pathOf(session.checkout_url)}/complete`);
    expect(again.headers.location).toBe(done.headers.location);
    const events = await t.ctx.db.execute(
      sql`select id from billing_events where id like ${`evt_local_${session.session_id}%`}`,
    );
    expect(events.rows).toHaveLength(1);
    const subs = await t.ctx.db.execute(
      sql`select status from billing_subscriptions where user_id = ${user.id}`,
    );
    expect(subs.rows).toEqual([{ status: 'active' }]);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh-after-subscription',
      // Inside the session the browser signed in with: the bearer token alone mints nothing.
      headers: { ...user.auth, ...(await refreshCookieFor(t.ctx, user.id)) },
    });
    expect(refreshed.json().user.profiles_limit).toBe(2);
    const me = await t.app.inject({ url: '/api/v1/me', headers: user.auth });
    expect(me.json()).toMatchObject({ profiles_limit: 2, projects_used: 0 });

    // The completed session's page now forwards to the success page.
    const revisit = await t.app.inject({ url: pathOf(session.checkout_url) });
    expect(revisit.statusCode).toBe(303);
  });

  it('cancels through the same path: back to /subscribe/cancel, and the session cannot be completed', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, 'price_solo');
    const canceled = await post(`${pathOf(session.checkout_url)}/cancel`);
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`${t.url}/subscribe/cancel`);
    const row = await t.ctx.db.execute(
      sql`select status from billing_checkout_sessions where id = ${session.session_id}`,
    );
    expect(row.rows).toEqual([{ status: 'expired' }]);

    const late = await post(`${pathOf(session.checkout_url)}/complete`);
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('This checkout session is no longer open.');
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(0);
  });

  it('answers an unknown session with 404 and escapes nothing it did not write', async () => {
    const res = await t.app.inject({ url: '/billing/local-checkout/cs_local_%3Cscript%3E' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<script>');
    expect((await post('/billing/local-checkout/cs_local_nope/complete')).statusCode).toBe(404);
  });

  it('has no webhook to receive', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });
});
