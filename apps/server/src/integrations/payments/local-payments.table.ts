import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The local checkout's own record of the subscriptions it sold, standing in for the provider's side
 * in the embedded default (Stripe keeps these for us in production).
 */
export const localPaymentSubscriptions = pgTable('local_payment_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  userId: text('user_id').notNull(),
  priceId: text('price_id').notNull(),
  profilesLimit: integer('profiles_limit').notNull(),
  status: text('status').notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sessions of the local billing portal, standing in for Stripe's customer portal sessions: the id in
 * the page's address is the capability, and it ends an hour after it was made.
 */
export const localPortalSessions = pgTable('local_portal_sessions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  returnUrl: text('return_url').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
