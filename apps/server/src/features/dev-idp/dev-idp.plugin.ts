import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../../config/config';
import { DEMO_USERS } from './demo-users';
import { renderPicker } from './picker.page';

export const DEV_IDP_PREFIX = '/dev-idp';

const ZEmail = z.email();

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
    });
    const callback = provider.callback();

    // oidc-provider reads its own request bodies; only the picker's form posts are parsed here.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (request, payload, done) => {
      if (!request.url.startsWith(`${DEV_IDP_PREFIX}/interaction/`)) return done(null);
      let body = '';
      payload.setEncoding('utf8');
      payload.on('data', (chunk: string) => {
        body += chunk;
      });
      payload.on('end', () => done(null, Object.fromEntries(new URLSearchParams(body))));
      payload.on('error', done);
    });

    app.get<{ Params: { uid: string } }>(`${DEV_IDP_PREFIX}/interaction/:uid`, async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.trim() : '';
      if (details.prompt.name === 'login' && ZEmail.safeParse(hint).success) {
        reply.hijack();
        return provider.interactionFinished(request.raw, reply.raw, {
          login: { accountId: hint.toLowerCase() },
        });
      }
      if (details.prompt.name !== 'login') {
        reply.hijack();
        return provider.interactionFinished(
          request.raw,
          reply.raw,
          { consent: {} },
          { mergeWithLastSubmission: true },
        );
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(renderPicker(`${DEV_IDP_PREFIX}/interaction/${request.params.uid}`, DEMO_USERS));
    });

    app.post<{ Params: { uid: string }; Body: { email?: string } }>(
      `${DEV_IDP_PREFIX}/interaction/:uid/login`,
      async (request, reply) => {
        const email = ZEmail.safeParse(request.body?.email?.trim());
        reply.hijack();
        if (!email.success) {
          return provider.interactionFinished(request.raw, reply.raw, {
            error: 'access_denied',
            error_description: 'A valid e-mail address is required',
          });
        }
        return provider.interactionFinished(request.raw, reply.raw, {
          login: { accountId: email.data.toLowerCase() },
        });
      },
    );

    app.post<{ Params: { uid: string } }>(
      `${DEV_IDP_PREFIX}/interaction/:uid/abort`,
      async (request, reply) => {
        reply.hijack();
        return provider.interactionFinished(request.raw, reply.raw, {
          error: 'access_denied',
          error_description: 'Sign-in was cancelled',
        });
      },
    );

    app.all(`${DEV_IDP_PREFIX}/*`, async (request, reply) => {
      reply.hijack();
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      req.originalUrl = req.url;
      req.url = req.url!.slice(DEV_IDP_PREFIX.length) || '/';
      await callback(req, reply.raw);
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
