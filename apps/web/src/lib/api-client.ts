import { ApiError, CLIENT_MESSAGES, chooseErrorMessage, serverDetail } from './api-error';
import { endSessionAndGoToLogin, isSsoProcessing, refreshAccessToken } from './auth-session';
import { statusMessage } from './error-messages';
import { apiUrl, fetchWithTimeout, readJson, type TQueryValue } from './http';
import { isTokenExpiringSoon } from './jwt';
import { navigateTo } from './navigation';
import { getToken } from './token-storage';

export const SUBSCRIBE_PATH = '/subscribe';
/** Delay before a 402 answer sends the user to /subscribe (spec section 9). */
export const SUBSCRIBE_REDIRECT_DELAY_MS = 100;

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TRequestOptions {
  method?: THttpMethod;
  query?: Record<string, TQueryValue>;
  body?: unknown;
  /**
   * Bearer token, refresh before the call, 401 refresh-and-retry, 402/403 messages and the
   * 402 redirect. Default true; false for the calls made before or during sign-in.
   */
  auth?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

async function prepareToken(): Promise<string | null> {
  const token = getToken();
  if (token && !isSsoProcessing() && isTokenExpiringSoon(token)) {
    await refreshAccessToken();
    return getToken();
  }
  return token;
}

function send(path: string, options: TRequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetchWithTimeout(
    apiUrl(path, options.query),
    {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    },
    options.timeoutMs,
  );
}

function scheduleSubscribeRedirect(): void {
  setTimeout(() => {
    if (!window.location.pathname.startsWith(SUBSCRIBE_PATH)) navigateTo(SUBSCRIBE_PATH);
  }, SUBSCRIBE_REDIRECT_DELAY_MS);
}

async function toApiError(response: Response, path: string, options: TRequestOptions): Promise<ApiError> {
  const body = await readJson(response);
  const detail = serverDetail(body);
  const code = (body as { code?: unknown } | null)?.code;
  const method = options.method ?? 'GET';
  const mapped = options.auth === false ? null : statusMessage(response.status, method, path, detail);
  if (response.status === 402 && options.auth !== false) scheduleSubscribeRedirect();
  const message = mapped ?? chooseErrorMessage(body, CLIENT_MESSAGES.status(response.status));
  return new ApiError(
    message,
    response.status,
    detail,
    typeof code === 'string' ? code : null,
    body,
    response.statusText,
  );
}

/** The one API client: JSON over fetch to /api/v1, typed by the contract's types. */
export async function apiRequest<T>(path: string, options: TRequestOptions = {}): Promise<T> {
  const auth = options.auth !== false;
  let response = await send(path, options, auth ? await prepareToken() : null);

  if (response.status === 401 && auth && !isSsoProcessing()) {
    if (await refreshAccessToken()) {
      response = await send(path, options, getToken());
    } else {
      const error = await toApiError(response, path, options);
      endSessionAndGoToLogin();
      throw error;
    }
  }

  if (!response.ok) throw await toApiError(response, path, options);
  if (response.status === 204) return undefined as T;
  return (await readJson(response)) as T;
}

type TBodyOptions = Omit<TRequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: TBodyOptions) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: TBodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: TBodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: TBodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = void>(path: string, options?: TBodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
