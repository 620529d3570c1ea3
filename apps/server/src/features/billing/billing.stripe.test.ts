import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../integrations/payments/fake-stripe.server';
import { fixedClock } from '../../test/clock.test-support';
import { refreshCookieFor } from '../auth/auth.test-support';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { findUserById } from '../users';
import { agentStatusOf, dmsOf, projectAtWork, startCheckout } from './billing.test-support';
import { applyEndedSubscriptions } from './billing.service';

/**
 * Stripe mode end to end: the real `stripe` library against a local fake of the Stripe endpoints used,
 * webhooks signed with Stripe's own test-header helper.
 */
let stripe: FakeStripe;
let t: TestApp;
let starter: { id: string };
let growth: { id: string };
let scale: { id: string };
let noLimit: { id: string };

beforeAll(async () => {
  stripe = await new FakeStripe().start();
  starter = stripe.addPrice({ productName: 'Starter', unitAmount: 2900, profilesLimit: '1' }) as {
    id: string;
  };
  scale = stripe.addPrice({
    productName: 'Scale',
    unitAmount: 19900,
    profilesLimit: '10',
    description: 'For agencies',
  }) as { id: string };
  growth = stripe.addPrice({ productName: 'Growth', unitAmount: 7900, profilesLimit: '3' }) as { id: string };
  noLimit = stripe.addPrice({ productName: 'No limit metadata', unitAmount: 100 }) as { id: string };
  stripe.addPrice({ productName: 'Retired', unitAmount: 100, profilesLimit: '5', active: false });
  t = await createTestApp({ env: stripe.env() });
});
afterEach(() => {
  expect(stripe.unhandled, 'unexpected Stripe API calls').toEqual([]);
});
afterAll(async () => {
  await t.close();
  await stripe.stop();
});

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

const checkout = (user: TestUser, priceId: string) => startCheckout(t, user, priceId);

function deliver(event: Record<string, unknown>, options: { timestamp?: number; secret?: string } = {}) {
  const { payload, header } = stripe.sign(event, options);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

async function limitOf(userId: string): Promise<number> {
  return (await findUserById(t.ctx.db, userId))!.profilesLimit;
}

/** A customer who bought `priceId` through Stripe Checkout; the completed event is returned undelivered. */
async function subscribed(priceId: string) {
  const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
  const session = await checkout(user, priceId);
  const { subscription, session: completed } = stripe.completeCheckout(session.session_id);
  return {
    user,
    session,
    subscriptionId: subscription.id as string,
    completed: stripe.event('checkout.session.completed', completed),
  };
}

describe('plans', () => {
  it('lists active Stripe prices with a profiles_limit, cheapest first, without sign-in, cached briefly', async () => {
    const before = stripe.count('GET', '/v1/prices');
    const res = await t.app.inject({ url: '/api/v1/billing/available-plans' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        price_id: starter.id,
        product_name: 'Starter',
        amount: 2900,
        currency: 'usd',
        interval: 'month',
        interval_count: 1,
        profiles_limit: 1,
        description: null,
      },
      expect.objectContaining({ price_id: growth.id, product_name: 'Growth', profiles_limit: 3 }),
      expect.objectContaining({ price_id: scale.id, profiles_limit: 10, description: 'For agencies' }),
    ]);
    await t.app.inject({ url: '/api/v1/billing/available-plans' });
    expect(stripe.count('GET', '/v1/prices') - before).toBeLessThanOrEqual(1);
  });

  it('offers only the prices named in STRIPE_PRICE_IDS', async () => {
    const only = await createTestApp({ env: stripe.env({ STRIPE_PRICE_IDS: `${growth.id},price_unknown` }) });
    try {
      const res = await only.app.inject({ url: '/api/v1/billing/available-plans' });
      expect(res.json().map((p: { price_id: string }) => p.price_id)).toEqual([growth.id]);
    } finally {
      await only.close();
    }
  });
});

