import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stand-in for the few Stripe API endpoints the server uses, for tests: the real `stripe` library
 * talks to it over HTTP (STRIPE_API_URL). It keeps prices, customers, checkout sessions and
 * subscriptions in memory, lists and expires open checkout sessions, opens billing portal sessions, honours
 * Idempotency-Key, and answers anything else with a 404 that is also recorded in `unhandled`, so an
 * unexpected call fails the test.
 */

type Json = Record<string, unknown>;

export interface FakePriceInput {
  id?: string;
  productName: string;
  description?: string | null;
  unitAmount: number;
  currency?: string;
  interval?: 'day' | 'week' | 'month' | 'year';
  intervalCount?: number;
  /** The `profiles_limit` metadata value, as Stripe stores it (a string); omitted when undefined. */
  profilesLimit?: string;
  active?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Json;
  body: Json;
  idempotencyKey: string | null;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseStripeForm(raw: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Json = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Json;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length && entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    }
    return Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

export class FakeStripe {
  readonly secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly requests: FakeRequest[] = [];
  readonly unhandled: string[] = [];
  readonly products = new Map<string, Json>();
  readonly prices = new Map<string, Json>();
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  /** Answers the next N requests whose path starts with the key with a 500. */
  readonly failures = new Map<string, number>();
  /** Runs as an expire request arrives, before it is answered: what the customer did in that moment. */
  beforeExpire: ((sessionId: string) => void) | null = null;
  private readonly idempotent = new Map<string, { status: number; body: Json }>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.server?.close((e) => (e ? reject(e) : resolve())));
  }

  /** The environment that points the server's Stripe provider at this fake. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_URL: this.url,
      ...extra,
    };
  }

  count(method: string, pathPrefix: string): number {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)).length;
  }

  addPrice(input: FakePriceInput): Json {
    const productId = id('prod');
    const product = {
      id: productId,
      object: 'product',
      active: true,
      name: input.productName,
      description: input.description ?? null,
      metadata: {},
    };
    this.products.set(productId, product);
    const price: Json = {
      id: input.id ?? id('price'),
      object: 'price',
      active: input.active ?? true,
      currency: input.currency ?? 'usd',
      nickname: null,
      product: productId,
      type: 'recurring',
      unit_amount: input.unitAmount,
      recurring: { interval: input.interval ?? 'month', interval_count: input.intervalCount ?? 1 },
      metadata: input.profilesLimit === undefined ? {} : { profiles_limit: input.profilesLimit },
    };
    this.prices.set(price.id as string, price);
    return price;
  }

  /** What Stripe does when the customer pays: the subscription starts and the session completes. */
  completeCheckout(sessionId: string): { subscription: Json; session: Json } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    // Stripe's page of an expired (or paid) session takes no payment.
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}`);
    const lineItems = session.line_items as Array<{ price: string }>;
    const subscriptionData = (session.subscription_data ?? {}) as { metadata?: Json };
    const subscription = this.createSubscription({
      customer: session.customer as string,
      priceId: lineItems[0]!.price,
      metadata: subscriptionData.metadata ?? {},
    });
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    return { subscription, session };
  }

  createSubscription(input: {
    customer: string;
    priceId: string;
    metadata?: Json;
    periodDays?: number;
  }): Json {
    const start = nowSeconds();
    const subscription: Json = {
      id: id('sub'),
      object: 'subscription',
      customer: input.customer,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      metadata: input.metadata ?? {},
      items: { object: 'list', data: [] as Json[], has_more: false, url: '/v1/subscription_items' },
    };
    this.setPrice(subscription, input.priceId, start, start + (input.periodDays ?? 30) * 86_400);
    this.subscriptions.set(subscription.id as string, subscription);
    return subscription;
  }

  private setPrice(subscription: Json, priceId: string, start: number, end: number) {
    const price = this.prices.get(priceId);
    if (!price) throw new Error(`no price ${priceId}`);
    (subscription.items as { data: Json[] }).data = [
      {
        id: id('si'),
        object: 'subscription_item',
        price,
        quantity: 1,
        current_period_start: start,
        current_period_end: end,
      },
    ];
  }

  /** Changes a subscription as the Stripe dashboard or a renewal would. */
  updateSubscription(
    subscriptionId: string,
    change: {
      status?: string;
      cancelAtPeriodEnd?: boolean;
      priceId?: string;
      periodEnd?: number;
      cancellationReason?: 'cancellation_requested' | 'payment_failed' | 'payment_disputed';
    },
  ): Json {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    const item = (sub.items as { data: Json[] }).data[0]!;
    if (change.priceId) {
      this.setPrice(
        sub,
        change.priceId,
        item.current_period_start as number,
        item.current_period_end as number,
      );
    }
    if (change.periodEnd !== undefined)
      (sub.items as { data: Json[] }).data[0]!.current_period_end = change.periodEnd;
    if (change.status) sub.status = change.status;
    if (change.status === 'canceled') sub.canceled_at = nowSeconds();
    if (change.cancelAtPeriodEnd !== undefined) sub.cancel_at_period_end = change.cancelAtPeriodEnd;
    if (change.cancellationReason) {
      sub.cancellation_details = { comment: null, feedback: null, reason: change.cancellationReason };
    }
    return structuredClone(sub);
  }

  /** An event as Stripe would send it; `object` is a snapshot of the resource at that moment. */
  event(type: string, object: Json): Json {
    return {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** A webhook delivery: the exact body and its Stripe-Signature header, signed with Stripe's own helper. */
  sign(
    event: Json,
    options: { secret?: string; timestamp?: number } = {},
  ): { payload: string; header: string } {
    const payload = JSON.stringify(event, null, 2);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    });
    return { payload, header };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const query = parseStripeForm(url.search.slice(1));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method, path: url.pathname, query, body, idempotencyKey });

    const send = (status: number, json: Json) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    for (const [prefix, left] of this.failures) {
      if (left > 0 && url.pathname.startsWith(prefix)) {
        this.failures.set(prefix, left - 1);
        return send(500, { error: { type: 'api_error', message: 'Simulated Stripe outage' } });
      }
    }
    const replayKey = idempotencyKey ? `${method} ${url.pathname} ${idempotencyKey}` : null;
    const replay = replayKey ? this.idempotent.get(replayKey) : undefined;
    if (replay) return send(replay.status, replay.body);

    const [status, json] = this.route(method, url.pathname, query, body);
    if (replayKey && method === 'POST') this.idempotent.set(replayKey, { status, body: json });
    return send(status, json);
  }

  private route(method: string, path: string, query: Json, body: Json): [number, Json] {
    const missing = (what: string): [number, Json] => [
      404,
      {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such ${what}`,
        },
      },
    ];

    if (method === 'GET' && path === '/v1/prices') {
      const expandProduct = ((query.expand as string[] | undefined) ?? []).includes('data.product');
      const data = [...this.prices.values()]
        .filter((p) => query.active === undefined || String(p.active) === query.active)
        .filter((p) => query.type === undefined || p.type === query.type)
        .map((p) => (expandProduct ? { ...p, product: this.products.get(p.product as string) } : p));
      return [200, { object: 'list', data, has_more: false, url: '/v1/prices' }];
    }

    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: body.email ?? null,
        metadata: body.metadata ?? {},
      };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const lineItems = body.line_items as Array<{ price?: string }> | undefined;
      const priceId = lineItems?.[0]?.price;
      if (!priceId || !this.prices.has(priceId)) return missing(`price: '${priceId}'`);
      if (typeof body.customer !== 'string' || !this.customers.has(body.customer)) {
        return missing(`customer: '${String(body.customer)}'`);
      }
      const sessionId = id('cs_test');
      const session: Json = {
        id: sessionId,
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        subscription_data: body.subscription_data ?? {},
        line_items: lineItems,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: 'open',
        payment_status: 'unpaid',
        created: nowSeconds(),
        subscription: null,
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      };
      this.sessions.set(sessionId, session);
      const { subscription_data: _s, line_items: _l, ...visible } = session;
      return [200, visible];
    }

    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...this.sessions.values()]
        .filter((s) => query.customer === undefined || s.customer === query.customer)
        .filter((s) => query.status === undefined || s.status === query.status)
        .map(({ subscription_data: _s, line_items: _l, ...visible }) => visible);
      return [200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' }];
    }

    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) {
      const sessionId = decodeURIComponent(expire[1]!);
      this.beforeExpire?.(sessionId);
      const session = this.sessions.get(sessionId);
      if (!session) return missing(`checkout.session: '${sessionId}'`);
      // Only an open session can be expired.
      if (session.status !== 'open') {
        return [
          400,
          {
            error: {
              type: 'invalid_request_error',
              message: `This Checkout Session is ${String(session.status)} and can no longer be expired.`,
            },
          },
        ];
      }
      session.status = 'expired';
      const { subscription_data: _s, line_items: _l, ...visible } = session;
      return [200, visible];
    }

    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (typeof body.customer !== 'string' || !this.customers.has(body.customer)) {
        return missing(`customer: '${String(body.customer)}'`);
      }
      const sessionId = id('bps');
      return [
        200,
        {
          id: sessionId,
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url ?? null,
          livemode: false,
          url: `https://billing.stripe.com/p/session/test_${sessionId}`,
        },
      ];
    }

    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sub) {
      const found = this.subscriptions.get(decodeURIComponent(sub[1]!));
      return found ? [200, found] : missing(`subscription: '${sub[1]}'`);
    }

    this.unhandled.push(`${method} ${path}`);
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }
}
