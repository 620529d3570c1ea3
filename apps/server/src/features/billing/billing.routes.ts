import type { FastifyInstance, FastifyReply } from 'fastify';
import { billingEndpoints as e, fillPath } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { AppError, badRequest, notFound } from '../../http/errors';
import type { LocalPaymentsProvider } from '../../integrations/payments/local.provider';
import { WebhookSignatureError, type PaymentsProvider } from '../../integrations/payments/payments.provider';
import { requireUser } from '../auth';
import {
  CANCEL_PATH,
  cancelLocalCheckout,
  cancelLocalSubscription,
  completeLocalCheckout,
  fulfilEvent,
  getLocalCheckout,
  getLocalPortal,
  getUserSubscription,
  listPlans,
  renewLocalSubscription,
  startCheckout,
  startPortal,
  SUBSCRIPTION_PATH,
  SUCCESS_PATH,
} from './billing.service';
import {
  renderCheckoutClosed,
  renderLocalCheckout,
  renderLocalPortal,
  renderPortalClosed,
} from './local-checkout.page';

const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Plans, checkout, the provider's webhook and the subscription lookup. */
export const billingRoutes = (payments: PaymentsProvider) =>
  async function billingRoutesPlugin(app: FastifyInstance) {
    const { ctx } = app;
    route(app, e.availablePlans, async () => listPlans(payments));

    route(app, e.createCheckoutSession, async (request) =>
      startCheckout(ctx, payments, requireUser(request), request.body.price_id),
    );

    route(app, e.createPortalSession, async (request) => startPortal(ctx, payments, requireUser(request)));

    route(app, e.userSubscription, async (request) =>
      getUserSubscription(ctx, requireUser(request), request.params.userId),
    );

    // The signature is computed over the exact bytes Stripe sent: this route alone keeps the raw body.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      route(raw, e.webhook, async (request) => {
        if (!payments.webhooks) {
          throw notFound('Payment webhooks are not used: this server runs the local checkout.');
        }
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['stripe-signature'];
        let event;
        try {
          event = await payments.webhooks.constructEvent(
            body,
            typeof header === 'string' ? header : undefined,
          );
        } catch (error) {
          if (error instanceof WebhookSignatureError) {
            request.log.warn({ reason: error.message }, 'webhook refused: signature did not verify');
            throw badRequest(`Invalid webhook signature: ${error.message}`, 'invalid_signature');
          }
          throw error;
        }
        let result;
        try {
          result = await fulfilEvent(ctx, payments, event);
        } catch (error) {
          if (error instanceof AppError) throw error;
          request.log.error(
            { err: error, eventId: event.id, eventType: event.type },
            'billing event not fulfilled',
          );
          // Any answer but 2xx makes the provider deliver the event again later.
          throw new AppError(
            500,
            'fulfilment_failed',
            'The event could not be processed; it will be retried.',
          );
        }
        return { received: true as const, duplicate: result === 'duplicate' };
      });
    });
  };

/**
 * The local checkout and billing portal of the embedded default, outside /api/v1 like the development
 * sign-in: the browser is sent here instead of to Stripe. The session id in the address is the capability.
 */
export const localCheckoutRoutes = (payments: LocalPaymentsProvider) =>
  async function localCheckoutRoutesPlugin(app: FastifyInstance) {
    const { ctx } = app;
    const publicUrl = ctx.config.publicUrl;
    // The page's buttons post empty forms; their bodies carry nothing to read.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, _b, done) =>
      done(null, {}),
    );
    const html = (reply: FastifyReply, status: number, page: string) =>
      reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
    const closed = (reply: FastifyReply, status: 404 | 410) =>
      html(
        reply,
        status,
        renderCheckoutClosed(
          status === 404
            ? 'This checkout session does not exist.'
            : 'This checkout session is no longer open.',
          { href: `${publicUrl}/subscribe`, label: 'Back to plans' },
        ),
      );
    const toSuccess = (reply: FastifyReply, sessionId: string) =>
      reply.redirect(`${publicUrl}${SUCCESS_PATH}?session_id=${encodeURIComponent(sessionId)}`, 303);

    route(app, e.localCheckoutPage, async (request, reply) => {
      const found = await getLocalCheckout(ctx, payments, request.params.sessionId);
      if (!found) return closed(reply, 404);
      if (found.session.status === 'complete') return toSuccess(reply, found.session.id);
      if (found.session.status !== 'open' || !found.plan) return closed(reply, 410);
      const action = fillPath(e.localCheckoutPage.path, { sessionId: found.session.id });
      return html(reply, 200, renderLocalCheckout(action, found.plan, found.email));
    });

    route(app, e.localCheckoutComplete, async (request, reply) => {
      const sessionId = request.params.sessionId;
      const outcome = await completeLocalCheckout(ctx, payments, sessionId);
      if (outcome === 'missing') return closed(reply, 404);
      if (outcome === 'expired') return closed(reply, 410);
      if (typeof outcome === 'object') {
        return html(
          reply,
          409,
          renderCheckoutClosed(outcome.alreadySubscribed, {
            href: `${publicUrl}${SUBSCRIPTION_PATH}`,
            label: 'Go to Subscription',
          }),
        );
      }
      return toSuccess(reply, sessionId);
    });

    route(app, e.localCheckoutCancel, async (request, reply) => {
      const sessionId = request.params.sessionId;
      const outcome = await cancelLocalCheckout(ctx, payments, sessionId);
      if (outcome === 'complete') return toSuccess(reply, sessionId);
      return reply.redirect(`${publicUrl}${CANCEL_PATH}`, 303);
    });

    const portalClosed = (reply: FastifyReply, status: 404 | 410) =>
      html(
        reply,
        status,
        renderPortalClosed(
          status === 404
            ? 'This billing session does not exist.'
            : 'This billing session has ended. Open it again from your subscription.',
          `${publicUrl}${SUBSCRIPTION_PATH}`,
        ),
      );

    route(app, e.localPortalPage, async (request, reply) => {
      const found = await getLocalPortal(ctx, payments, request.params.sessionId);
      if (!found) return portalClosed(reply, 404);
      if (found === 'expired') return portalClosed(reply, 410);
      const action = fillPath(e.localPortalPage.path, { sessionId: request.params.sessionId });
      return html(reply, 200, renderLocalPortal({ action, ...found, now: new Date(ctx.clock.now()) }));
    });

    // Cancel plan and Renew plan answer alike: back to the page, which shows what the plan is now.
    for (const [endpoint, change] of [
      [e.localPortalCancel, cancelLocalSubscription],
      [e.localPortalRenew, renewLocalSubscription],
    ] as const) {
      route(app, endpoint, async (request, reply) => {
        const { sessionId, subscriptionId } = request.params;
        const outcome = await change(ctx, payments, sessionId, subscriptionId);
        if (outcome === 'missing') return portalClosed(reply, 404);
        if (outcome === 'expired') return portalClosed(reply, 410);
        return reply.redirect(`${publicUrl}${fillPath(e.localPortalPage.path, { sessionId })}`, 303);
      });
    }
  };