describe('checkout', () => {
  it('creates one customer per user and a Stripe Checkout session with an idempotency key per attempt', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const first = await checkout(user, growth.id);
    expect(first).toMatchObject({ customer_id: expect.stringMatching(/^cus_/), profiles_limit: 3 });
    expect(first.checkout_url).toBe(`https://checkout.stripe.com/c/pay/${first.session_id}`);
    const second = await checkout(user, scale.id);
    expect(second.customer_id).toBe(first.customer_id);
    expect(second.session_id).not.toBe(first.session_id);

    const creates = stripe.requests.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === user.id,
    );
    expect(creates).toHaveLength(2);
    expect(creates[0]!.idempotencyKey).toBeTruthy();
    expect(creates[0]!.idempotencyKey).not.toBe(creates[1]!.idempotencyKey);
    expect(creates[0]!.body).toMatchObject({
      mode: 'subscription',
      customer: first.customer_id,
      line_items: [{ price: growth.id, quantity: '1' }],
      success_url: `${t.url}/subscribe/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${t.url}/subscribe/cancel`,
      subscription_data: { metadata: { user_id: user.id } },
    });
    const customers = stripe.requests.filter(
      (r) => r.path === '/v1/customers' && r.body.email === user.email,
    );
    expect(customers).toHaveLength(1);
    expect(customers[0]!.idempotencyKey).toBe(`customer-${user.id}`);
  });

  it('refuses a price that is not on sale, and READONLY accounts', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    for (const price_id of ['price_unknown', noLimit.id]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/create-checkout-session',
        headers: user.auth,
        payload: { price_id },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('unknown_plan');
    }
    const readonly = await buildUser(t.ctx.db, t.config, { roles: ['READONLY'], profilesLimit: 0 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      headers: readonly.auth,
      payload: { price_id: growth.id },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain('READONLY');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      payload: { price_id: growth.id },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('one plan at a time', () => {
  const tryCheckout = (user: TestUser, priceId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      headers: user.auth,
      payload: { price_id: priceId },
    });
  const sessionsCreated = () => stripe.count('POST', '/v1/checkout/sessions');

  it('opens no Stripe Checkout while a plan runs, canceled at period end or not, and again once it ended', async () => {
    const { user, completed, subscriptionId } = await subscribed(starter.id);
    expect((await deliver(completed)).statusCode).toBe(200);
    const before = sessionsCreated();
    for (const priceId of [starter.id, scale.id]) {
      const res = await tryCheckout(user, priceId);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: 'You already have the Starter plan. Change or cancel it under Subscription.',
        code: 'already_subscribed',
      });
    }

    // Canceled in Stripe's portal: it stays active to the end of the period and stops renewing.
    const periodEnd = Math.floor(Date.now() / 1000) + 7 * 86_400;
    const day = new Date(periodEnd * 1000).toLocaleDateString('en-US', {
      dateStyle: 'medium',
      timeZone: 'UTC',
    });
    const cancelling = stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true, periodEnd });
    expect((await deliver(stripe.event('customer.subscription.updated', cancelling))).statusCode).toBe(200);
    const running = `You canceled the Starter plan, but it runs until ${day}. You can choose a plan again once it has ended; until then, manage it under Subscription.`;
    expect((await tryCheckout(user, growth.id)).json()).toEqual({
      detail: running,
      code: 'already_subscribed',
    });

    // Canceled at once by request, with paid time left: still running.
    const canceled = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      periodEnd,
      cancellationReason: 'cancellation_requested',
    });
    expect((await deliver(stripe.event('customer.subscription.deleted', canceled))).statusCode).toBe(200);
    const refused = await tryCheckout(user, growth.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(running);
    expect(sessionsCreated()).toBe(before);

    // Ended: a new plan is sold.
    const ended = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      periodEnd: Math.floor(Date.now() / 1000) - 60,
    });
    expect((await deliver(stripe.event('customer.subscription.deleted', ended))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(0);
    expect((await checkout(user, growth.id)).profiles_limit).toBe(3);
    expect(sessionsCreated()).toBe(before + 1);
  });

  it('sells a plan again at once after Stripe ended the last one for non-payment', async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    await deliver(completed);
    const ended = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      cancellationReason: 'payment_failed',
      periodEnd: Math.floor(Date.now() / 1000) + 20 * 86_400,
    });
    await deliver(stripe.event('customer.subscription.deleted', ended));
    expect((await checkout(user, growth.id)).profiles_limit).toBe(3);
  });

  it('expires the Checkout opened before when a second one opens, so only the newest can be paid', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const first = await checkout(user, starter.id);
    const second = await checkout(user, growth.id);
    expect(stripe.sessions.get(first.session_id)!.status).toBe('expired');
    expect(stripe.sessions.get(second.session_id)!.status).toBe('open');
    expect(() => stripe.completeCheckout(first.session_id)).toThrow(/expired/);

    // Stripe tells of the expiry; the newest is paid and fulfilled.
    expect(
      (await deliver(stripe.event('checkout.session.expired', stripe.sessions.get(first.session_id)!)))
        .statusCode,
    ).toBe(200);
    const { session: paid } = stripe.completeCheckout(second.session_id);
    expect((await deliver(stripe.event('checkout.session.completed', paid))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(3);
    const sessions = await t.ctx.db.execute<{ id: string; status: string }>(
      sql`select id, status from billing_checkout_sessions where user_id = ${user.id} order by status`,
    );
    expect(sessions.rows).toEqual([
      { id: second.session_id, status: 'complete' },
      { id: first.session_id, status: 'expired' },
    ]);
  });

  it('opens the new Checkout when the one it expires was paid in that moment, and the paid one is fulfilled', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const first = await checkout(user, starter.id);
    let paid: Record<string, unknown> | null = null;
    stripe.beforeExpire = (sessionId) => {
      if (sessionId === first.session_id) paid = stripe.completeCheckout(sessionId).session;
    };
    try {
      const second = await checkout(user, growth.id);
      expect(stripe.count('POST', `/v1/checkout/sessions/${first.session_id}/expire`)).toBe(1);
      expect(stripe.sessions.get(second.session_id)!.status).toBe('open');
    } finally {
      stripe.beforeExpire = null;
    }
    expect((await deliver(stripe.event('checkout.session.completed', paid!))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(1);
    expect((await tryCheckout(user, growth.id)).statusCode).toBe(409);
  });

  it('sells no plan to moderators and admins (403), and asks Stripe for nothing', async () => {
    const before = stripe.requests.length;
    for (const roles of [['MODERATOR'], ['ADMIN'], ['USER', 'MODERATOR']]) {
      const staff = await buildUser(t.ctx.db, t.config, { roles, profilesLimit: 0 });
      const res = await tryCheckout(staff, growth.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        detail:
          'Moderators and admins need no plan: their profiles have no limit, so there is nothing to buy.',
        code: 'no_plan_needed',
      });
    }
    expect(stripe.requests.length).toBe(before);
  });
});

