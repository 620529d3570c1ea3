import { vi } from 'vitest';

export interface TMockRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
  init: RequestInit;
}

export type TMockHandler = (req: TMockRequest) => Response | Promise<Response>;

export function jsonResponse(status: number, body?: unknown, statusText = ''): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, statusText });
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces global fetch. Keys are 'METHOD /path' without the /api/v1 prefix; a value is a handler
 * or a [status, body] pair. Unmatched requests fail the test with a 599.
 */
export function mockApi(routes: Record<string, TMockHandler | [number, unknown?]>) {
  const calls: TMockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const req: TMockRequest = { method, path, url, headers: new Headers(init.headers), body, init };
    calls.push(req);
    const route = routes[`${method} ${path}`];
    if (!route) return jsonResponse(599, { detail: `Unmocked ${method} ${path}`, code: 'unmocked' });
    if (typeof route === 'function') return route(req);
    return jsonResponse(route[0], route[1]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
