import { z } from 'zod';
import { ZSubscriptionPlan, type TSubscriptionPlan } from '@threadreach/contract';

/** The plans of the local checkout when BILLING_PLANS is not set. */
export const DEFAULT_BILLING_PLANS: TSubscriptionPlan[] = [
  {
    price_id: 'price_local_starter',
    product_name: 'Starter',
    amount: 2900,
    currency: 'usd',
    interval: 'month',
    interval_count: 1,
    profiles_limit: 1,
    description: 'One connected Reddit account and one project.',
  },
  {
    price_id: 'price_local_growth',
    product_name: 'Growth',
    amount: 7900,
    currency: 'usd',
    interval: 'month',
    interval_count: 1,
    profiles_limit: 3,
    description: 'Three connected accounts and three projects.',
  },
  {
    price_id: 'price_local_scale',
    product_name: 'Scale',
    amount: 19900,
    currency: 'usd',
    interval: 'month',
    interval_count: 1,
    profiles_limit: 10,
    description: 'Ten connected accounts and ten projects for agencies.',
  },
];

const ZPlanList = z
  .array(ZSubscriptionPlan)
  .min(1, { error: 'must list at least one plan' })
  .refine((plans) => new Set(plans.map((p) => p.price_id)).size === plans.length, {
    error: 'price_id values must be unique',
  });

/** BILLING_PLANS: a JSON array of plans in the shape of spec section 3; throws a message for the config error. */
export function parseBillingPlans(raw: string): TSubscriptionPlan[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON array of plans');
  }
  const parsed = ZPlanList.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new Error(`${where}${issue.message}`);
  }
  return parsed.data.map((p) => ({ ...p, currency: p.currency.toLowerCase() }));
}

/** Cheapest first, then by limit: the order the plan chooser shows. */
export function sortPlans(plans: TSubscriptionPlan[]): TSubscriptionPlan[] {
  return [...plans].sort((a, b) => a.amount - b.amount || a.profiles_limit - b.profiles_limit);
}
