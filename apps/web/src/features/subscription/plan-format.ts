import { DEFAULT_CURRENCY, type TSubscriptionPlan } from '@threadreach/contract';

export { profilesText } from '@threadreach/contract';

/** A plan's price: the amount in minor units divided by 100, in the plan's currency (default USD). */
export function formatPlanPrice(
  plan: Pick<TSubscriptionPlan, 'amount'> & { currency?: string | null },
): string {
  const currency = (plan.currency || DEFAULT_CURRENCY).toUpperCase();
  const value = plan.amount / 100;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    // Not an ISO currency Intl knows: show the number and the code as given.
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** The billing interval as text: 'one-time', 'per month', or 'every 3 months'. */
export function planIntervalText(plan: {
  interval?: TSubscriptionPlan['interval'] | undefined;
  interval_count?: number | null | undefined;
}): string {
  if (!plan.interval) return 'one-time';
  const count = plan.interval_count ?? 1;
  return count > 1 ? `every ${count} ${plan.interval}s` : `per ${plan.interval}`;
}

/** A plan's renewal or end day as the subscription pages show it: 'Dec 29, 2026'. */
export function formatPeriodEnd(value: string | null): string | null {
  return value ? new Date(value).toLocaleDateString('en-US', { dateStyle: 'medium' }) : null;
}
