import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCookieFor } from '../auth/auth.test-support';
import { buildProject, buildUser, signedIn, type TestUser } from '../../test/factories';
import { buildAccount } from '../accounts/accounts.test-support';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ensureUser, findUserById } from '../users';
import { fixedClock } from '../../test/clock.test-support';
import { startCheckout } from './billing.test-support';
import { upsertSubscription } from './billing.repository';
import { applyEndedSubscriptions } from './billing.service';

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
const tryCheckout = (user: TestUser, priceId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/create-checkout-session',
    headers: user.auth,
    payload: { price_id: priceId },
  });

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

  it("says 'Up to 1 profile' for a plan of one", async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, 'price_solo');
    const page = await t.app.inject({ url: pathOf(session.checkout_url) });
    expect(page.body).toContain('Up to 1 profile<');
    expect(page.body).not.toContain('Up to 1 profiles');
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

  it('starts no checkout while a plan still runs (409), whichever plan is chosen, and sells again once it ended', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const session = await checkout(user, 'price_solo');
    await post(`${pathOf(session.checkout_url)}/complete`);
    for (const priceId of ['price_solo', 'price_duo']) {
      const again = await tryCheckout(user, priceId);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        detail: 'You already have the Solo plan. Change or cancel it under Subscription.',
        code: 'already_subscribed',
      });
    }
    // A checkout opened before a plan was bought in another tab is not completed either, whatever its plan.
    const other = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const [first, second] = [await checkout(other, 'price_solo'), await checkout(other, 'price_duo')];
    expect((await post(`${pathOf(first.checkout_url)}/complete`)).statusCode).toBe(303);
    const late = await post(`${pathOf(second.checkout_url)}/complete`);
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('You already have the Solo plan.');
    expect(late.body).toMatch(/<a href="[^"]*\/subscription">Go to Subscription<\/a>/);
    const held = await t.ctx.db.execute(
      sql`select id from billing_subscriptions where user_id = ${other.id}`,
    );
    expect(held.rows).toHaveLength(1);

    // Canceled on the billing page, it runs to the end of its period: still no second plan beside it.
    const portal = (
      await t.app.inject({ method: 'POST', url: '/api/v1/billing/create-portal-session', headers: user.auth })
    ).json().portal_url as string;
    const page = await t.app.inject({ url: pathOf(portal) });
    expect((await post(/action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!)).statusCode).toBe(303);
    const [{ current_period_end: periodEnd }] = (
      await t.ctx.db.execute<{ current_period_end: string | Date }>(
        sql`select current_period_end from billing_subscriptions where user_id = ${user.id}`,
      )
    ).rows as [{ current_period_end: string | Date }];
    const day = new Date(periodEnd).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    const canceled = await tryCheckout(user, 'price_duo');
    expect(canceled.statusCode).toBe(409);
    expect(canceled.json()).toEqual({
      detail: `You canceled the Solo plan, but it runs until ${day}. You can choose a plan again once it has ended; until then, manage it under Subscription.`,
      code: 'already_subscribed',
    });

    // Once its period is over, any plan is for sale again.
    await t.ctx.db.execute(
      sql`update billing_subscriptions set current_period_end = now() - interval '1 minute' where user_id = ${user.id}`,
    );
    const bought = await checkout(user, 'price_duo');
    expect((await post(`${pathOf(bought.checkout_url)}/complete`)).statusCode).toBe(303);
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(2);
  });

  it('sells no plan to moderators and admins, whose profiles have no limit (403)', async () => {
    for (const roles of [['MODERATOR'], ['ADMIN']]) {
      const staff = await buildUser(t.ctx.db, t.config, { roles, profilesLimit: 0 });
      const res = await tryCheckout(staff, 'price_solo');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        detail:
          'Moderators and admins need no plan: their profiles have no limit, so there is nothing to buy.',
        code: 'no_plan_needed',
      });
      const sessions = await t.ctx.db.execute(
        sql`select id from billing_checkout_sessions where user_id = ${staff.id}`,
      );
      expect(sessions.rows).toEqual([]);
    }
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

  it('keeps a limit set by hand: a smaller plan leaves it, a larger one raises it, their end falls back to it', async () => {
    const cancelAndEnd = async (user: TestUser) => {
      const portal = (await openPortal(user)).json().portal_url as string;
      const page = await t.app.inject({ url: pathOf(portal) });
      expect((await post(/action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!)).statusCode).toBe(303);
      const periodEnd = new Date((await subscription(user)).subscription.current_period_end);
      await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock(periodEnd.getTime() + 60_000) });
    };
    const limitOf = async (user: TestUser) => (await findUserById(t.ctx.db, user.id))!.profilesLimit;

    // As the demo seed gives user@demo.local 3 profiles, with no billing rows.
    const seeded = await ensureUser(t.ctx.db, {
      email: `seeded-${randomUUID()}@test.local`,
      roles: ['USER'],
      profilesLimit: 3,
    });
    const handSet = await signedIn(t.config, seeded);
    const solo = await checkout(handSet, 'price_solo');
    expect((await post(`${pathOf(solo.checkout_url)}/complete`)).statusCode).toBe(303);
    expect(await limitOf(handSet)).toBe(3);
    expect(await subscription(handSet)).toMatchObject({
      profiles_limit: 3,
      subscription: { price_id: 'price_solo', profiles_limit: 1 },
    });
    await cancelAndEnd(handSet);
    expect(await limitOf(handSet)).toBe(3);

    const one = await buildUser(t.ctx.db, t.config, { profilesLimit: 1 });
    const duo = await checkout(one, 'price_duo');
    expect((await post(`${pathOf(duo.checkout_url)}/complete`)).statusCode).toBe(303);
    expect(await limitOf(one)).toBe(2);
    await cancelAndEnd(one);
    expect(await limitOf(one)).toBe(1);
  });

  it('renews a canceled plan that still runs: it renews again and can be canceled again', async () => {
    const user = await subscribed('price_duo');
    const portal = (await openPortal(user)).json().portal_url as string;
    const periodEnd = new Date((await subscription(user)).subscription.current_period_end);
    const day = periodEnd.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    const page = await t.app.inject({ url: pathOf(portal) });
    expect(page.body).not.toContain('>Renew plan<');
    expect((await post(/action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!)).statusCode).toBe(303);

    const canceled = await t.app.inject({ url: pathOf(portal) });
    expect(canceled.body).toContain(`Canceled: access until ${day}`);
    expect(canceled.body).toContain('>Renew plan<');
    const action = /action="([^"]+\/renew\/([^"]+))"/.exec(canceled.body)!;
    const subscriptionId = action[2]!;
    const renewed = await post(action[1]!);
    expect(renewed.statusCode).toBe(303);
    expect(renewed.headers.location).toBe(portal);

    const after = await t.app.inject({ url: pathOf(portal) });
    expect(after.body).toContain(`Renews on ${day}`);
    expect(after.body).toContain('Cancel plan');
    expect(after.body).not.toContain('>Renew plan<');
    expect(await subscription(user)).toMatchObject({
      profiles_limit: 2,
      subscription: {
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: periodEnd.toISOString(),
        gives_access: true,
      },
    });
    // Recorded as Cancel's change is, as Stripe's customer.subscription.updated; a second click adds none.
    expect((await post(action[1]!)).statusCode).toBe(303);
    const events = async (change: string) =>
      (
        await t.ctx.db.execute(
          sql`select type from billing_events where id like ${`evt_local_${subscriptionId}%_${change}`}`,
        )
      ).rows;
    expect(await events('renewed')).toEqual([{ type: 'customer.subscription.updated' }]);
    // It renews: its period's end takes nothing away, and no other plan is sold beside it.
    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock(periodEnd.getTime() + 60_000) });
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(2);
    expect((await tryCheckout(user, 'price_solo')).json()).toEqual({
      detail: 'You already have the Duo plan. Change or cancel it under Subscription.',
      code: 'already_subscribed',
    });

    // Canceled again, it runs out again.
    const again = await t.app.inject({ url: pathOf(portal) });
    expect((await post(/action="([^"]+\/cancel\/[^"]+)"/.exec(again.body)![1]!)).statusCode).toBe(303);
    expect((await subscription(user)).subscription.status).toBe('canceled');
    expect(await events('canceled')).toHaveLength(2);
    await applyEndedSubscriptions({ ...t.ctx, clock: fixedClock(periodEnd.getTime() + 60_000) });
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(0);
  });

  it("renews only the session's own customer's canceled plans that have not ended", async () => {
    const owner = await subscribed('price_solo');
    const other = await subscribed('price_duo');
    const cancelIn = async (user: TestUser) => {
      const portal = (await openPortal(user)).json().portal_url as string;
      const page = await t.app.inject({ url: pathOf(portal) });
      const [, action, id] = /action="([^"]+\/cancel\/([^"]+))"/.exec(page.body)!;
      expect((await post(action!)).statusCode).toBe(303);
      return { portal, id: id! };
    };
    const own = await cancelIn(owner);
    const theirs = await cancelIn(other);

    expect((await post(`${pathOf(own.portal)}/renew/${theirs.id}`)).statusCode).toBe(303);
    expect((await subscription(other)).subscription.status).toBe('canceled');
    expect((await post(`${pathOf(own.portal)}/renew/sub_local_unknown`)).statusCode).toBe(303);
    expect((await subscription(owner)).subscription.status).toBe('canceled');

    // Once its paid period is over, the plan has ended: a new one is bought instead.
    await t.ctx.db.execute(
      sql`update local_payment_subscriptions set current_period_end = now() - interval '1 minute' where id = ${own.id}`,
    );
    const ended = await t.app.inject({ url: pathOf(own.portal) });
    expect(ended.body).toContain('Ended');
    expect(ended.body).not.toContain('>Renew plan<');
    expect((await post(`${pathOf(own.portal)}/renew/${own.id}`)).statusCode).toBe(303);
    const [stored] = (
      await t.ctx.db.execute(sql`select status from local_payment_subscriptions where id = ${own.id}`)
    ).rows;
    expect(stored).toEqual({ status: 'canceled' });
    expect((await subscription(owner)).subscription.status).toBe('canceled');

    expect((await post(`/billing/local-portal/bps_local_nope/renew/${theirs.id}`)).statusCode).toBe(404);
    const id = pathOf(theirs.portal).split('/').at(-1)!;
    await t.ctx.db.execute(
      sql`update local_portal_sessions set expires_at = now() - interval '1 second' where id = ${id}`,
    );
    const late = await post(`${pathOf(theirs.portal)}/renew/${theirs.id}`);
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('This billing session has ended. Open it again from your subscription.');
    expect((await subscription(other)).subscription.status).toBe('canceled');
  });

  it('lists every plan held: one canceled and still running, and a second plan beside it', async () => {
    const user = await subscribed('price_duo');
    // Held from before one plan at a time was the rule: no checkout sells them together now.
    const [{ customer_id: customerId }] = (
      await t.ctx.db.execute<{ customer_id: string }>(
        sql`select customer_id from billing_subscriptions where user_id = ${user.id}`,
      )
    ).rows as [{ customer_id: string }];
    const periodEnd = new Date(Date.now() + 5 * 86_400_000);
    for (const [priceId, status, profilesLimit] of [
      ['price_duo', 'canceled', 2],
      ['price_solo', 'active', 1],
    ] as const) {
      await upsertSubscription(t.ctx.db, {
        id: `sub_held_${randomUUID()}`,
        userId: user.id,
        customerId,
        priceId,
        status,
        profilesLimit,
        currentPeriodEnd: periodEnd,
      });
    }

    const lookup = await subscription(user);
    expect(lookup.profiles_limit).toBe(2);
    const held = lookup.subscriptions.map(
      (s: { price_id: string; status: string; gives_access: boolean }) => [
        s.price_id,
        s.status,
        s.gives_access,
      ],
    );
    // The highest limit first, of equal ones the plan that renews.
    expect(held).toEqual([
      ['price_duo', 'active', true],
      ['price_duo', 'canceled', true],
      ['price_solo', 'active', true],
    ]);
    expect(lookup.subscription).toEqual(lookup.subscriptions[0]);
    // No plan is sold beside them.
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
