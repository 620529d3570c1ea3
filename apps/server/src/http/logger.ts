import type { FastifyServerOptions } from 'fastify';

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

export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    name: 'server',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
