import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import { LOCAL_CHECKOUT_PATH, LOCAL_PORTAL_PATH, type TSubscriptionPlan } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { sortPlans } from './billing-plans';
import { localPaymentSubscriptions, localPortalSessions } from './local-payments.table';
import { toSubscriptionStatus, type PaymentsProvider, type ProviderSubscription } from './payments.provider';

const SESSION_PREFIX = 'cs_local_';
/** A local portal session ends this long after it was made (Stripe's last an hour once opened). */
export const LOCAL_PORTAL_SESSION_MS = 60 * 60_000;

/** A plan the local checkout sold, as its portal lists it. */
export interface LocalSubscription extends ProviderSubscription {
  createdAt: Date;
}

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
  /** The customer and way back of a portal session; 'expired' after its hour, null when unknown. */
  findPortalSession(
    sessionId: string,
    now: Date,
  ): Promise<{ customerId: string; returnUrl: string } | 'expired' | null>;
  /** The customer's plans, newest first. */
  listSubscriptionsOf(customerId: string): Promise<LocalSubscription[]>;
  /**
   * Cancels the customer's plan if it still renews: what was paid for lasts to the end of its period.
   * False when the customer has no such plan that renews.
   */
  cancelSubscription(customerId: string, subscriptionId: string): Promise<boolean>;
  /**
   * Makes the customer's canceled plan renew again, as Stripe's portal "Renew plan" does, while its paid
   * period still runs at `now`. False when the customer has no such plan.
   */
  renewSubscription(customerId: string, subscriptionId: string, now: Date): Promise<boolean>;
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

    async createPortalSession({ customerId, returnUrl, now }) {
      const id = `bps_local_${randomBytes(24).toString('base64url')}`;
      const expiresAt = new Date(now.getTime() + LOCAL_PORTAL_SESSION_MS);
      await db.delete(localPortalSessions).where(lt(localPortalSessions.expiresAt, now));
      await db.insert(localPortalSessions).values({ id, customerId, returnUrl, expiresAt });
      return { url: `${options.publicUrl}${LOCAL_PORTAL_PATH}/${id}` };
    },

    async findPortalSession(sessionId, now) {
      const rows = await db
        .select()
        .from(localPortalSessions)
        .where(eq(localPortalSessions.id, sessionId))
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
      return { customerId: row.customerId, returnUrl: row.returnUrl };
    },

    async listSubscriptionsOf(customerId) {
      const rows = await db
        .select()
        .from(localPaymentSubscriptions)
        .where(eq(localPaymentSubscriptions.customerId, customerId))
        .orderBy(desc(localPaymentSubscriptions.createdAt), desc(localPaymentSubscriptions.id));
      return rows.map((row) => ({ ...toProviderSubscription(row), createdAt: row.createdAt }));
    },

    async cancelSubscription(customerId, subscriptionId) {
      const canceled = await db
        .update(localPaymentSubscriptions)
        .set({ status: 'canceled' })
        .where(
          and(
            eq(localPaymentSubscriptions.id, subscriptionId),
            eq(localPaymentSubscriptions.customerId, customerId),
            eq(localPaymentSubscriptions.status, 'active'),
          ),
        )
        .returning({ id: localPaymentSubscriptions.id });
      return canceled.length > 0;
    },

    async renewSubscription(customerId, subscriptionId, now) {
      const renewed = await db
        .update(localPaymentSubscriptions)
        .set({ status: 'active', cancelAtPeriodEnd: false })
        .where(
          and(
            eq(localPaymentSubscriptions.id, subscriptionId),
            eq(localPaymentSubscriptions.customerId, customerId),
            eq(localPaymentSubscriptions.status, 'canceled'),
            // An ended plan is over: a new one is bought instead.
            gt(localPaymentSubscriptions.currentPeriodEnd, now),
          ),
        )
        .returning({ id: localPaymentSubscriptions.id });
      return renewed.length > 0;
    },

    async retrieveSubscription(subscriptionId, options = {}): Promise<ProviderSubscription | null> {
      const rows = await (options.db ?? db)
        .select()
        .from(localPaymentSubscriptions)
        .where(eq(localPaymentSubscriptions.id, subscriptionId))
        .limit(1);
      return rows[0] ? toProviderSubscription(rows[0]) : null;
    },
  };
}

function toProviderSubscription(row: typeof localPaymentSubscriptions.$inferSelect): ProviderSubscription {
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
}
