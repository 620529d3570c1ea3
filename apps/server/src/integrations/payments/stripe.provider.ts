import Stripe from 'stripe';
import { ZBillingInterval, type TSubscriptionPlan } from '@threadreach/contract';
import type { BillingConfig } from '../../config/config';
import { sortPlans } from './billing-plans';
import {
  profilesLimitFromMetadata,
  toSubscriptionStatus,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentsProvider,
  type ProviderSubscription,
} from './payments.provider';

/** Plans are read from Stripe at most this often per process. */
export const PLANS_CACHE_MS = 60_000;
/** A signed webhook older than this is refused (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

type StripeConfig = Extract<BillingConfig, { kind: 'stripe' }>;

/** Stripe Checkout, prices with `profiles_limit` metadata, and signed webhooks, through the official library. */
export function createStripeProvider(
  config: StripeConfig,
  options: { now?: () => number } = {},
): PaymentsProvider {
  const now = options.now ?? Date.now;
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(config.api ? { host: config.api.host, port: config.api.port, protocol: config.api.protocol } : {}),
  });
  let cache: { at: number; plans: Promise<TSubscriptionPlan[]> } | null = null;

  async function loadPlans(): Promise<TSubscriptionPlan[]> {
    const plans: TSubscriptionPlan[] = [];
    const wanted = config.priceIds ? new Set(config.priceIds) : null;
    for await (const price of stripe.prices.list({
      active: true,
      type: 'recurring',
      expand: ['data.product'],
      limit: 100,
    })) {
      if (wanted && !wanted.has(price.id)) continue;
      const plan = toPlan(price);
      if (plan) plans.push(plan);
    }
    return sortPlans(plans);
  }

  /**
   * One checkout at a time: a session opened earlier (another tab, an earlier click) could otherwise be
   * paid beside the new one and bill a second subscription.
   */
  async function expireOtherOpenSessions(customerId: string, keepId: string): Promise<void> {
    const open: string[] = [];
    for await (const session of stripe.checkout.sessions.list({
      customer: customerId,
      status: 'open',
      limit: 100,
    })) {
      if (session.id !== keepId) open.push(session.id);
    }
    for (const id of open) {
      try {
        await stripe.checkout.sessions.expire(id);
      } catch (error) {
        // No longer open: paid (or expired) since it was listed. The webhook fulfils a paid one, and the
        // customer's next checkout is refused while that plan runs.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) continue;
        throw error;
      }
    }
  }

  return {
    kind: 'stripe',

    listPlans() {
      if (!cache || now() - cache.at >= PLANS_CACHE_MS) {
        const plans = loadPlans();
        cache = { at: now(), plans };
        // A failed read is not cached: the next request tries again.
        plans.catch(() => {
          if (cache?.plans === plans) cache = null;
        });
      }
      return cache.plans;
    },

    async createCustomer({ userId, email }) {
      const customer = await stripe.customers.create(
        { email, metadata: { user_id: userId } },
        { idempotencyKey: `customer-${userId}` },
      );
      return customer.id;
    },

    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { user_id: input.userId },
          subscription_data: { metadata: { user_id: input.userId } },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      await expireOtherOpenSessions(input.customerId, session.id);
      return { sessionId: session.id, checkoutUrl: session.url };
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return { url: session.url };
    },

    async retrieveSubscription(subscriptionId) {
      try {
        return toProviderSubscription(await stripe.subscriptions.retrieve(subscriptionId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    webhooks: {
      async constructEvent(rawBody, signature) {
        if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
        try {
          const event = await stripe.webhooks.constructEventAsync(
            rawBody,
            signature,
            config.webhookSecret,
            WEBHOOK_TOLERANCE_SECONDS,
          );
          return event as unknown as PaymentEvent;
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
            throw new WebhookSignatureError(error.message);
          }
          throw new WebhookSignatureError('Webhook payload could not be read');
        }
      },
    },
  };
}

function toPlan(price: Stripe.Price): TSubscriptionPlan | null {
  const limit = profilesLimitFromMetadata(price.metadata);
  if (!limit || price.unit_amount === null) return null;
  const product = typeof price.product === 'object' && !('deleted' in price.product) ? price.product : null;
  if (product && !product.active) return null;
  const interval = ZBillingInterval.safeParse(price.recurring?.interval);
  return {
    price_id: price.id,
    product_name: product?.name ?? price.nickname ?? price.id,
    amount: price.unit_amount,
    currency: price.currency.toLowerCase(),
    interval: interval.success ? interval.data : null,
    interval_count: price.recurring?.interval_count ?? 1,
    profiles_limit: limit,
    description: product?.description ?? null,
  };
}

function toProviderSubscription(sub: Stripe.Subscription): ProviderSubscription {
  const item = sub.items.data[0];
  const periodEnds = sub.items.data.map((i) => i.current_period_end).filter((n) => typeof n === 'number');
  const reason = sub.cancellation_details?.reason;
  return {
    id: sub.id,
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    userId: sub.metadata?.user_id ?? null,
    status: toSubscriptionStatus(sub.status),
    priceId: item?.price.id ?? null,
    profilesLimit: Math.max(0, ...sub.items.data.map((i) => profilesLimitFromMetadata(i.price.metadata))),
    currentPeriodEnd: periodEnds.length ? new Date(Math.max(...periodEnds) * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    endedForNonPayment: reason === 'payment_failed' || reason === 'payment_disputed',
  };
}
