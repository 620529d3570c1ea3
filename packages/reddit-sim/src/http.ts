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

/** The note every page a browser opens here starts with, so nobody takes it for reddit.com. */
export const SIM_PAGE_NOTE = 'Simulated Reddit: this page exists only in the demo, not on reddit.com.';

/** A page a browser opens on the simulator (permalinks, the consent form), plainly styled, saying it is simulated. */
export function simPage(status: number, title: string, main: string, note = SIM_PAGE_NOTE): SimResponse {
  return html(
    status,
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 0 auto; padding: 1rem; color: #1a1a1b; }
      .sim { background: #fff4e5; border: 1px solid #f0b35a; padding: .5rem .75rem; border-radius: 4px; }
      .meta { color: #576f76; font-size: .875rem; }
      article { border: 1px solid #ccc; border-radius: 4px; padding: .75rem 1rem; margin: 1rem 0; }
      .text { white-space: pre-wrap; margin: 0; }
      article.highlight { border-color: #0079d3; border-width: 2px; }
      h1 { font-size: 1.375rem; line-height: 1.3; }
      a { color: #0051a3; }
      form { display: grid; gap: 1rem; justify-items: start; margin-top: 1.5rem; }
      select, button { font: inherit; padding: .375rem .75rem; border-radius: 999px; border: 1px solid #878a8c; background: #fff; }
      label { display: grid; gap: .25rem; font-weight: 600; }
      select { font-weight: 400; }
      .actions { display: flex; gap: .5rem; }
      button[value="Approve"] { background: #0079d3; border-color: #0079d3; color: #fff; font-weight: 600; }
    </style>
  </head>
  <body>
    <p class="sim" role="note">${escapeHtml(note)}</p>
    <main>
${main}
    </main>
  </body>
</html>
`,
  );
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
