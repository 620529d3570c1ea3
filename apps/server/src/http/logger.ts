import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/** Query parameters that carry credentials: their values never reach a log line. */
const SECRET_QUERY_PARAMS = [
  'ver',
  'v3',
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'session_state',
];

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of SECRET_QUERY_PARAMS) if (params.has(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'authorization',
  'cookie',
  'password',
  'client_secret',
  'clientSecret',
  'token',
  'refresh_token',
  'access_token',
  'refreshToken',
  'accessToken',
  'apiKey',
  'api_key',
  '*.authorization',
  '*.cookie',
  '*.secret',
  '*.password',
  '*.client_secret',
  '*.token',
  '*.refresh_token',
  '*.access_token',
  '*.jwtSecret',
  '*.clientSecret',
  '*.proxyUrl',
  '*.proxy_url',
  '*.accessToken',
  '*.refreshToken',
  '*.apiKey',
  '*.api_key',
];

/**
 * What of a failed query's bound values may appear in its error (Drizzle and PGlite keep them on the
 * error and its causes, and the database may quote one back in its message): the list as Drizzle
 * prints it, then each text value.
 */
function boundValues(err: unknown): { texts: string[]; values: string[] } {
  const texts: string[] = [];
  const values: string[] = [];
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const params = (e as { params?: unknown }).params;
    if (Array.isArray(params) && params.length) {
      texts.push(`params: ${String(params)}`);
      // Short values would blank out unrelated text; they are numbers and flags, not what people wrote.
      for (const p of params) if (typeof p === 'string' && p.length >= 4) values.push(p);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return { texts, values: values.sort((a, b) => b.length - a.length) };
}

/**
 * Errors as pino writes them, without the values bound to a failed query: the SQL stays (it says what
 * failed); what people typed and the secrets bound to it do not.
 */
export function serializeError(err: Error): ReturnType<typeof stdSerializers.err> {
  const out = stdSerializers.err(err);
  if (!out || typeof out !== 'object') return out;
  const fields = out as unknown as Record<string, unknown>;
  const { texts, values } = boundValues(err);
  for (const key of ['params', 'parameters', 'queryOptions']) if (key in fields) fields[key] = '[redacted]';
  if (!texts.length) return out;
  for (const key of ['message', 'stack', 'detail', 'where']) {
    const original = fields[key];
    if (typeof original !== 'string') continue;
    let value = original;
    for (const text of texts) value = value.replaceAll(text, 'params: [redacted]');
    for (const bound of values) value = value.replaceAll(bound, '[redacted]');
    fields[key] = value;
  }
  return out;
}

export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    name: 'server',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      err: serializeError,
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
