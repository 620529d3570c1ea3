import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table';

/** The payment provider's customer of each user: created once, reused by every checkout. */
export const billingCustomers = pgTable('billing_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per provider subscription, holding the provider's state as last read from the provider
 * (never as an event claimed it). A user's profiles_limit is the highest limit among the rows that
 * still give access (docs/decisions/012-billing-fulfilment.md).
 */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    priceId: text('price_id'),
    status: text('status').notNull(),
    profilesLimit: integer('profiles_limit').notNull().default(0),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Ended for non-payment or a dispute: access stops at once, not at the period end. */
    endedForNonPayment: boolean('ended_for_non_payment').notNull().default(false),
    /** Set once the end of access has been applied to the user's limit; null while it may still give access. */
    expiryAppliedAt: timestamp('expiry_applied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('billing_subscriptions_user_idx').on(t.userId),
    index('billing_subscriptions_period_end_idx').on(t.currentPeriodEnd),
  ],
);
export type BillingSubscriptionRow = typeof billingSubscriptions.$inferSelect;

/** Provider events already fulfilled: the id is inserted in the same transaction as the fulfilment. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Checkout sessions started by users, with the idempotency key of the attempt that created them. */
export const billingCheckoutSessions = pgTable(
  'billing_checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    priceId: text('price_id').notNull(),
    profilesLimit: integer('profiles_limit').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    checkoutUrl: text('checkout_url').notNull(),
    /** open, complete or expired. */
    status: text('status').notNull().default('open'),
    subscriptionId: text('subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('billing_checkout_sessions_user_idx').on(t.userId, t.createdAt)],
);
export type BillingCheckoutSessionRow = typeof billingCheckoutSessions.$inferSelect;
