import { z } from 'zod';
import { ZIsoDateTime, ZText } from './common.schema';

/** Billing intervals of a plan; a plan without one is paid once ('one-time'). */
export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export const ZBillingInterval = z.enum(BILLING_INTERVALS);
export type TBillingInterval = z.infer<typeof ZBillingInterval>;

/** Currency of a plan that does not name one (spec section 9). */
export const DEFAULT_CURRENCY = 'usd';

/** The spec's 'Up to N profiles', in the singular for a plan of one. */
export function profilesText(limit: number): string {
  return `Up to ${limit} ${limit === 1 ? 'profile' : 'profiles'}`;
}

/**
 * A subscription plan (spec section 3). `amount` is in minor units (cents); `profiles_limit` is the number
 * of connected accounts and projects the plan allows.
 */
export const ZSubscriptionPlan = z
  .object({
    price_id: z.string().min(1).max(255),
    product_name: z.string().min(1).max(200),
    amount: z.number().int().min(0),
    currency: z
      .string()
      .regex(/^[a-zA-Z]{3}$/, { error: 'currency must be a three-letter ISO code' })
      .default(DEFAULT_CURRENCY),
    interval: ZBillingInterval.nullable().default('month'),
    interval_count: z.number().int().min(1).max(365).default(1),
    profiles_limit: z.number().int().min(1).max(10_000),
    description: z.string().max(1000).nullable().default(null),
  })
  .meta({ id: 'SubscriptionPlan' });
export type TSubscriptionPlan = z.infer<typeof ZSubscriptionPlan>;

/** GET /billing/available-plans: every plan on sale, cheapest first. */
export const ZAvailablePlansResponse = z.array(ZSubscriptionPlan);
export type TAvailablePlansResponse = z.infer<typeof ZAvailablePlansResponse>;

/**
 * The code of the 409 a checkout gets while the customer has a plan still running (renewing, or
 * canceled with paid time left): a checkout would start a second subscription beside it.
 */
export const ALREADY_SUBSCRIBED = 'already_subscribed';

/** The code of the 403 a checkout gets from moderators and admins, whose profiles have no limit. */
export const NO_PLAN_NEEDED = 'no_plan_needed';

export const ZCreateCheckoutSessionRequest = z.object({
  price_id: ZText({ error: 'price_id is required' })
    .trim()
    .min(1, { error: 'price_id is required' })
    .max(255),
});
export type TCreateCheckoutSessionRequest = z.infer<typeof ZCreateCheckoutSessionRequest>;

/** Where to send the browser to pay, and the limit the plan will give (spec section 3, Checkout session). */
export const ZCheckoutSessionResponse = z.object({
  session_id: z.string(),
  customer_id: z.string(),
  checkout_url: z.string(),
  profiles_limit: z.number().int(),
});
export type TCheckoutSessionResponse = z.infer<typeof ZCheckoutSessionResponse>;

export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type TSubscriptionStatus = z.infer<typeof ZSubscriptionStatus>;

export const ZUserSubscriptionParams = z.object({ userId: z.uuid({ error: 'User not found' }) });

/** One of a user's subscriptions, as the subscription lookup shows it. */
export const ZHeldSubscription = z.object({
  status: ZSubscriptionStatus,
  price_id: z.string().nullable(),
  profiles_limit: z.number().int(),
  current_period_end: ZIsoDateTime.nullable(),
  cancel_at_period_end: z.boolean(),
  /** Still running now: renewing, or canceled with paid time left. No other plan is sold beside it. */
  gives_access: z.boolean(),
});
export type THeldSubscription = z.infer<typeof ZHeldSubscription>;

/**
 * GET /users/{userId}/subscription (spec section 3, Subscription lookup): the limit that applies to the
 * user's connected accounts and projects, what they use of it, and the subscriptions it comes from.
 * Moderators and admins are `unlimited`. `subscriptions` lists every plan that gives access now (a user may
 * hold several; the highest limit applies), highest limit first; when none does, the latest one, ended; it
 * is empty when the user never bought one. `subscription` is its first (null when empty).
 */
export const ZUserSubscriptionResponse = z.object({
  user_id: z.string(),
  user_email: z.string(),
  profiles_limit: z.number().int(),
  projects_limit: z.number().int(),
  projects_used: z.number().int(),
  /** Reddit accounts connected over all the user's projects, counted against the same limit. */
  accounts_used: z.number().int(),
  unlimited: z.boolean(),
  has_active_subscription: z.boolean(),
  subscription: ZHeldSubscription.nullable(),
  subscriptions: z.array(ZHeldSubscription),
});
export type TUserSubscriptionResponse = z.infer<typeof ZUserSubscriptionResponse>;

/**
 * Where to send the browser to change or cancel the plan: Stripe's customer portal, or the embedded
 * default's demo page. Its address is short-lived and works without signing in again, like a checkout's.
 */
export const ZPortalSessionResponse = z.object({ portal_url: z.string() });
export type TPortalSessionResponse = z.infer<typeof ZPortalSessionResponse>;

/** Answer to a webhook delivery the server accepted. */
export const ZWebhookResponse = z.object({
  received: z.literal(true),
  duplicate: z.boolean(),
});
export type TWebhookResponse = z.infer<typeof ZWebhookResponse>;
