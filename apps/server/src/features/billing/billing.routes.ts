import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAvailablePlansResponse,
  ZCheckoutSessionResponse,
  ZCreateCheckoutSessionRequest,
  ZUserSubscriptionParams,
  ZUserSubscriptionResponse,
  ZWebhookResponse,
} from '@threadreach/contract';
import { requireUser } from '../../http/auth-guard';
import { AppError, badRequest, notFound } from '../../http/errors';
import { LOCAL_CHECKOUT_PATH, type LocalPaymentsProvider } from '../../integrations/payments/local.provider';
import { WebhookSignatureError, type PaymentsProvider } from '../../integrations/payments/payments.provider';
import {
  CANCEL_PATH,
  cancelLocalCheckout,
  completeLocalCheckout,
  fulfilEvent,
  getLocalCheckout,
  getUserSubscription,
  listPlans,
  startCheckout,
  SUCCESS_PATH,
} from './billing.service';
import { renderCheckoutClosed, renderLocalCheckout } from './local-checkout.page';

const tags = ['billing'];
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Plans, checkout, the provider's webhook and the subscription lookup, under /api/v1. */
export const billingRoutes = (payments: PaymentsProvider): FastifyPluginAsyncZod =>
  async function billingRoutesPlugin(app) {
    app.get(
      '/billing/available-plans',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Plans on sale, cheapest first (no sign-in needed)',
          security: [],
          response: { 200: ZAvailablePlansResponse },
        },
      },
      async () => listPlans(payments),
    );

    app.post(
      '/billing/create-checkout-session',
      {
        schema: {
          tags,
          summary: "Start the provider's checkout for a plan (READONLY accounts cannot buy)",
          body: ZCreateCheckoutSessionRequest,
          response: { 200: ZCheckoutSessionResponse },
        },
      },
      async (request) => startCheckout(app.ctx, payments, requireUser(request), request.body.price_id),
    );

    app.get(
      '/users/:userId/subscription',
      {
        schema: {
          tags,
          summary: "A user's limit and subscription (the user themself, or an admin; others get 404)",
          params: ZUserSubscriptionParams,
          response: { 200: ZUserSubscriptionResponse },
        },
      },
      async (request) => getUserSubscription(app.ctx, requireUser(request), request.params.userId),
    );

    // The signature is computed over the exact bytes Stripe sent: this route alone keeps the raw body.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      raw.post(
        '/billing/webhook',
        {
          config: { public: true },
          schema: {
            tags,
            summary: "The payment provider's signed events (Stripe-Signature verified on the raw body)",
            security: [],
            response: { 200: ZWebhookResponse },
          },
        },
        async (request) => {
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
            result = await fulfilEvent(app.ctx, payments, event);
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
        },
      );
    });
  };

/**
 * The local checkout of the embedded default, outside /api/v1 like the development sign-in: the
 * browser is sent here instead of to Stripe. The session id in the address is the capability.
 */
export const localCheckoutRoutes =
  (payments: LocalPaymentsProvider): FastifyPluginAsync =>
  async (app) => {
    const publicUrl = app.ctx.config.publicUrl;
    // The page's buttons post empty forms; their bodies carry nothing to read.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, _b, done) =>
      done(null, {}),
    );
    const html = (reply: FastifyReply, status: number, page: string) =>
      reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);

    app.get<{ Params: { sessionId: string } }>(
      `${LOCAL_CHECKOUT_PATH}/:sessionId`,
      async (request, reply) => {
        const found = await getLocalCheckout(app.ctx, payments, request.params.sessionId);
        if (!found)
          return html(
            reply,
            404,
            renderCheckoutClosed('This checkout session does not exist.', `${publicUrl}/subscribe`),
          );
        if (found.session.status === 'complete') {
          return reply.redirect(
            `${publicUrl}${SUCCESS_PATH}?session_id=${encodeURIComponent(found.session.id)}`,
            303,
          );
        }
        if (found.session.status !== 'open' || !found.plan) {
          return html(
            reply,
            410,
            renderCheckoutClosed('This checkout session is no longer open.', `${publicUrl}/subscribe`),
          );
        }
        const action = `${LOCAL_CHECKOUT_PATH}/${encodeURIComponent(found.session.id)}`;
        return html(reply, 200, renderLocalCheckout(action, found.plan, found.email));
      },
    );

    app.post<{ Params: { sessionId: string } }>(
      `${LOCAL_CHECKOUT_PATH}/:sessionId/complete`,
      async (request, reply) => {
        const sessionId = request.params.sessionId;
        const outcome = await completeLocalCheckout(app.ctx, payments, sessionId);
        if (outcome === 'missing') {
          return html(
            reply,
            404,
            renderCheckoutClosed('This checkout session does not exist.', `${publicUrl}/subscribe`),
          );
        }
        if (outcome === 'expired') {
          return html(
            reply,
            410,
            renderCheckoutClosed('This checkout session is no longer open.', `${publicUrl}/subscribe`),
          );
        }
        return reply.redirect(`${publicUrl}${SUCCESS_PATH}?session_id=${encodeURIComponent(sessionId)}`, 303);
      },
    );

    app.post<{ Params: { sessionId: string } }>(
      `${LOCAL_CHECKOUT_PATH}/:sessionId/cancel`,
      async (request, reply) => {
        const sessionId = request.params.sessionId;
        const outcome = await cancelLocalCheckout(app.ctx, payments, sessionId);
        if (outcome === 'complete') {
          return reply.redirect(
            `${publicUrl}${SUCCESS_PATH}?session_id=${encodeURIComponent(sessionId)}`,
            303,
          );
        }
        return reply.redirect(`${publicUrl}${CANCEL_PATH}`, 303);
      },
    );
  };
