import * as oidc from 'openid-client';
import type { Config } from '../../config/config';

/** The OpenID Connect relying party: production's provider or the built-in development one. */
export interface SsoClient {
  redirectUri: string;
  authorizationUrl(params: {
    state: string;
    nonce: string;
    codeChallenge: string;
    prompt?: 'login' | undefined;
  }): Promise<URL>;
  exchange(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<{ issuer: string; subject: string; email: string | null; emailVerified: boolean }>;
}

/** Time limit of each call to the provider (discovery, code exchange, userinfo); the configuration keeps it. */
const SSO_TIMEOUT_SECONDS = 15;

export function ssoReturnPath(): string {
  return '/api/v1/auth/sso/return';
}

export function createSsoClient(config: Config): SsoClient {
  const redirectUri = `${config.publicUrl}${ssoReturnPath()}`;
  let discovered: Promise<oidc.Configuration> | null = null;

  // Discovered lazily and retried after a failure: the provider may be down at start, or be
  // this very server (the development provider) before it listens.
  function configuration(): Promise<oidc.Configuration> {
    if (!discovered) {
      const issuer = new URL(config.sso.issuer);
      discovered = oidc
        .discovery(issuer, config.sso.clientId, config.sso.clientSecret, undefined, {
          timeout: SSO_TIMEOUT_SECONDS,
          ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          discovered = null;
          throw error;
        });
    }
    return discovered;
  }

  return {
    redirectUri,
    async authorizationUrl({ state, nonce, codeChallenge, prompt }) {
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(prompt ? { prompt } : {}),
      });
    },
    async exchange(callbackUrl, checks) {
      const cfg = await configuration();
      const tokens = await oidc.authorizationCodeGrant(cfg, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let email = typeof claims.email === 'string' ? claims.email : null;
      let emailVerified = claims.email_verified === true;
      if (!email) {
        const info = await oidc.fetchUserInfo(cfg, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : null;
        emailVerified = info.email_verified === true;
      }
      return { issuer: cfg.serverMetadata().issuer, subject: claims.sub, email, emailVerified };
    },
  };
}

export const { randomPKCECodeVerifier, calculatePKCECodeChallenge, randomState, randomNonce } = oidc;
