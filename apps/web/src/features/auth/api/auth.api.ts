import type {
  TAuthTokenResponse,
  TMeResponse,
  TPublicConfig,
  TSsoStartResponse,
  TV3LoginResponse,
} from '@threadreach/contract';
import { authEndpoints, systemEndpoints, usersEndpoints } from '@threadreach/contract';
import { call } from '../../../lib/api-client';
import { ApiError, errorBodyField } from '../../../lib/api-error';
import { clearSsoProcessingLater, refreshAccessToken, setSsoProcessing } from '../../../lib/auth-session';
import { getUserInfo } from '../../../lib/jwt';
import { localPrefs } from '../../../lib/local-prefs';
import { setToken } from '../../../lib/token-storage';

export const DEFAULT_SUBSCRIBE_PATH = '/subscribe';
/** error_code of an SSO callback answered with 500: the payment provider is not configured. */
export const PAYMENT_PROVIDER_NOT_CONFIGURED = 'payment_provider_not_configured';

export const AUTH_MESSAGES = {
  ssoStartFailed: (status: number) => `SSO initiation failed with status ${status}`,
  noSsoUrl: 'No SSO URL returned from backend.',
  missingVer: 'Missing SSO callback parameters (ver token).',
  callbackFailed: (status: number) => `SSO callback failed with status ${status}`,
  noCallbackToken: 'No JWT token received from SSO callback.',
  invalidToken: 'Invalid token format.',
  serverConfiguration: 'Server configuration error',
  v3Network: 'Network error during V3 login',
  v3Failed: 'Authentication failed',
} as const;

export function getPublicConfig(): Promise<TPublicConfig> {
  return call(systemEndpoints.publicConfig, {}, { auth: false });
}

/**
 * The signed-in user as the server has them now. A plan that ended (or began) since the access token was
 * issued leaves the token's profiles_limit behind: the token is then refreshed, so the subscription
 * gate and the plans page go by the plan the customer has, not by the one they had.
 */
export async function getMe(): Promise<TMeResponse> {
  const me = await call(usersEndpoints.me);
  const claimed = getUserInfo()?.profiles_limit;
  if (claimed !== undefined && claimed !== me.profiles_limit) void refreshAccessToken();
  return me;
}

/** Asks the server where to sign in; resolves the provider's URL. */
export async function startSso(redirectTo?: string): Promise<string> {
  let data: TSsoStartResponse | null;
  try {
    // After a logout, the next sign-in may be someone else's: the provider asks who, not its session.
    const prompt = localPrefs.getSignedOut() ? ('login' as const) : undefined;
    data = await call(
      authEndpoints.ssoStart,
      { query: { redirect_to: redirectTo, ...(prompt ? { prompt } : {}) } },
      { auth: false },
    );
  } catch (error) {
    if (error instanceof ApiError && error.status > 0) {
      throw new Error(error.detail ?? AUTH_MESSAGES.ssoStartFailed(error.status), { cause: error });
    }
    throw error;
  }
  if (!data?.sso_url) throw new Error(AUTH_MESSAGES.noSsoUrl);
  return data.sso_url;
}

export interface TSsoCallbackParams {
  ver: string | null;
  redirect_to?: string | null;
  add?: string | null;
  v2?: string | null;
}

/** Outcome of the SSO callback as the client sees it (spec section 3). */
export interface TSsoCallbackResult {
  success: boolean;
  token?: string;
  redirect_url?: string;
  requires_subscription?: boolean;
  subscribe_url?: string;
  server_error?: boolean;
  error_code?: string;
  error_message?: string;
}

async function runSsoCallback(ver: string, params: TSsoCallbackParams): Promise<TSsoCallbackResult> {
  let data: TAuthTokenResponse | null;
  try {
    data = await call(
      authEndpoints.callback,
      {
        query: {
          ver,
          redirect_to: params.redirect_to ?? undefined,
          add: params.add ?? undefined,
          v2: params.v2 ?? undefined,
        },
      },
      { auth: false },
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0) throw error;
    if (error.status === 402 || errorBodyField(error.data, 'requires_subscription') === true) {
      const subscribeUrl = errorBodyField(error.data, 'subscribe_url');
      return {
        success: false,
        requires_subscription: true,
        subscribe_url: typeof subscribeUrl === 'string' ? subscribeUrl : DEFAULT_SUBSCRIBE_PATH,
      };
    }
    if (error.status === 500) {
      return {
        success: false,
        server_error: true,
        error_code: PAYMENT_PROVIDER_NOT_CONFIGURED,
        error_message: error.detail ?? AUTH_MESSAGES.serverConfiguration,
      };
    }
    throw new Error(error.detail ?? AUTH_MESSAGES.callbackFailed(error.status), { cause: error });
  }

  const token = data?.token;
  if (!data || !token) throw new Error(AUTH_MESSAGES.noCallbackToken);
  if (!setToken(token)) throw new Error(AUTH_MESSAGES.invalidToken);
  localPrefs.setSignedOut(false);
  if (data.requires_subscription) {
    return {
      success: true,
      token,
      redirect_url: data.redirect_url,
      requires_subscription: true,
      subscribe_url: data.subscribe_url || DEFAULT_SUBSCRIBE_PATH,
    };
  }
  return { success: true, token, redirect_url: data.redirect_url || '/' };
}

const callbacksInFlight = new Map<string, Promise<TSsoCallbackResult>>();

/**
 * Exchanges the callback's ver for a token and stores it. The same ver is exchanged once: a
 * duplicate call gets the first call's outcome. Refreshes are suspended meanwhile.
 */
export function completeSsoCallback(params: TSsoCallbackParams): Promise<TSsoCallbackResult> {
  const ver = params.ver;
  if (!ver) return Promise.reject(new Error(AUTH_MESSAGES.missingVer));
  let pending = callbacksInFlight.get(ver);
  if (!pending) {
    setSsoProcessing(true);
    pending = runSsoCallback(ver, params).finally(() => clearSsoProcessingLater());
    callbacksInFlight.set(ver, pending);
  }
  return pending;
}

/** The text after 'V3 Login Error: ' for a failed v3 login. */
export function v3ErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return AUTH_MESSAGES.v3Network;
    if (error.detail) return error.detail;
    return `HTTP ${error.status}: ${error.statusText}`;
  }
  return error instanceof Error && error.message ? error.message : AUTH_MESSAGES.v3Failed;
}

const v3InFlight = new Map<string, Promise<TV3LoginResponse>>();

async function runV3Login(v3: string): Promise<TV3LoginResponse> {
  const data = await call(authEndpoints.v3Login, { query: { v3 } }, { auth: false });
  if (!data?.token || !setToken(data.token)) throw new Error(AUTH_MESSAGES.v3Failed);
  return data;
}

/** Direct login with a v3 token; a second call with the same token waits for the first. */
export function loginWithV3(v3: string): Promise<TV3LoginResponse> {
  let pending = v3InFlight.get(v3);
  if (!pending) {
    pending = runV3Login(v3);
    v3InFlight.set(v3, pending);
  }
  return pending;
}
