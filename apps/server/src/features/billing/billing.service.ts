import { randomUUID } from 'node:crypto';
import {
  ALREADY_SUBSCRIBED,
  isAdmin,
  isModerator,
  NO_PLAN_NEEDED,
  ZUuid,
  type TCheckoutSessionResponse,
  type THeldSubscription,
  type TPortalSessionResponse,
  type TSubscriptionPlan,
  type TUserSubscriptionResponse,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../http/errors';
import type { LocalPaymentsProvider, LocalSubscription } from '../../integrations/payments/local.provider';
import {
  ACCESS_STATUSES,
  type PaymentEvent,
  type PaymentsProvider,
} from '../../integrations/payments/payments.provider';
import { countOwnerAccounts } from '../accounts';
import { pauseAgentsWithoutPlan } from '../agent';
import { requiresSubscription, type AuthUser } from '../auth';
import { countUserProjects } from '../projects';
import { NO_PLAN_UNQUEUED, unqueuedChanges, unqueueProjectDms } from '../sending';
import { findUserById, updateProfilesLimit } from '../users';
import {
  claimEvent,
  findCheckoutSession,
  findCustomerId,
  findSubscription,
  findUserIdByCustomer,
  finishCheckoutSession,
  insertCheckoutSession,
  insertCustomer,
  listProjectIdsOfUser,
  listSubscriptionsOfUser,
  lockName,
  markExpiryApplied,
  upsertSubscription,
  usersWithEndedAccess,
} from './billing.repository';
import type { BillingCheckoutSessionRow, BillingSubscriptionRow } from './billing.table';

export const SUCCESS_PATH = '/subscribe/success';
export const CANCEL_PATH = '/subscribe/cancel';
/** The page the billing portal's way back leads to: the customer's plan. */
export const SUBSCRIPTION_PATH = '/subscription';
export const NO_PLAN_TO_MANAGE = 'You have no plan to manage yet. Choose one on the plans page.';
export const NO_PLAN_FOR_MODERATORS =
  'Moderators and admins need no plan: their profiles have no limit, so there is nothing to buy.';

/** A billing day as the plans' pages and refusals write it: 'Dec 3, 2026' (UTC). */
export const formatDay = (at: Date) =>
  at.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** Why a checkout is refused while `row` still runs: it renews, or it was canceled and runs to its end. */
function planStillRunning(row: BillingSubscriptionRow, planName: string | null): string {
  const plan = planName ? `the ${planName} plan` : 'a plan';
  const ends = row.currentPeriodEnd ? formatDay(row.currentPeriodEnd) : null;
  if ((row.status === 'canceled' || row.cancelAtPeriodEnd) && ends) {
    return `You canceled ${plan}, but it runs until ${ends}. You can choose a plan again once it has ended; until then, manage it under Subscription.`;
  }
  return `You already have ${plan}. Change or cancel it under Subscription.`;
}

/** Events that change what a user may use; anything else is acknowledged and left alone. */
export const FULFILLED_EVENT_TYPES = new Set([
  'checkout.session.completed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
]);

export type FulfilResult = 'fulfilled' | 'duplicate' | 'ignored';

export async function listPlans(payments: PaymentsProvider): Promise<TSubscriptionPlan[]> {
  try {
    return await payments.listPlans();
  } catch (error) {
    throw providerUnavailable(error);
  }
}

function providerUnavailable(cause: unknown): AppError {
  const error = new AppError(
    502,
    'payment_provider_unavailable',
    'The payment provider could not be reached. Please try again.',
  );
  error.cause = cause;
  return error;
}

async function ensureCustomer(
  ctx: AppContext,
  payments: PaymentsProvider,
  user: { id: string; email: string },
): Promise<string> {
  const known = await findCustomerId(ctx.db, user.id);
  if (known) return known;
  const created = await payments.createCustomer({ userId: user.id, email: user.email });
  return insertCustomer(ctx.db, user.id, created);
}

/**
 * The user's subscription that still runs at `now` (renewing, or canceled with paid time left), if any.
 * One runs at a time: a checkout beside it would bill a second subscription.
 */
async function runningSubscription(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<BillingSubscriptionRow | null> {
  return (await listSubscriptionsOfUser(db, userId)).find((row) => givesAccess(row, now)) ?? null;
}

function planNameOf(plans: TSubscriptionPlan[], priceId: string | null): string | null {
  return plans.find((p) => p.price_id === priceId)?.product_name ?? null;
}

/**
 * Starts a checkout for one of the plans on sale. Each call is one attempt with its own idempotency
 * key, so the provider's own retries of that request never open a second session.
 */
export async function startCheckout(
  ctx: AppContext,
  payments: PaymentsProvider,
  caller: AuthUser,
  priceId: string,
): Promise<TCheckoutSessionResponse> {
  const user = await findUserById(ctx.db, caller.id);
  if (!user) throw unauthorized();
  // The subscription gate never applies to them: a plan would be billed and change nothing.
  if (isModerator(user.roles)) throw forbidden(NO_PLAN_FOR_MODERATORS, NO_PLAN_NEEDED);
  const plans = await listPlans(payments);
  const plan = plans.find((p) => p.price_id === priceId);
  if (!plan)
    throw badRequest('This plan is not available. Please choose one of the listed plans.', 'unknown_plan');
  const running = await runningSubscription(ctx.db, user.id, new Date(ctx.clock.now()));
  if (running) {
    throw new AppError(
      409,
      ALREADY_SUBSCRIBED,
      planStillRunning(running, planNameOf(plans, running.priceId)),
    );
  }

  const idempotencyKey = `checkout-${user.id}-${randomUUID()}`;
  let customerId: string;
  let session: { sessionId: string; checkoutUrl: string };
  try {
    customerId = await ensureCustomer(ctx, payments, user);
    session = await payments.createCheckoutSession({
      userId: user.id,
      customerId,
      priceId,
      successUrl: `${ctx.config.publicUrl}${SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ctx.config.publicUrl}${CANCEL_PATH}`,
      idempotencyKey,
    });
  } catch (error) {
    ctx.log.error({ err: error, userId: user.id, priceId }, 'checkout session could not be created');
    throw providerUnavailable(error);
  }
  await insertCheckoutSession(ctx.db, {
    id: session.sessionId,
    userId: user.id,
    customerId,
    priceId,
    profilesLimit: plan.profiles_limit,
    idempotencyKey,
    checkoutUrl: session.checkoutUrl,
  });
  return {
    session_id: session.sessionId,
    customer_id: customerId,
    checkout_url: session.checkoutUrl,
    profiles_limit: plan.profiles_limit,
  };
}

/**
 * Opens the provider's billing portal for the caller's customer, where they change or cancel their
 * plan; what they do there comes back as `customer.subscription.*` events. A user who never bought a
 * plan has nothing to manage there.
 */
export async function startPortal(
  ctx: AppContext,
  payments: PaymentsProvider,
  caller: AuthUser,
): Promise<TPortalSessionResponse> {
  const customerId = await findCustomerId(ctx.db, caller.id);
  const subscriptions = customerId ? await listSubscriptionsOfUser(ctx.db, caller.id) : [];
  if (!customerId || subscriptions.length === 0) {
    throw new AppError(409, 'no_subscription', NO_PLAN_TO_MANAGE);
  }
  try {
    const session = await payments.createPortalSession({
      customerId,
      returnUrl: `${ctx.config.publicUrl}${SUBSCRIPTION_PATH}`,
      now: new Date(ctx.clock.now()),
    });
    return { portal_url: session.url };
  } catch (error) {
    ctx.log.error({ err: error, userId: caller.id }, 'billing portal session could not be created');
    throw providerUnavailable(error);
  }
}

/** Whether a stored subscription still gives access at `now` (docs/decisions/012-billing-fulfilment.md). */
export function givesAccess(
  row: Pick<BillingSubscriptionRow, 'status' | 'currentPeriodEnd' | 'endedForNonPayment'>,
  now: Date,
): boolean {
  if ((ACCESS_STATUSES as readonly string[]).includes(row.status)) return true;
  return (
    row.status === 'canceled' &&
    !row.endedForNonPayment &&
    row.currentPeriodEnd !== null &&
    row.currentPeriodEnd.getTime() > now.getTime()
  );
}

/**
 * Sets the user's profiles_limit to the higher of the limit set by hand and the highest limit among the
 * subscriptions that give access now, under a per-user lock so a fulfilment and the expiry job cannot
 * interleave. A plan never lowers a hand-set limit, and its end falls back to it, not to 0.
 */
async function applyUserLimit(tx: DbOrTx, userId: string, now: Date): Promise<number> {
  await lockName(tx, `billing:user:${userId}`);
  const base = (await findUserById(tx, userId))?.profilesLimitBase ?? 0;
  const rows = await listSubscriptionsOfUser(tx, userId);
  const live = rows.filter((r) => givesAccess(r, now));
  const limit = Math.max(0, base, ...live.map((r) => r.profilesLimit));
  await updateProfilesLimit(tx, userId, limit);
  const ended = rows.filter((r) => !givesAccess(r, now) && r.expiryAppliedAt === null).map((r) => r.id);
  await markExpiryApplied(tx, ended);
  return limit;
}

/**
 * What the end of a user's last plan stops at once (spec §5 "Subscription gate"): each of their agents
 * pauses and says why, and every DM queued in their projects, by the agent or by them, goes back to the
 * unsent ones saying that Send All queues it again. Without this an agent looked active until its next
 * run, and DMs waited for their turn to be taken back; those checks stay, for anything queued meanwhile.
 */
async function stopWorkWithoutPlan(ctx: AppContext, userId: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  // Moderators and admins keep working without a plan.
  if (!user || !requiresSubscription(user)) return;
  const agentsPaused = await pauseAgentsWithoutPlan(ctx, userId);
  const changes = unqueuedChanges(
    'subscription_required',
    `Not sent: ${NO_PLAN_UNQUEUED}`,
    new Date(ctx.clock.now()),
  );
  let dmsTakenBack = 0;
  for (const projectId of await listProjectIdsOfUser(ctx.db, userId)) {
    dmsTakenBack += await unqueueProjectDms(ctx.db, projectId, 'customer', changes);
    // An agent that was not on (stopped or paused already) has none left; this is for a run still going.
    dmsTakenBack += await unqueueProjectDms(ctx.db, projectId, 'agent', changes);
  }
  if (agentsPaused > 0 || dmsTakenBack > 0) {
    ctx.log.info({ userId, agentsPaused, dmsTakenBack }, 'plan ended: agents paused, queued DMs taken back');
  }
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return str(value);
  if (value && typeof value === 'object') return str((value as { id?: unknown }).id);
  return null;
}

/** The subscription, checkout session and user an event is about, as far as the event says. */
function eventTarget(event: PaymentEvent): {
  subscriptionId: string | null;
  sessionId: string | null;
  userId: string | null;
} {
  const object = event.data.object;
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  if (event.type.startsWith('checkout.session.')) {
    return {
      subscriptionId: idOf(object.subscription),
      sessionId: str(object.id),
      userId: str(object.client_reference_id) ?? str(metadata.user_id),
    };
  }
  if (event.type.startsWith('customer.subscription.')) {
    return { subscriptionId: str(object.id), sessionId: null, userId: str(metadata.user_id) };
  }
  if (event.type.startsWith('invoice.')) {
    // Since API version 2025-03-31 the subscription sits under parent.subscription_details.
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return {
      subscriptionId: idOf(parent?.subscription_details?.subscription) ?? idOf(object.subscription),
      sessionId: null,
      userId: null,
    };
  }
  return { subscriptionId: null, sessionId: null, userId: null };
}

async function existingUserId(tx: DbOrTx, candidate: string | null): Promise<string | null> {
  if (!candidate || !ZUuid.safeParse(candidate).success) return null;
  return (await findUserById(tx, candidate)) ? candidate : null;
}

/**
 * The one fulfilment path of Stripe's webhooks and the local checkout. Runs in one transaction that
 * first records the event id, so a duplicate delivery (even a concurrent one) does nothing. The
 * subscription's state is read from the provider, never taken from the event, so events that arrive
 * out of order still leave the current state behind.
 */
export async function fulfilEvent(
  ctx: AppContext,
  payments: PaymentsProvider,
  event: PaymentEvent,
): Promise<FulfilResult> {
  if (!FULFILLED_EVENT_TYPES.has(event.type)) return 'ignored';
  const target = eventTarget(event);
  const log = ctx.log.child({ eventId: event.id, eventType: event.type });
  // The user this event left without a plan, if any: their work stops once the new limit is committed.
  const lapsed: string[] = [];

  const result = await ctx.db.transaction(async (tx): Promise<FulfilResult> => {
    if (!(await claimEvent(tx, event.id, event.type))) return 'duplicate';

    if (event.type === 'checkout.session.expired') {
      if (target.sessionId) await finishCheckoutSession(tx, target.sessionId, { status: 'expired' });
      return 'fulfilled';
    }
    if (!target.subscriptionId) {
      log.warn('billing event names no subscription; nothing to fulfil');
      return 'fulfilled';
    }

    // Deliveries about one subscription take turns, so the last to write read the latest state.
    await lockName(tx, `billing:subscription:${target.subscriptionId}`);
    const current = await payments.retrieveSubscription(target.subscriptionId, { db: tx });
    if (!current) {
      log.warn({ subscriptionId: target.subscriptionId }, 'the provider does not know this subscription');
      return 'fulfilled';
    }
    const stored = await findSubscription(tx, current.id);
    const userId =
      (await existingUserId(tx, current.userId)) ??
      (await existingUserId(tx, target.userId)) ??
      (await existingUserId(tx, await findUserIdByCustomer(tx, current.customerId))) ??
      stored?.userId ??
      null;
    if (!userId) {
      log.warn({ subscriptionId: current.id }, 'no user found for this subscription');
      return 'fulfilled';
    }

    const now = new Date(ctx.clock.now());
    if (!stored && givesAccess(current, now)) {
      // One plan at a time is kept at checkout; a second paid in the moment before the first checkout was
      // expired still gets here. It is kept (the limit is the higher plan's), and the operator refunds one.
      const others = (await listSubscriptionsOfUser(tx, userId)).filter(
        (row) => row.id !== current.id && givesAccess(row, now),
      );
      if (others.length > 0) {
        log.warn(
          {
            userId,
            customerId: current.customerId,
            subscriptionId: current.id,
            runningSubscriptionIds: others.map((row) => row.id),
          },
          'second plan paid while another still runs: the customer is billed for both; cancel and refund one in Stripe',
        );
      }
    }
    await upsertSubscription(tx, {
      id: current.id,
      userId,
      customerId: current.customerId,
      priceId: current.priceId,
      status: current.status,
      profilesLimit: current.profilesLimit,
      currentPeriodEnd: current.currentPeriodEnd,
      cancelAtPeriodEnd: current.cancelAtPeriodEnd,
      endedForNonPayment: current.endedForNonPayment,
    });
    if (target.sessionId) {
      await finishCheckoutSession(tx, target.sessionId, { status: 'complete', subscriptionId: current.id });
    }
    const limit = await applyUserLimit(tx, userId, now);
    if (limit === 0) lapsed.push(userId);
    log.info(
      { userId, subscriptionId: current.id, status: current.status, profilesLimit: limit },
      'billing event fulfilled',
    );
    return 'fulfilled';
  });
  for (const userId of lapsed) await stopWorkWithoutPlan(ctx, userId);
  return result;
}

/**
 * Lowers the limit of users whose paid period has ended (the `expire-subscriptions` job); those left
 * without a plan have their agents paused and their queued DMs taken back.
 */
export async function applyEndedSubscriptions(ctx: AppContext): Promise<number> {
  const now = new Date(ctx.clock.now());
  const userIds = await usersWithEndedAccess(ctx.db, now, ACCESS_STATUSES);
  for (const userId of userIds) {
    const limit = await ctx.db.transaction((tx) => applyUserLimit(tx, userId, now));
    if (limit === 0) await stopWorkWithoutPlan(ctx, userId);
  }
  return userIds.length;
}

/** Only the user and admins may look up a user's subscription; to anyone else the user does not exist. */
export async function getUserSubscription(
  ctx: AppContext,
  caller: AuthUser,
  userId: string,
): Promise<TUserSubscriptionResponse> {
  const { db } = ctx;
  const now = new Date(ctx.clock.now());
  if (caller.id !== userId && !isAdmin(caller.roles)) throw notFound('User not found');
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User not found');
  const rows = await listSubscriptionsOfUser(db, userId);
  // Every plan that gives access (a customer may hold several), or else the latest, ended. The highest
  // limit first, and of equal ones the one that renews.
  const renews = (row: BillingSubscriptionRow) => (ACCESS_STATUSES as readonly string[]).includes(row.status);
  const live = rows
    .filter((r) => givesAccess(r, now))
    .sort((a, b) => b.profilesLimit - a.profilesLimit || Number(renews(b)) - Number(renews(a)));
  const held = (live.length > 0 ? live : rows.slice(0, 1)).map((row) => presentHeldSubscription(row, now));
  return {
    user_id: user.id,
    user_email: user.email,
    profiles_limit: user.profilesLimit,
    projects_limit: user.profilesLimit,
    projects_used: await countUserProjects(db, user.id),
    accounts_used: await countOwnerAccounts(db, user.id),
    unlimited: isModerator(user.roles),
    has_active_subscription: user.profilesLimit > 0,
    subscription: held[0] ?? null,
    subscriptions: held,
  };
}

function presentHeldSubscription(row: BillingSubscriptionRow, now: Date): THeldSubscription {
  return {
    status: row.status as THeldSubscription['status'],
    price_id: row.priceId,
    profiles_limit: row.profilesLimit,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    gives_access: givesAccess(row, now),
  };
}

/** A local checkout session and the plan it sells, for the checkout page. */
export async function getLocalCheckout(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
): Promise<{ session: BillingCheckoutSessionRow; plan: TSubscriptionPlan | null; email: string } | null> {
  const session = await findCheckoutSession(ctx.db, sessionId);
  if (!session) return null;
  const plan = (await payments.listPlans()).find((p) => p.price_id === session.priceId) ?? null;
  const user = await findUserById(ctx.db, session.userId);
  return { session, plan, email: user?.email ?? '' };
}

/**
 * "Complete purchase" on the local checkout page: the local provider starts the subscription, then a
 * checkout.session.completed event goes through the same fulfilment as Stripe's webhook.
 */
export async function completeLocalCheckout(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
): Promise<'complete' | 'expired' | 'missing' | { alreadySubscribed: string }> {
  const found = await getLocalCheckout(ctx, payments, sessionId);
  if (!found) return 'missing';
  const { session, plan } = found;
  if (session.status === 'expired' || !plan) return 'expired';
  // A checkout opened before a plan was bought in another tab: it would be a second subscription.
  const running =
    session.status === 'open'
      ? await runningSubscription(ctx.db, session.userId, new Date(ctx.clock.now()))
      : null;
  if (running) {
    return {
      alreadySubscribed: planStillRunning(running, planNameOf(await payments.listPlans(), running.priceId)),
    };
  }
  const subscriptionId = await payments.startSubscription({
    sessionId,
    userId: session.userId,
    customerId: session.customerId,
    plan,
    now: new Date(ctx.clock.now()),
  });
  await fulfilEvent(ctx, payments, {
    id: `evt_local_${sessionId}_completed`,
    type: 'checkout.session.completed',
    created: Math.floor(ctx.clock.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        customer: session.customerId,
        subscription: subscriptionId,
        client_reference_id: session.userId,
        metadata: { user_id: session.userId },
      },
    },
  });
  return 'complete';
}

/** "Cancel" on the local checkout page: the session expires through the same fulfilment path. */
export async function cancelLocalCheckout(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
): Promise<'expired' | 'complete' | 'missing'> {
  const session = await findCheckoutSession(ctx.db, sessionId);
  if (!session) return 'missing';
  if (session.status === 'complete') return 'complete';
  await fulfilEvent(ctx, payments, {
    id: `evt_local_${sessionId}_expired`,
    type: 'checkout.session.expired',
    created: Math.floor(ctx.clock.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'expired',
        client_reference_id: session.userId,
      },
    },
  });
  return 'expired';
}

