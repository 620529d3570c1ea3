import {
  endpointKey,
  fillPath,
  type TEndpoint,
  type TEndpointRequest,
  type TEndpointResult,
} from '@threadreach/contract';
import {
  ApiError,
  CLIENT_MESSAGES,
  ContractMismatchError,
  chooseErrorMessage,
  errorBodyField,
  serverDetail,
} from './api-error';
import { endSessionAndGoToLogin, isSsoProcessing, refreshAccessToken } from './auth-session';
import { statusMessage } from './error-messages';
import { fetchWithTimeout, queryString, readJson } from './http';
import { isTokenExpiringSoon } from './jwt';
import { navigateTo } from './navigation';
import { getToken } from './token-storage';

export const SUBSCRIBE_PATH = '/subscribe';
/** Delay before a 402 answer sends the user to /subscribe (spec section 9). */
export const SUBSCRIBE_REDIRECT_DELAY_MS = 100;

export interface TCallOptions {
  /**
   * Bearer token, refresh before the call, 401 refresh-and-retry, 402/403 messages and the
   * 402 redirect. Default true; false for the calls made before or during sign-in.
   */
  auth?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The request may be left out when the endpoint needs no params, query or body. */
type TCallArgs<E extends TEndpoint> =
  Record<never, never> extends TEndpointRequest<E>
    ? [request?: TEndpointRequest<E>, options?: TCallOptions]
    : [request: TEndpointRequest<E>, options?: TCallOptions];

interface TRequestParts {
  params?: Record<string, unknown>;
  query?: object;
  body?: unknown;
}

async function prepareToken(): Promise<string | null> {
  const token = getToken();
  if (token && !isSsoProcessing() && isTokenExpiringSoon(token)) {
    await refreshAccessToken();
    return getToken();
  }
  return token;
}

function send(
  endpoint: TEndpoint,
  request: TRequestParts,
  options: TCallOptions,
  token: string | null,
  accept: string,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetchWithTimeout(
    fillPath(endpoint.path, request.params) + queryString(request.query),
    {
      method: endpoint.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
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

async function toApiError(response: Response, endpoint: TEndpoint, auth: boolean): Promise<ApiError> {
  const body = await readJson(response);
  const detail = serverDetail(body);
  const code = errorBodyField(body, 'code');
  const mapped = auth ? statusMessage(response.status, endpoint, detail) : null;
  if (response.status === 402 && auth) scheduleSubscribeRedirect();
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

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

/** Throws when a success answer is not what the endpoint declares: the server and the contract drifted. */
function checkAnswer(endpoint: TEndpoint, status: number, body: unknown): void {
  const schema = endpoint.responses[status];
  if (schema === undefined) {
    throw new ContractMismatchError(
      `${endpointKey(endpoint)} answered ${status}, a status its contract does not declare`,
    );
  }
  if (schema === null) return;
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ContractMismatchError(
      `${endpointKey(endpoint)} answered ${status} with a body its contract does not allow: ${describeIssues(result.error.issues)}`,
    );
  }
}

/** Sends a request with the session handling of every call; resolves a success response. */
async function respond(
  endpoint: TEndpoint,
  request: TRequestParts,
  options: TCallOptions,
  accept: string,
): Promise<Response> {
  const auth = options.auth !== false;
  let response = await send(endpoint, request, options, auth ? await prepareToken() : null, accept);

  if (response.status === 401 && auth && !isSsoProcessing()) {
    if (await refreshAccessToken()) {
      response = await send(endpoint, request, options, getToken(), accept);
    } else {
      const error = await toApiError(response, endpoint, auth);
      endSessionAndGoToLogin();
      throw error;
    }
  }

  if (!response.ok) throw await toApiError(response, endpoint, auth);
  return response;
}

/**
 * Calls one endpoint of the contract: fills its path, sends the query and the JSON body, and resolves
 * the success answer's body. Errors reject with an ApiError carrying the message to show.
 */
export function call<E extends TEndpoint>(endpoint: E, ...args: TCallArgs<E>): Promise<TEndpointResult<E>>;
export async function call(
  endpoint: TEndpoint,
  request: TRequestParts = {},
  options: TCallOptions = {},
): Promise<unknown> {
  const response = await respond(endpoint, request, options, 'application/json');
  const body = response.status === 204 ? undefined : await readJson(response);
  // Development and tests check every answer; production builds leave the check out. The body is
  // returned as received either way, so tests see what production sees.
  if (import.meta.env.DEV || import.meta.env.MODE === 'test') checkAnswer(endpoint, response.status, body);
  return body;
}

/**
 * Calls an endpoint that answers with a file (a CSV export), with the same bearer token, refresh and error
 * messages as `call`, and resolves its content and the name the server gives it, if any. Files can be
 * large: `onProgress` hears how many bytes have arrived each time more do, so the page can say how far it is.
 */
export function download<E extends TEndpoint>(
  endpoint: E,
  request: TEndpointRequest<E>,
  onProgress: (bytes: number) => void,
  options?: TCallOptions,
): Promise<{ content: Blob; fileName: string | null }>;
export async function download(
  endpoint: TEndpoint,
  request: TRequestParts,
  onProgress: (bytes: number) => void,
  options: TCallOptions = {},
): Promise<{ content: Blob; fileName: string | null }> {
  const response = await respond(endpoint, request, options, '*/*');
  const fileName = attachmentFileName(response.headers.get('content-disposition'));
  if (!response.body) return { content: await response.blob(), fileName };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress(bytes);
  }
  const type = response.headers.get('content-type') ?? '';
  return { content: new Blob(chunks as BlobPart[], { type }), fileName };
}

/** What has arrived of a download, as a page says it: a large export can take many seconds. */
export function receivedText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  const amount =
    mb < 1 ? `${Math.floor(bytes / 1024)} KB` : mb < 10 ? `${mb.toFixed(1)} MB` : `${Math.floor(mb)} MB`;
  return `Exporting… ${amount} received`;
}

/** The file name a `Content-Disposition: attachment; filename="..."` header gives, or null. */
export function attachmentFileName(header: string | null): string | null {
  const name = header && /filename="([^"]+)"/i.exec(header)?.[1];
  return name || null;
}
