import {
  SUBSCRIPTION_STATUSES,
  type TSubscriptionPlan,
  type TSubscriptionStatus,
} from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';

/**
 * A provider event in Stripe's shape (`id`, `type`, `data.object`). Stripe's verified webhook events
 * have it, and the local checkout builds the same shape, so both go through one fulfilment function.
 */
export interface PaymentEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

/** A subscription as the provider holds it now. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** The user named in the subscription's metadata when the checkout created it. */
  userId: string | null;
  status: TSubscriptionStatus;
  priceId: string | null;
  /** From the price's `profiles_limit` metadata; 0 when the price has none. */
  profilesLimit: number;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** Canceled because payment failed or was disputed: no access for the rest of the period. */
  endedForNonPayment: boolean;
}

export interface CheckoutRequest {
  userId: string;
  customerId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  /** One key per checkout attempt: a retried request creates no second session. */
  idempotencyKey: string;
}

export interface PortalRequest {
  customerId: string;
  /** Where the portal's way back leads. */
  returnUrl: string;
  /** The caller's clock: a local portal session ends an hour after it. */
  now: Date;
}

/** The webhook's signature did not verify (wrong secret, changed body, stale timestamp, no header). */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** Payments behind one small interface: Stripe in production, the local checkout in the embedded default. */
export interface PaymentsProvider {
  readonly kind: 'stripe' | 'local';
  /** Plans on sale, cheapest first. */
  listPlans(): Promise<TSubscriptionPlan[]>;
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  /**
   * Stripe expires the customer's other open Checkout Sessions before it answers, so only the newest
   * can be paid; the local checkout page checks for a running plan at Complete purchase instead.
   */
  createCheckoutSession(input: CheckoutRequest): Promise<{ sessionId: string; checkoutUrl: string }>;
  /** A short-lived page where the customer changes or cancels their plan. */
  createPortalSession(input: PortalRequest): Promise<{ url: string }>;
  /**
   * The subscription's current state, or null when the provider does not know it. `db` is the caller's
   * transaction: the local provider reads its own table through it (PGlite has one connection, so a
   * second handle would wait for the transaction forever); Stripe ignores it.
   */
  retrieveSubscription(
    subscriptionId: string,
    options?: { db?: DbOrTx },
  ): Promise<ProviderSubscription | null>;
  /**
   * Verifies a webhook delivery on its raw body and returns the event; throws WebhookSignatureError.
   * Null when this provider sends no webhooks.
   */
  readonly webhooks: {
    constructEvent(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
  } | null;
}

/** Subscription states that give access while they last (past_due: the provider is still retrying). */
export const ACCESS_STATUSES: readonly TSubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** Maps a provider's status string onto the contract's list; an unknown status gives no access. */
export function toSubscriptionStatus(status: string): TSubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
    ? (status as TSubscriptionStatus)
    : 'incomplete';
}

/** A positive whole number of profiles from metadata, else 0. */
export function profilesLimitFromMetadata(metadata: Record<string, string> | null | undefined): number {
  const raw = metadata?.profiles_limit?.trim();
  if (!raw || !/^\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