/** A local portal session's plans (each with its plan on sale, if any) and its way back. */
export async function getLocalPortal(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
): Promise<
  | {
      subscriptions: Array<{ subscription: LocalSubscription; plan: TSubscriptionPlan | null }>;
      returnUrl: string;
    }
  | 'expired'
  | null
> {
  const session = await payments.findPortalSession(sessionId, new Date(ctx.clock.now()));
  if (!session || session === 'expired') return session;
  const plans = await payments.listPlans();
  const subscriptions = (await payments.listSubscriptionsOf(session.customerId)).map((subscription) => ({
    subscription,
    plan: plans.find((p) => p.price_id === subscription.priceId) ?? null,
  }));
  return { subscriptions, returnUrl: session.returnUrl };
}

/**
 * A change made on the local portal page, as Stripe's customer.subscription.updated event brings its
 * portal's, through the same fulfilment. Each change has its own event id: the provider lets a change
 * through once (a second click finds nothing to change), and a fixed id would drop a cancel that follows
 * a renewal as a duplicate, leaving the plan renewing here.
 */
async function fulfilLocalPortalChange(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  subscriptionId: string,
  change: 'canceled' | 'renewed',
): Promise<void> {
  await fulfilEvent(ctx, payments, {
    id: `evt_local_${subscriptionId}_${randomUUID()}_${change}`,
    type: 'customer.subscription.updated',
    created: Math.floor(ctx.clock.now() / 1000),
    data: {
      object: {
        id: subscriptionId,
        object: 'subscription',
        status: change === 'canceled' ? 'canceled' : 'active',
        cancel_at_period_end: false,
      },
    },
  });
}

