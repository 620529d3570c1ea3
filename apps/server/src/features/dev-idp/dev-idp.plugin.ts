import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, {
  type Configuration,
  type InteractionResults,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { createMemoryAdapter } from './oidc-memory-store';
import { z } from 'zod';
import type { Config } from '../../config/config';
import { AppError } from '../../http/errors';
import { DEMO_USERS } from './demo-users';
import { renderPicker } from './picker.page';

export const DEV_IDP_PREFIX = '/dev-idp';

const ZEmail = z.email();
export const INVALID_EMAIL = 'Enter a whole e-mail address, such as name@example.com.';
/** The picker posts one e-mail address; anything bigger is refused before it is read. */
export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * A real OpenID Connect provider for the embedded default: it offers the demo accounts on a picker
 * page, and with a `login_hint` e-mail it signs that person in without asking.
 */
export const devIdentityProvider =
  (config: Config, redirectUri: string): FastifyPluginAsync =>
  async (app) => {
    if (config.env === 'production') {
      throw new Error('The development identity provider refuses to run when NODE_ENV=production.');
    }
    // Signing keys live as long as the process: a restart only ends sign-ins in progress.
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'dev-idp' };
    const provider = new Provider(config.sso.issuer, {
      ...providerConfiguration(config, redirectUri),
      jwks: { keys: [jwk] },
      // The provider's own in-memory store (record 005), chosen here: left to its default, the provider
      // warns on every start that it "MUST" be changed, which reads as a fault to someone trying the demo.
      adapter: createMemoryAdapter(),
    });
    const callback = provider.callback();

    /**
     * The interaction a request continues; an unknown or expired one is a 400 while the reply is still
     * ours, except that a browser (the Back button onto a finished sign-in's page or form) is sent to the
     * app, which signs in again or shows who is signed in: null, the reply sent.
     */
    async function loadInteraction(request: FastifyRequest, reply: FastifyReply) {
      try {
        return await provider.interactionDetails(request.raw, reply.raw);
      } catch (error) {
        request.log.info({ err: error }, 'development sign-in: no such interaction');
        if (request.headers.accept?.includes('text/html')) {
          await reply.header('Cache-Control', 'no-store').redirect('/', 303);
          return null;
        }
        throw new AppError(
          400,
          'sign_in_expired',
          'This sign-in is unknown or has expired. Please start it again from the app.',
        );
      }
    }

    /** Hands the reply to the provider, which redirects; a late failure still gets an answer. */
    async function finish(
      request: FastifyRequest,
      reply: FastifyReply,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ) {
      reply.hijack();
      try {
        await provider.interactionFinished(request.raw, reply.raw, result, options);
      } catch (error) {
        request.log.warn({ err: error }, 'development sign-in could not be finished');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
        }
        reply.raw.end(
          JSON.stringify({
            detail: 'This sign-in could not be finished. Please start it again from the app.',
            code: 'sign_in_failed',
          }),
        );
      }
    }

    // The picker's own pages and form posts: small url-encoded forms, nothing else.
    await app.register(async (interactions) => {
      interactions.removeAllContentTypeParsers();
      interactions.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );

      interactions.get<{ Params: { uid: string } }>(
        `${DEV_IDP_PREFIX}/interaction/:uid`,
        { config: { clientLimit: 'public' } },
        async (request, reply) => {
          const details = await loadInteraction(request, reply);
          if (!details) return reply;
          const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.trim() : '';
          if (details.prompt.name === 'login' && ZEmail.safeParse(hint).success) {
            return finish(request, reply, { login: { accountId: hint.toLowerCase() } });
          }
          if (details.prompt.name !== 'login') {
            return finish(request, reply, { consent: {} }, { mergeWithLastSubmission: true });
          }
          return reply
            .type('text/html; charset=utf-8')
            .header('Cache-Control', 'no-store')
            .send(renderPicker(`${DEV_IDP_PREFIX}/interaction/${request.params.uid}`, DEMO_USERS));
        },
      );

      interactions.post<{ Params: { uid: string }; Body: { email?: unknown } | undefined }>(
        `${DEV_IDP_PREFIX}/interaction/:uid/login`,
        { config: { clientLimit: 'sign-in' } },
        async (request, reply) => {
          if (!(await loadInteraction(request, reply))) return reply;
          const typed = typeof request.body?.email === 'string' ? request.body.email.trim() : '';
          const email = ZEmail.safeParse(typed);
          if (!email.success) {
            // The sign-in stays open: the page comes back with what was typed, not an error in the app.
            return reply
              .code(400)
              .type('text/html; charset=utf-8')
              .header('Cache-Control', 'no-store')
              .send(
                renderPicker(`${DEV_IDP_PREFIX}/interaction/${request.params.uid}`, DEMO_USERS, {
                  email: typed.slice(0, 320),
                  error: INVALID_EMAIL,
                }),
              );
          }
          return finish(request, reply, { login: { accountId: email.data.toLowerCase() } });
        },
      );

      interactions.post<{ Params: { uid: string } }>(
        `${DEV_IDP_PREFIX}/interaction/:uid/abort`,
        { config: { clientLimit: 'sign-in' } },
        async (request, reply) => {
          if (!(await loadInteraction(request, reply))) return reply;
          return finish(request, reply, {
            error: 'access_denied',
            error_description: 'Sign-in was cancelled',
          });
        },
      );
    });

    // Everything else is the provider's own, and it reads its own request bodies (at most 56 KiB).
    await app.register(async (provided) => {
      provided.removeAllContentTypeParsers();
      provided.addContentTypeParser('*', (_request, _payload, done) => done(null));
      provided.all(`${DEV_IDP_PREFIX}/*`, { config: { clientLimit: 'public' } }, async (request, reply) => {
        reply.hijack();
        const req = request.raw as IncomingMessage & { originalUrl?: string };
        req.originalUrl = req.url;
        req.url = req.url!.slice(DEV_IDP_PREFIX.length) || '/';
        await callback(req, reply.raw);
      });
    });
  };

function providerConfiguration(config: Config, redirectUri: string): Configuration {
  return {
    clients: [
      {
        client_id: config.sso.clientId,
        client_secret: config.sso.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: true };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${DEV_IDP_PREFIX}/interaction/${interaction.uid}` },
    cookies: { keys: [config.jwtSecret] },
    pkce: { required: () => true },
    ttl: {
      Interaction: 3600,
      Session: 86_400,
      Grant: 86_400,
      AccessToken: 3600,
      IdToken: 3600,
      AuthorizationCode: 600,
    },
    // The product is the only client of this provider: consent is implied.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
}
