import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe, parseStripeForm } from './fake-stripe.server';
import { periodEnd } from './local.provider';
import { profilesLimitFromMetadata, WebhookSignatureError, type PaymentsProvider } from './payments.provider';
import { createStripeProvider, PLANS_CACHE_MS } from './stripe.provider';

let fake: FakeStripe;
let clock = 1_000_000;
let provider: PaymentsProvider;

beforeAll(async () => {
  fake = await new FakeStripe().start();
  const api = new URL(fake.url);
  provider = createStripeProvider(
    {
      kind: 'stripe',
      secretKey: fake.secretKey,
      webhookSecret: fake.webhookSecret,
      api: { host: api.hostname, port: Number(api.port), protocol: 'http' },
      priceIds: null,
    },
    { now: () => clock },
  );
});
afterAll(() => fake.stop());

describe('Stripe provider', () => {
  it('maps prices to plans and reads Stripe again only after the cache expires', async () => {
    fake.addPrice({
      id: 'price_quarterly',
      productName: 'Quarterly',
      unitAmount: 15000,
      currency: 'EUR',
      interval: 'month',
      intervalCount: 3,
      profilesLimit: '4',
    });
    fake.addPrice({ id: 'price_bad_limit', productName: 'Bad', unitAmount: 100, profilesLimit: 'lots' });
    const plans = await provider.listPlans();
    expect(plans).toEqual([
      {
        price_id: 'price_quarterly',
        product_name: 'Quarterly',
        amount: 15000,
        currency: 'eur',
        interval: 'month',
        interval_count: 3,
        profiles_limit: 4,
        description: null,
      },
    ]);
    const listCalls = fake.requests.filter((r) => r.path === '/v1/prices');
    expect(listCalls).toHaveLength(1);
    expect(listCalls[0]!.query).toMatchObject({
      active: 'true',
      type: 'recurring',
      expand: ['data.product'],
    });

    fake.addPrice({ id: 'price_new', productName: 'New', unitAmount: 500, profilesLimit: '1' });
    await provider.listPlans();
    expect(fake.count('GET', '/v1/prices')).toBe(1);
    clock += PLANS_CACHE_MS;
    expect((await provider.listPlans()).map((p) => p.price_id)).toEqual(['price_new', 'price_quarterly']);
    expect(fake.count('GET', '/v1/prices')).toBe(2);
  });

  it('does not cache a failed read', async () => {
    clock += PLANS_CACHE_MS;
    fake.failures.set('/v1/prices', 3);
    await expect(provider.listPlans()).rejects.toThrow();
    expect((await provider.listPlans()).length).toBeGreaterThan(0);
  });

  it('reads a subscription as Stripe holds it, and null for one Stripe does not know', async () => {
    const customer = 'cus_known';
    fake.customers.set(customer, { id: customer });
    const sub = fake.createSubscription({
      customer,
      priceId: 'price_quarterly',
      metadata: { user_id: 'u-1' },
    });
    fake.updateSubscription(sub.id as string, { status: 'canceled', cancellationReason: 'payment_disputed' });
    expect(await provider.retrieveSubscription(sub.id as string)).toMatchObject({
      id: sub.id,
      customerId: customer,
      userId: 'u-1',
      status: 'canceled',
      priceId: 'price_quarterly',
      profilesLimit: 4,
      cancelAtPeriodEnd: false,
      endedForNonPayment: true,
    });
    expect(await provider.retrieveSubscription('sub_missing')).toBeNull();
  });

  it("verifies webhooks with Stripe's signature scheme on the raw body", async () => {
    const event = fake.event('customer.subscription.updated', { id: 'sub_1', object: 'subscription' });
    const { payload, header } = fake.sign(event);
    await expect(provider.webhooks!.constructEvent(Buffer.from(payload), header)).resolves.toMatchObject({
      id: event.id,
      type: 'customer.subscription.updated',
    });
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    await expect(provider.webhooks!.constructEvent(Buffer.from(payload), forged)).rejects.toThrow(
      WebhookSignatureError,
    );
    await expect(provider.webhooks!.constructEvent(Buffer.from(payload), undefined)).rejects.toThrow(
      'Missing Stripe-Signature header',
    );
    await expect(provider.webhooks!.constructEvent(Buffer.from(`${payload} `), header)).rejects.toThrow(
      WebhookSignatureError,
    );
  });
});

describe('helpers', () => {
  it('reads profiles_limit metadata only as a positive whole number', () => {
    expect(profilesLimitFromMetadata({ profiles_limit: '3' })).toBe(3);
    expect(profilesLimitFromMetadata({ profiles_limit: ' 10 ' })).toBe(10);
    for (const bad of ['0', '-1', '2.5', 'three', '']) {
      expect(profilesLimitFromMetadata({ profiles_limit: bad })).toBe(0);
    }
    expect(profilesLimitFromMetadata(null)).toBe(0);
  });

  it('decodes Stripe form encoding', () => {
    expect(
      parseStripeForm(
        'line_items[0][price]=p&line_items[0][quantity]=1&metadata[user_id]=u&expand[0]=data.product',
      ),
    ).toEqual({
      line_items: [{ price: 'p', quantity: '1' }],
      metadata: { user_id: 'u' },
      expand: ['data.product'],
    });
  });

  it('ends the first local period one interval after the start', () => {
    const start = new Date('2030-01-31T12:00:00Z');
    const plan = { interval: 'month', interval_count: 1 } as const;
    expect(periodEnd({ ...plan } as never, start)?.toISOString()).toBe('2030-02-28T12:00:00.000Z');
    expect(periodEnd({ interval: 'week', interval_count: 2 } as never, start)?.toISOString()).toBe(
      '2030-02-14T12:00:00.000Z',
    );
    expect(periodEnd({ interval: 'year', interval_count: 1 } as never, start)?.toISOString()).toBe(
      '2031-01-31T12:00:00.000Z',
    );
    expect(periodEnd({ interval: null, interval_count: 1 } as never, start)).toBeNull();
  });
});