describe('webhook', () => {
  it('fulfils checkout.session.completed: the limit follows the plan and refresh-after-subscription carries it', async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    const res = await deliver(completed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await limitOf(user.id)).toBe(3);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh-after-subscription',
      // Inside the session the browser signed in with: the bearer token alone mints nothing.
      headers: { ...user.auth, ...(await refreshCookieFor(t.ctx, user.id)) },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.profiles_limit).toBe(3);
    expect(claimsOf(refreshed.json().token).profiles_limit).toBe(3);

    const lookup = await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth });
    expect(lookup.json()).toMatchObject({
      user_id: user.id,
      user_email: user.email,
      profiles_limit: 3,
      projects_limit: 3,
      projects_used: 0,
      unlimited: false,
      has_active_subscription: true,
      subscription: { status: 'active', price_id: growth.id, profiles_limit: 3, cancel_at_period_end: false },
    });
    const session = await t.ctx.db.execute<{ status: string; subscription_id: string }>(
      sql`select status, subscription_id from billing_checkout_sessions where user_id = ${user.id}`,
    );
    expect(session.rows).toEqual([{ status: 'complete', subscription_id: subscriptionId }]);
  });

  it('fulfils the same event delivered five times concurrently once', async () => {
    const { user, completed } = await subscribed(scale.id);
    const retrievesBefore = stripe.count('GET', '/v1/subscriptions/');
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(completed)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    expect(stripe.count('GET', '/v1/subscriptions/') - retrievesBefore).toBe(1);
    const events = await t.ctx.db.execute(
      sql`select id from billing_events where id = ${completed.id as string}`,
    );
    expect(events.rows).toHaveLength(1);
    expect(await limitOf(user.id)).toBe(10);
  });

  it('ends in the current state when subscription events arrive out of order', async () => {
    const { user, completed, subscriptionId } = await subscribed(starter.id);
    const upgraded = stripe.event(
      'customer.subscription.updated',
      stripe.updateSubscription(subscriptionId, { priceId: scale.id }),
    );
    const periodEnd = Math.floor(Date.now() / 1000) + 10 * 86_400;
    const cancelling = stripe.event(
      'customer.subscription.updated',
      stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true, periodEnd }),
    );
    // Newest first, the checkout last: each delivery reads the subscription as Stripe holds it now.
    for (const event of [cancelling, upgraded, completed])
      expect((await deliver(event)).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(10);
    const lookup = await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth });
    expect(lookup.json().subscription).toMatchObject({
      status: 'active',
      price_id: scale.id,
      cancel_at_period_end: true,
      current_period_end: new Date(periodEnd * 1000).toISOString(),
    });

    // Stripe ends it; a stale "active" snapshot delivered afterwards changes nothing.
    const deleted = stripe.event(
      'customer.subscription.deleted',
      stripe.updateSubscription(subscriptionId, {
        status: 'canceled',
        periodEnd: Math.floor(Date.now() / 1000) - 1,
      }),
    );
    expect((await deliver(deleted)).statusCode).toBe(200);
    const staleSnapshot = (upgraded.data as { object: Record<string, unknown> }).object;
    expect((await deliver(stripe.event('customer.subscription.updated', staleSnapshot))).statusCode).toBe(
      200,
    );
    expect(await limitOf(user.id)).toBe(0);
  });

  it("renews again when the customer renews in Stripe's portal a plan set to cancel at the period end", async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    expect((await deliver(completed)).statusCode).toBe(200);
    const periodEnd = Math.floor(Date.now() / 1000) + 3 * 86_400;
    const cancelling = stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true, periodEnd });
    expect((await deliver(stripe.event('customer.subscription.updated', cancelling))).statusCode).toBe(200);
    const lookup = async () =>
      (await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth })).json();
    expect((await lookup()).subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });

    // "Renew plan" in Stripe's portal sets cancel_at_period_end back to false.
    const renewed = stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: false });
    expect((await deliver(stripe.event('customer.subscription.updated', renewed))).statusCode).toBe(200);
    expect(await lookup()).toMatchObject({
      profiles_limit: 3,
      subscription: {
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: new Date(periodEnd * 1000).toISOString(),
        gives_access: true,
      },
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/create-checkout-session',
      headers: user.auth,
      payload: { price_id: starter.id },
    });
    expect(refused.json()).toEqual({
      detail: 'You already have the Growth plan. Change or cancel it under Subscription.',
      code: 'already_subscribed',
    });
    // Renewing, it outlives the period's end.
    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock((periodEnd + 60) * 1000) });
    expect(await limitOf(user.id)).toBe(3);
  });

  it('keeps a canceled subscription until the end of the paid period, then drops the limit to 0', async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    await deliver(completed);
    const periodEnd = Math.floor(Date.now() / 1000) + 3 * 86_400;
    const canceled = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      periodEnd,
      cancellationReason: 'cancellation_requested',
    });
    expect((await deliver(stripe.event('customer.subscription.deleted', canceled))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(3);

    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock((periodEnd - 60) * 1000) });
    expect(await limitOf(user.id)).toBe(3);
    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock((periodEnd + 60) * 1000) });
    expect(await limitOf(user.id)).toBe(0);
    // Applied once: the next run has nothing left to do for this user.
    const again = await t.ctx.db.execute(
      sql`select id from billing_subscriptions where user_id = ${user.id} and expiry_applied_at is null`,
    );
    expect(again.rows).toEqual([]);
  });

  it('keeps access while a payment is being retried (past_due) and ends it at once when Stripe gives up', async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    await deliver(completed);
    stripe.updateSubscription(subscriptionId, { status: 'past_due' });
    const invoice = {
      id: 'in_test_failed',
      object: 'invoice',
      customer: 'cus_x',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
    };
    expect((await deliver(stripe.event('invoice.payment_failed', invoice))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(3);
    const lookup = await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth });
    expect(lookup.json().subscription.status).toBe('past_due');

    const ended = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      cancellationReason: 'payment_failed',
      periodEnd: Math.floor(Date.now() / 1000) + 20 * 86_400,
    });
    await deliver(stripe.event('customer.subscription.deleted', ended));
    expect(await limitOf(user.id)).toBe(0);
  });

  it("pauses the customer's agents and takes back their queued DMs as soon as a deletion ends the plan", async () => {
    const { user, completed, subscriptionId } = await subscribed(growth.id);
    await deliver(completed);
    const work = await projectAtWork(t, user);
    const ended = stripe.updateSubscription(subscriptionId, {
      status: 'canceled',
      cancellationReason: 'payment_disputed',
      periodEnd: Math.floor(Date.now() / 1000) + 20 * 86_400,
    });
    expect((await deliver(stripe.event('customer.subscription.deleted', ended))).statusCode).toBe(200);
    expect(await limitOf(user.id)).toBe(0);
    expect(await agentStatusOf(t, work.project)).toMatchObject({
      is_active: false,
      paused_reason: expect.stringContaining("the project owner's subscription has ended"),
    });
    const dms = await dmsOf(t, work.project.id);
    expect(
      dms
        .filter((d) => d.outcomeCode === 'subscription_required')
        .map((d) => d.id)
        .sort(),
    ).toEqual([work.byAgent.id, work.byCustomer.id].sort());
    expect(dms.every((d) => d.state === 'approved')).toBe(true);
  });

  it.each([
    ['a bad signature', (e: Record<string, unknown>) => deliver(e, { secret: 'whsec_wrong' })],
    [
      'a tampered body',
      (e: Record<string, unknown>) => {
        const { payload, header } = stripe.sign(e);
        return t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          payload: payload.replace('"checkout.session.completed"', '"checkout.session.completed" '),
        });
      },
    ],
    [
      'a stale timestamp',
      (e: Record<string, unknown>) => deliver(e, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
    ],
    [
      'no signature',
      (e: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/webhook',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(e),
        }),
    ],
  ])('answers %s with 400 and fulfils nothing', async (_name, send) => {
    const { user, completed } = await subscribed(growth.id);
    const res = await send(completed);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_signature',
      detail: expect.stringContaining('Invalid webhook signature'),
    });
    expect(await limitOf(user.id)).toBe(0);
    const events = await t.ctx.db.execute(
      sql`select id from billing_events where id = ${completed.id as string}`,
    );
    expect(events.rows).toEqual([]);
  });

  it('answers 500 when Stripe cannot be read, records nothing, and fulfils on the redelivery', async () => {
    const { user, completed } = await subscribed(growth.id);
    stripe.failures.set('/v1/subscriptions/', 3);
    const failed = await deliver(completed);
    expect(failed.statusCode).toBe(500);
    expect(failed.json().code).toBe('fulfilment_failed');
    expect(await limitOf(user.id)).toBe(0);
    const retried = await deliver(completed);
    expect(retried.json()).toEqual({ received: true, duplicate: false });
    expect(await limitOf(user.id)).toBe(3);
  });

  it('keeps a second plan paid while one still runs, and warns the operator that the customer pays for both', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    });
    const w = await createTestApp({ env: stripe.env(), logger: { stream, level: 'warn' } });
    try {
      const user = await buildUser(w.ctx.db, w.config, { profilesLimit: 0 });
      const send = (event: Record<string, unknown>) => {
        const { payload, header } = stripe.sign(event);
        return w.app.inject({
          method: 'POST',
          url: '/api/v1/billing/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          payload,
        });
      };
      const started = await startCheckout(w, user, starter.id);
      const { subscription: first, session } = stripe.completeCheckout(started.session_id);
      expect((await send(stripe.event('checkout.session.completed', session))).statusCode).toBe(200);
      expect((await send(stripe.event('customer.subscription.created', first))).statusCode).toBe(200);
      expect(lines).toEqual([]);

      const second = stripe.createSubscription({
        customer: started.customer_id,
        priceId: growth.id,
        metadata: { user_id: user.id },
      });
      expect((await send(stripe.event('customer.subscription.created', second))).statusCode).toBe(200);
      expect((await findUserById(w.ctx.db, user.id))!.profilesLimit).toBe(3);
      await expect.poll(() => lines.length, { timeout: 5000, interval: 5 }).toBe(1);
      expect(lines[0]).toMatchObject({
        level: 40,
        userId: user.id,
        customerId: started.customer_id,
        subscriptionId: second.id,
        runningSubscriptionIds: [first.id],
        msg: expect.stringContaining('billed for both'),
      });
      // Told once: a later event about the same plan says nothing more.
      expect((await send(stripe.event('customer.subscription.updated', second))).statusCode).toBe(200);
      expect(lines).toHaveLength(1);
    } finally {
      await w.close();
    }
  });

  it('acknowledges event types it does not use without recording them', async () => {
    const event = stripe.event('customer.created', { id: 'cus_x', object: 'customer' });
    const res = await deliver(event);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    const rows = await t.ctx.db.execute(sql`select id from billing_events where id = ${event.id as string}`);
    expect(rows.rows).toEqual([]);
  });
});

