import { and, desc, eq, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx as Db } from '../../db/client';
import { projects } from '../projects/projects.table';
import {
  billingCheckoutSessions,
  billingCustomers,
  billingEvents,
  billingSubscriptions,
  type BillingCheckoutSessionRow,
  type BillingSubscriptionRow,
} from './billing.table';

export async function findCustomerId(db: Db, userId: string): Promise<string | null> {
  const rows = await db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
    .limit(1);
  return rows[0]?.customerId ?? null;
}

/** Keeps the first customer stored for the user; returns the one that is stored. */
export async function insertCustomer(db: Db, userId: string, customerId: string): Promise<string> {
  await db.insert(billingCustomers).values({ userId, customerId }).onConflictDoNothing();
  return (await findCustomerId(db, userId))!;
}

export async function findUserIdByCustomer(db: Db, customerId: string): Promise<string | null> {
  const rows = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
    .limit(1);
  return rows[0]?.userId ?? null;
}

export async function insertCheckoutSession(
  db: Db,
  values: typeof billingCheckoutSessions.$inferInsert,
): Promise<void> {
  await db.insert(billingCheckoutSessions).values(values);
}

export async function findCheckoutSession(db: Db, id: string): Promise<BillingCheckoutSessionRow | null> {
  const rows = await db
    .select()
    .from(billingCheckoutSessions)
    .where(eq(billingCheckoutSessions.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** An open session becomes complete (with its subscription) or expired; a finished one stays as it is. */
export async function finishCheckoutSession(
  db: Db,
  id: string,
  outcome: { status: 'complete'; subscriptionId: string | null } | { status: 'expired' },
): Promise<void> {
  await db
    .update(billingCheckoutSessions)
    .set(
      outcome.status === 'complete'
        ? { status: 'complete', subscriptionId: outcome.subscriptionId, completedAt: sql`now()` }
        : { status: 'expired' },
    )
    .where(and(eq(billingCheckoutSessions.id, id), eq(billingCheckoutSessions.status, 'open')));
}

/**
 * Records the event as processed; false when it already was. Run inside the fulfilment's transaction:
 * a concurrent delivery of the same id waits on the unique key and then finds it taken.
 */
export async function claimEvent(db: Db, id: string, type: string): Promise<boolean> {
  const rows = await db
    .insert(billingEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return rows.length > 0;
}

/** A transaction-scoped lock on a name: holders of the same name run one after another. */
export async function lockName(db: Db, name: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}

export async function findSubscription(db: Db, id: string): Promise<BillingSubscriptionRow | null> {
  const rows = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Stores the provider's current state of a subscription; it may yet give access, so expiry is cleared. */
export async function upsertSubscription(
  db: Db,
  values: Omit<typeof billingSubscriptions.$inferInsert, 'createdAt' | 'updatedAt' | 'expiryAppliedAt'>,
): Promise<void> {
  const { id: _id, ...changes } = values;
  await db
    .insert(billingSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: billingSubscriptions.id,
      set: { ...changes, expiryAppliedAt: null, updatedAt: sql`now()` },
    });
}

export async function listProjectIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ id: projects.id }).from(projects).where(eq(projects.userId, userId));
  return rows.map((r) => r.id);
}

/** The user's subscriptions, most recently changed first. */
export async function listSubscriptionsOfUser(db: Db, userId: string): Promise<BillingSubscriptionRow[]> {
  return db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.userId, userId))
    .orderBy(desc(billingSubscriptions.updatedAt), desc(billingSubscriptions.createdAt));
}

export async function markExpiryApplied(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(billingSubscriptions)
    .set({ expiryAppliedAt: sql`now()` })
    .where(and(inArray(billingSubscriptions.id, ids), isNull(billingSubscriptions.expiryAppliedAt)));
}

/** Users with a subscription whose access has ended by `now` but whose limit has not been lowered yet. */
export async function usersWithEndedAccess(
  db: Db,
  now: Date,
  accessStatuses: readonly string[],
  limit = 500,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: billingSubscriptions.userId })
    .from(billingSubscriptions)
    .where(
      and(
        isNull(billingSubscriptions.expiryAppliedAt),
        notInArray(billingSubscriptions.status, [...accessStatuses]),
        or(
          isNull(billingSubscriptions.currentPeriodEnd),
          lte(billingSubscriptions.currentPeriodEnd, now),
          eq(billingSubscriptions.endedForNonPayment, true),
        ),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.userId);
}
