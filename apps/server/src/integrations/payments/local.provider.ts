import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { LOCAL_CHECKOUT_PATH, type TSubscriptionPlan } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { sortPlans } from './billing-plans';
import { localPaymentSubscriptions } from './local-payments.table';
import { toSubscriptionStatus, type PaymentsProvider, type ProviderSubscription } from './payments.provider';

const SESSION_PREFIX = 'cs_local_';

/** The embedded default's payment provider: plans from configuration and a checkout page that charges nothing. */
export interface LocalPaymentsProvider extends PaymentsProvider {
  readonly kind: 'local';
  /**
   * Starts the subscription a completed local checkout bought, as Stripe would when its checkout
   * completes. The same session always gives the same subscription.
   */
  startSubscription(input: {
    sessionId: string;
    userId: string;
    customerId: string;
    plan: TSubscriptionPlan;
    /** The start of the first period, from the caller's clock. */
    now: Date;
  }): Promise<string>;
}

export function isLocalProvider(provider: PaymentsProvider): provider is LocalPaymentsProvider {
  return provider.kind === 'local';
}

/** The end of the first paid period of a plan bought at `start`; null for a one-time plan. */
export function periodEnd(plan: TSubscriptionPlan, start: Date): Date | null {
  if (!plan.interval) return null;
  const end = new Date(start);
  const n = plan.interval_count;
  if (plan.interval === 'day') end.setUTCDate(end.getUTCDate() + n);
  else if (plan.interval === 'week') end.setUTCDate(end.getUTCDate() + 7 * n);
  else {
    // Like Stripe's billing anchor: Jan 31 + 1 month is Feb 28 (or 29), not Mar 3.
    const day = end.getUTCDate();
    end.setUTCDate(1);
    end.setUTCMonth(end.getUTCMonth() + (plan.interval === 'month' ? n : 12 * n));
    const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
    end.setUTCDate(Math.min(day, lastDay));
  }
  return end;
}

export function createLocalProvider(
  db: DbOrTx,
  options: { plans: TSubscriptionPlan[]; publicUrl: string },
): LocalPaymentsProvider {
  const plans = sortPlans(options.plans);
  return {
    kind: 'local',
    webhooks: null,

    async listPlans() {
      return plans;
    },

    async createCustomer({ userId }) {
      return `cus_local_${userId.replace(/-/g, '')}`;
    },

    async createCheckoutSession() {
      const sessionId = `${SESSION_PREFIX}${randomBytes(24).toString('base64url')}`;
      return { sessionId, checkoutUrl: `${options.publicUrl}${LOCAL_CHECKOUT_PATH}/${sessionId}` };
    },

    async startSubscription({ sessionId, userId, customerId, plan, now }) {
      const id = `sub_local_${sessionId.slice(SESSION_PREFIX.length)}`;
      await db
        .insert(localPaymentSubscriptions)
        .values({
          id,
          customerId,
          userId,
          priceId: plan.price_id,
          profilesLimit: plan.profiles_limit,
          status: 'active',
          currentPeriodEnd: periodEnd(plan, now),
        })
        .onConflictDoNothing();
      return id;
    },

    async retrieveSubscription(subscriptionId, options = {}): Promise<ProviderSubscription | null> {
      const rows = await (options.db ?? db)
        .select()
        .from(localPaymentSubscriptions)
        .where(eq(localPaymentSubscriptions.id, subscriptionId))
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      return {
        id: row.id,
        customerId: row.customerId,
        userId: row.userId,
        status: toSubscriptionStatus(row.status),
        priceId: row.priceId,
        profilesLimit: row.profilesLimit,
        currentPeriodEnd: row.currentPeriodEnd,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
        endedForNonPayment: false,
      };
    },
  };
}
