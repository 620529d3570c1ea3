import { z } from 'zod';
import {
  ZAvailablePlansResponse,
  ZCheckoutSessionResponse,
  ZCreateCheckoutSessionRequest,
  ZPortalSessionResponse,
  ZUserSubscriptionParams,
  ZUserSubscriptionResponse,
  ZWebhookResponse,
} from './billing.schema';
import { ZText } from './common.schema';
import { endpoint, scope } from './endpoint';

const tags = ['billing'];

export const LOCAL_CHECKOUT_PATH = '/billing/local-checkout';
export const LOCAL_PORTAL_PATH = '/billing/local-portal';
const ZLocalCheckoutParams = z.object({ sessionId: ZText().min(1).max(200) });
const ZLocalPortalPlanParams = ZLocalCheckoutParams.extend({ subscriptionId: ZText().min(1).max(200) });

export const billingEndpoints = {
  availablePlans: endpoint({
    method: 'GET',
    path: '/api/v1/billing/available-plans',
    summary: 'Plans on sale, cheapest first (no sign-in needed)',
    tags,
    scope: scope.public(),
    responses: { 200: ZAvailablePlansResponse },
  }),
  // Buying changes the account: READONLY accounts cannot. Moderators and admins have no limit to buy
  // (403 no_plan_needed); a customer whose plan still runs gets 409 already_subscribed.
  createCheckoutSession: endpoint({
    method: 'POST',
    path: '/api/v1/billing/create-checkout-session',
    summary: "Start the provider's checkout for a plan (refused while a plan still runs, and to READONLY)",
    tags,
    scope: scope.user('write'),
    body: ZCreateCheckoutSessionRequest,
    responses: { 200: ZCheckoutSessionResponse },
  }),
  // Changing or cancelling the plan is a write: READONLY accounts cannot (their seat is managed for them).
  createPortalSession: endpoint({
    method: 'POST',
    path: '/api/v1/billing/create-portal-session',
    summary: "Open the provider's page to change or cancel the plan (READONLY accounts cannot)",
    tags,
    scope: scope.user('write'),
    responses: { 200: ZPortalSessionResponse },
  }),
  userSubscription: endpoint({
    method: 'GET',
    path: '/api/v1/users/:userId/subscription',
    summary: "A user's limit and subscription (the user themself, or an admin; others get 404)",
    tags,
    scope: scope.user('read', { in: 'params', name: 'userId' }),
    params: ZUserSubscriptionParams,
    responses: { 200: ZUserSubscriptionResponse },
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/api/v1/billing/webhook',
    summary: "The payment provider's signed events (Stripe-Signature verified on the raw body)",
    tags,
    scope: scope.public(),
    rawBody: true,
    responses: { 200: ZWebhookResponse },
  }),
  /** The embedded default's checkout page (HTML), where the browser goes instead of Stripe. */
  localCheckoutPage: endpoint({
    method: 'GET',
    path: `${LOCAL_CHECKOUT_PATH}/:sessionId`,
    summary: 'Local checkout page (embedded default; no card is charged)',
    tags,
    scope: scope.public(),
    params: ZLocalCheckoutParams,
    responses: { 200: null, 303: null, 404: null, 410: null },
    hide: true,
  }),
  localCheckoutComplete: endpoint({
    method: 'POST',
    path: `${LOCAL_CHECKOUT_PATH}/:sessionId/complete`,
    summary: 'Local checkout: pay',
    tags,
    scope: scope.public(),
    params: ZLocalCheckoutParams,
    responses: { 303: null, 404: null, 410: null },
    hide: true,
  }),
  localCheckoutCancel: endpoint({
    method: 'POST',
    path: `${LOCAL_CHECKOUT_PATH}/:sessionId/cancel`,
    summary: 'Local checkout: cancel',
    tags,
    scope: scope.public(),
    params: ZLocalCheckoutParams,
    responses: { 303: null },
    hide: true,
  }),
  /** The embedded default's page to cancel a plan (HTML), where the browser goes instead of Stripe's portal. */
  localPortalPage: endpoint({
    method: 'GET',
    path: `${LOCAL_PORTAL_PATH}/:sessionId`,
    summary: 'Local billing portal page (embedded default)',
    tags,
    scope: scope.public(),
    params: ZLocalCheckoutParams,
    responses: { 200: null, 404: null, 410: null },
    hide: true,
  }),
  localPortalCancel: endpoint({
    method: 'POST',
    path: `${LOCAL_PORTAL_PATH}/:sessionId/cancel/:subscriptionId`,
    summary: 'Local billing portal: cancel a plan',
    tags,
    scope: scope.public(),
    params: ZLocalPortalPlanParams,
    responses: { 303: null, 404: null, 410: null },
    hide: true,
  }),
  localPortalRenew: endpoint({
    method: 'POST',
    path: `${LOCAL_PORTAL_PATH}/:sessionId/renew/:subscriptionId`,
    summary: 'Local billing portal: renew a canceled plan',
    tags,
    scope: scope.public(),
    params: ZLocalPortalPlanParams,
    responses: { 303: null, 404: null, 410: null },
    hide: true,
  }),
};
