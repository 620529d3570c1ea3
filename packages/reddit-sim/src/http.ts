import type { IncomingMessage } from 'node:http';
import type { SimUser } from './corpus/users';

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON, strings as-is with `contentType` (default text/html). */
  body?: unknown;
  contentType?: string;
}

export interface AccessToken {
  token: string;
  clientId: string;
  /** Absent for app-only tokens (client_credentials / installed_client). */
  user?: SimUser;
  scopes: string[];
  expiresAt: number;
}

export interface RouteContext {
  method: string;
  path: string;
  params: string[];
  query: URLSearchParams;
  form: URLSearchParams;
  json: unknown;
  headers: IncomingMessage['headers'];
  now: number;
  token?: AccessToken;
  clientId?: string;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): SimResponse {
  return { status, body, headers };
}

/** Reddit's generic error body, e.g. {"message":"Not Found","error":404}. */
export function redditError(status: number, extra?: Record<string, unknown>): SimResponse {
  const message: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return json(status, { message: message[status] ?? 'Error', error: status, ...extra });
}

export function html(status: number, body: string): SimResponse {
  return { status, body, contentType: 'text/html; charset=utf-8' };
}

export function redirect(location: string): SimResponse {
  return { status: 302, headers: { location }, body: '', contentType: 'text/plain' };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
