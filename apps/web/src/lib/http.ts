import { ApiError, CLIENT_MESSAGES } from './api-error';

/** Timeout of every API call (spec section 9). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The query string of a request (with its `?`), leaving out empty values; arrays repeat their key. */
export function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(key, String(item));
    }
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/**
 * fetch with credentials and a timeout; a network failure, a timeout and an abort become an
 * ApiError with status 0 and the client's message.
 */
export async function fetchWithTimeout(
  url: string,
  init: RequestInit = {},
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const outer = init.signal;
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort);
  try {
    return await fetch(url, { credentials: 'include', ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ApiError(CLIENT_MESSAGES.timeout(timeoutMs), 0);
    if (controller.signal.aborted) throw new ApiError(CLIENT_MESSAGES.aborted, 0);
    throw new ApiError(CLIENT_MESSAGES.network, 0, null, null, error);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** The JSON body of a response, or null when there is none or it is not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}