describe('subscription lookup', () => {
  it('shows a user their own subscription, admins anyone’s, and to others the user does not exist', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const other = await buildUser(t.ctx.db, t.config);
    const moderator = await buildUser(t.ctx.db, t.config, { roles: ['MODERATOR'] });
    const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
    const url = `/api/v1/users/${owner.id}/subscription`;
    const own = await t.app.inject({ url, headers: owner.auth });
    expect(own.json()).toMatchObject({
      profiles_limit: 0,
      has_active_subscription: false,
      subscription: null,
    });
    expect((await t.app.inject({ url, headers: admin.auth })).statusCode).toBe(200);
    for (const caller of [other, moderator]) {
      const res = await t.app.inject({ url, headers: caller.auth });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'User not found', code: 'not_found' });
    }
    const adminSelf = await t.app.inject({
      url: `/api/v1/users/${admin.id}/subscription`,
      headers: admin.auth,
    });
    expect(adminSelf.json()).toMatchObject({ unlimited: true });
  });
});

describe('billing portal', () => {
  const openPortal = (user: TestUser) =>
    t.app.inject({ method: 'POST', url: '/api/v1/billing/create-portal-session', headers: user.auth });

  it("opens Stripe's customer portal for the customer, coming back to their subscription", async () => {
    const { user, completed, session } = await subscribed(growth.id);
    expect((await deliver(completed)).statusCode).toBe(200);

    const res = await openPortal(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().portal_url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
    const sent = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions');
    expect(sent.at(-1)!.body).toEqual({
      customer: session.customer_id,
      return_url: `${t.config.publicUrl}/subscription`,
    });
  });

  it('refuses a customer who never bought a plan (409) and READONLY accounts (403)', async () => {
    const before = stripe.count('POST', '/v1/billing_portal/sessions');
    const stranger = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const none = await openPortal(stranger);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({
      detail: 'You have no plan to manage yet. Choose one on the plans page.',
      code: 'no_subscription',
    });
    // A checkout left unpaid makes a customer, not a plan.
    await checkout(stranger, starter.id);
    expect((await openPortal(stranger)).statusCode).toBe(409);

    const readonly = await buildUser(t.ctx.db, t.config, { roles: ['READONLY'], profilesLimit: 0 });
    expect((await openPortal(readonly)).statusCode).toBe(403);
    expect(stripe.count('POST', '/v1/billing_portal/sessions')).toBe(before);
  });

  it('answers 502 when Stripe cannot open the portal', async () => {
    const { user, completed } = await subscribed(starter.id);
    await deliver(completed);
    stripe.failures.set('/v1/billing_portal/sessions', 3);
    const res = await openPortal(user);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('payment_provider_unavailable');
  });
});
