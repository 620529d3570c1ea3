import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCookieFor } from '../auth/auth.test-support';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import { buildAccount } from '../accounts/accounts.test-support';
import { createTestApp, type TestApp } from '../../test/test-app';
import { findUserById } from '../users';
import { fixedClock } from '../../test/clock.test-support';
import { startCheckout } from './billing.test-support';
import { ALREADY_ON_PLAN, applyEndedSubscriptions } from './billing.service';

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

  it('does not sell a plan the customer already has (409), and sells it again once canceled', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, 'price_solo');
    await post(`${pathOf(session.checkout_url)}/complete`);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      headers: user.auth,
      payload: { price_id: 'price_solo' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: ALREADY_ON_PLAN, code: 'already_subscribed' });
    // A checkout of the same plan opened before, in another tab, is not completed either.
    const other = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const [first, second] = [await checkout(other, 'price_solo'), await checkout(other, 'price_solo')];
    expect((await post(`${pathOf(first.checkout_url)}/complete`)).statusCode).toBe(303);
    const late = await post(`${pathOf(second.checkout_url)}/complete`);
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('You already have this plan.');
    const held = await t.ctx.db.execute(
      sql`select id from billing_subscriptions where user_id = ${other.id}`,
    );
    expect(held.rows).toHaveLength(1);
    // Another plan is still for sale beside it.
    await checkout(user, 'price_duo');
    await t.ctx.db.execute(
      sql`update billing_subscriptions set status = 'canceled' where user_id = ${user.id}`,
    );
    await checkout(user, 'price_solo');
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

describe('local billing portal', () => {
  const openPortal = (user: TestUser) =>
    t.app.inject({ method: 'POST', url: '/api/v1/billing/create-portal-session', headers: user.auth });
  const subscription = async (user: TestUser) =>
    (await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth })).json();

  async function subscribed(priceId: string) {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, priceId);
    expect((await post(`${pathOf(session.checkout_url)}/complete`)).statusCode).toBe(303);
    return user;
  }

  it('lists the plan and cancels it: it stops renewing and its profiles last to the end of the period', async () => {
    const user = await subscribed('price_duo');
    const opened = await openPortal(user);
    expect(opened.statusCode, opened.body).toBe(200);
    const portal = opened.json().portal_url as string;
    expect(portal).toMatch(new RegExp(`^${t.url}/billing/local-portal/bps_local_`));

    const page = await t.app.inject({ url: pathOf(portal) });
    expect(page.statusCode).toBe(200);
    const periodEnd = new Date((await subscription(user)).subscription.current_period_end);
    const day = periodEnd.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    for (const text of [
      'Demo billing — no card is charged',
      'Duo',
      '$49.00',
      `Renews on ${day}`,
      'Cancel plan',
    ]) {
      expect(page.body).toContain(text);
    }
    expect(page.body).toContain(`href="${t.url}/subscription"`);
    const action = /action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!;

    const canceled = await post(action);
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(portal);
    const after = await t.app.inject({ url: pathOf(portal) });
    expect(after.body).toContain(`Canceled: access until ${day}`);
    expect(after.body).not.toContain('Cancel plan');
    expect(await subscription(user)).toMatchObject({
      profiles_limit: 2,
      subscription: { status: 'canceled', current_period_end: periodEnd.toISOString() },
    });

    // A second click changes nothing more.
    expect((await post(action)).statusCode).toBe(303);
    const events = await t.ctx.db.execute(sql`select id from billing_events where id like ${'%_canceled'}`);
    expect(events.rows.filter((r) => String(r.id).includes(action.split('/').at(-1)!))).toHaveLength(1);

    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock(periodEnd.getTime() - 60_000) });
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(2);
    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock(periodEnd.getTime() + 60_000) });
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(0);
  });

  it('lists every plan held: one canceled and bought again, and a second plan beside it', async () => {
    const user = await subscribed('price_duo');
    const portal = (await openPortal(user)).json().portal_url as string;
    const page = await t.app.inject({ url: pathOf(portal) });
    await post(/action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!);
    for (const priceId of ['price_duo', 'price_solo']) {
      const session = await checkout(user, priceId);
      expect((await post(`${pathOf(session.checkout_url)}/complete`)).statusCode).toBe(303);
    }

    const lookup = await subscription(user);
    expect(lookup.profiles_limit).toBe(2);
    const held = lookup.subscriptions.map((s: { price_id: string; status: string }) => [
      s.price_id,
      s.status,
    ]);
    // The highest limit first, of equal ones the plan that renews.
    expect(held).toEqual([
      ['price_duo', 'active'],
      ['price_duo', 'canceled'],
      ['price_solo', 'active'],
    ]);
    expect(lookup.subscription).toEqual(lookup.subscriptions[0]);
    // Neither renewing plan is sold again.
    for (const priceId of ['price_duo', 'price_solo']) {
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/create-checkout-session',
        headers: user.auth,
        payload: { price_id: priceId },
      });
      expect(again.json().code).toBe('already_subscribed');
    }
  });

  it('counts connected Reddit accounts over all projects beside the projects, against the same limit', async () => {
    const user = await subscribed('price_duo');
    const first = await buildProject(t.ctx.db, t.config, { owner: user });
    const second = await buildProject(t.ctx.db, t.config, { owner: user });
    await buildAccount(t.ctx.db, first.id);
    await buildAccount(t.ctx.db, first.id);
    await buildAccount(t.ctx.db, second.id);
    await buildAccount(t.ctx.db, (await buildProject(t.ctx.db, t.config)).id);
    expect(await subscription(user)).toMatchObject({ profiles_limit: 2, projects_used: 2, accounts_used: 3 });
    const none = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    expect(await subscription(none)).toMatchObject({
      projects_used: 0,
      accounts_used: 0,
      subscription: null,
      subscriptions: [],
    });
  });

  it("cancels only the session's own customer's plans", async () => {
    const owner = await subscribed('price_solo');
    const other = await subscribed('price_duo');
    const otherPage = await t.app.inject({ url: pathOf((await openPortal(other)).json().portal_url) });
    const otherCancel = /action="[^"]+\/cancel\/([^"]+)"/.exec(otherPage.body)![1]!;
    const ownPortal = (await openPortal(owner)).json().portal_url as string;

    expect((await post(`${pathOf(ownPortal)}/cancel/${otherCancel}`)).statusCode).toBe(303);
    expect((await subscription(other)).subscription.status).toBe('active');
    expect((await subscription(owner)).subscription.status).toBe('active');
  });

  it('refuses a session that is unknown (404) or over an hour old (410), and a user without a plan (409)', async () => {
    const user = await subscribed('price_solo');
    const portal = (await openPortal(user)).json().portal_url as string;
    const id = pathOf(portal).split('/').at(-1)!;
    await t.ctx.db.execute(
      sql`update local_portal_sessions set expires_at = now() - interval '1 second' where id = ${id}`,
    );
    const late = await t.app.inject({ url: pathOf(portal) });
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('This billing session has ended. Open it again from your subscription.');
    expect((await post(`${pathOf(portal)}/cancel/sub_local_x`)).statusCode).toBe(410);
    expect((await subscription(user)).subscription.status).toBe('active');

    const unknown = await t.app.inject({ url: '/billing/local-portal/bps_local_%3Cscript%3E' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain('<script>');

    const none = await openPortal(await buildUser(t.ctx.db, t.config, { profilesLimit: 0 }));
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('no_subscription');
  });
});