/**
 * "Cancel plan" on the local portal page: the plan stops renewing and keeps its access to the end of
 * the paid period. Cancelling twice does nothing more.
 */
export async function cancelLocalSubscription(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
  subscriptionId: string,
): Promise<'canceled' | 'expired' | 'missing'> {
  const session = await payments.findPortalSession(sessionId, new Date(ctx.clock.now()));
  if (!session) return 'missing';
  if (session === 'expired') return 'expired';
  if (await payments.cancelSubscription(session.customerId, subscriptionId)) {
    await fulfilLocalPortalChange(ctx, payments, subscriptionId, 'canceled');
  }
  return 'canceled';
}

/**
 * "Renew plan" on the local portal page, as on Stripe's portal: a canceled plan whose paid period still
 * runs renews again, as if it had never been canceled. Renewing twice does nothing more.
 */
export async function renewLocalSubscription(
  ctx: AppContext,
  payments: LocalPaymentsProvider,
  sessionId: string,
  subscriptionId: string,
): Promise<'renewed' | 'expired' | 'missing'> {
  const now = new Date(ctx.clock.now());
  const session = await payments.findPortalSession(sessionId, now);
  if (!session) return 'missing';
  if (session === 'expired') return 'expired';
  if (await payments.renewSubscription(session.customerId, subscriptionId, now)) {
    await fulfilLocalPortalChange(ctx, payments, subscriptionId, 'renewed');
  }
  return 'renewed';
}
