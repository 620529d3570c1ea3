import { format } from 'node:util';
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

const CENSOR = '[redacted]';

const SECRET_PATTERNS: [RegExp, string][] = [
  // JWTs (their header always starts with `{"`, base64url `eyJ`).
  [/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, CENSOR],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${CENSOR}`],
  // user:password@ in URLs (proxies, database strings).
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, `$1${CENSOR}@`],
  // Credentials in query strings.
  [
    /([?&](?:ver|v3|code|state|token|access_token|refresh_token|id_token|session_state|client_secret|password|api_key)=)[^&\s#"']+/gi,
    `$1${CENSOR}`,
  ],
  // The demo billing pages' session ids, the only key to a customer's checkout and plan.
  [/\b((?:cs|bps)_local_)[A-Za-z0-9_-]+/g, `$1${CENSOR}`],
  // key=value and "key": "value" pairs.
  [
    /\b(password|passwd|client_secret|clientSecret|secret|refresh_token|refreshToken|access_token|accessToken|id_token|api_key|apiKey|authorization|cookie|set-cookie|tr_refresh)(["']?\s*[=:]\s*["']?)(?:(?:Bearer|Basic)\s+)?[^\s"'&,;}]+/gi,
    `$1$2${CENSOR}`,
  ],
];

/** Any of the patterns, tested once before replacing: most texts hold none, and one scan is cheaper than five. */
const MAYBE_SECRET = new RegExp(SECRET_PATTERNS.map(([pattern]) => pattern.source).join('|'), 'i');

/**
 * What every pattern needs: a JWT's `eyJ`, a Bearer or Basic word, a `=`, `:` or `@`, or `_local_`. Most
 * texts (a request's method, path and address) have none, and this costs a quarter of the full test.
 */
const MAY_HOLD_SECRET = /[=:@]|eyJ|b(?:earer|asic)\s|_local_/i;

/** Removes tokens, secrets and credentials from free text before it is stored. */
export function scrubSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text) || !MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Keys whose values never reach a log line: headers, credentials and tokens. Log objects are checked per key,
 * at any depth down to REDACT_DEPTH and in any letter case, rather than with pino `redact` paths, whose
 * wildcards cloned and walked every field of every line (about 15 µs a line, most of what a request line
 * cost). A child logger's bindings are not passed to pino's formatters; serializers catch these names there.
 */
const SECRET_KEY_NAMES = [
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  'set-cookie',
  'password',
  'secret',
  'client_secret',
  'clientSecret',
  'token',
  'id_token',
  'refresh_token',
  'access_token',
  'refreshToken',
  'accessToken',
  'apiKey',
  'api_key',
  'jwtSecret',
  'proxyUrl',
  'proxy_url',
];
const SECRET_KEYS: ReadonlySet<string> = new Set(SECRET_KEY_NAMES.map((name) => name.toLowerCase()));

/** A test of field names that remembers its verdicts: the same few dozen names recur on every line. */
function byFieldName(test: (key: string) => boolean, max = 1000): (key: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (key) => {
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = test(key);
      if (verdicts.size < max) verdicts.set(key, verdict);
    }
    return verdict;
  };
}

/** Whether a logged field's value is replaced whole, whatever its letter case. */
export const isSecretKey = byFieldName((key) => SECRET_KEYS.has(key.toLowerCase()));
const REDACT_DEPTH = 4;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The value with the value of every secret key replaced and every text scrubbed. Objects and arrays are
 * copied only along the way to something replaced, so what the caller logged is never changed; errors and
 * other class instances are left to their serializers.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (value === null || typeof value !== 'object' || depth >= REDACT_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = redactSecrets(item, depth + 1);
      if (next !== item) (copy ??= value.slice())[i] = next;
    }
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const key in value) {
    const item = value[key];
    if (item === undefined) continue;
    const next = redactField(key, item, depth + 1);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return (copy ?? value) as T;
}

/** One field of a logged object at `depth`: censored when its name is a secret's, redacted otherwise. */
function redactField(key: string, value: unknown, depth: number): unknown {
  return isSecretKey(key) ? CENSOR : redactSecrets(value, depth);
}

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
  for (const key of ['params', 'parameters', 'queryOptions']) if (key in fields) fields[key] = CENSOR;
  for (const key of ['message', 'stack', 'detail', 'where']) {
    const original = fields[key];
    if (typeof original !== 'string') continue;
    let value = original;
    for (const text of texts) value = value.replaceAll(text, 'params: [redacted]');
    for (const bound of values) value = value.replaceAll(bound, CENSOR);
    fields[key] = value;
  }
  // pino's error object is not a plain one, so its fields (the texts above, and what an error carries, such
  // as a response or a request's config with its headers) are redacted one by one.
  for (const key of Object.keys(fields)) fields[key] = redactField(key, fields[key], 0);
  return out;
}

/**
 * The message pino would take from an error logged without one (`log.error(err)`, `log.error({ err })`),
 * cleaned as the error's own field is: pino copies the raw `err.message`, bound values and all.
 */
function errorAsMessage(logged: unknown): string | undefined {
  if (!logged || typeof logged !== 'object') return undefined;
  const err = logged instanceof Error ? logged : (logged as { err?: unknown; msg?: unknown }).err;
  if (!(logged instanceof Error) && (logged as { msg?: unknown }).msg !== undefined) return undefined;
  if (!err || typeof err !== 'object') return undefined;
  const message = (err as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  if (!(err instanceof Error)) return scrubSecrets(message);
  const cleaned = (serializeError(err) as { message?: unknown } | undefined)?.message;
  return typeof cleaned === 'string' ? cleaned : scrubSecrets(message);
}

/**
 * A secret split over a format's arguments (`'%s %s', 'Bearer', token`) that no argument holds alone: the
 * call made again with the message formatted and scrubbed; null (pino formats as usual) otherwise.
 */
function scrubbedFormat(args: unknown[]): [string] | [object, string] | null {
  const at = typeof args[0] === 'string' ? 0 : 1;
  const template = args[at];
  if (typeof template !== 'string' || args.length <= at + 1 || !template.includes('%')) return null;
  const rendered = format(template, ...args.slice(at + 1));
  const scrubbed = scrubSecrets(rendered);
  if (scrubbed === rendered) return null;
  return at === 0 ? [scrubbed] : [args[0] as object, scrubbed];
}

export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    name: 'server',
    formatters: { log: redactSecrets, bindings: redactSecrets },
    hooks: {
      // The message and its format arguments are texts too (formatters never see them).
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const arg: unknown = args[i];
          if (typeof arg === 'string') (args as unknown[])[i] = scrubSecrets(arg);
        }
        const message = args.length === 1 ? errorAsMessage(args[0]) : undefined;
        if (message !== undefined) return method.call(this, args[0] as object, message);
        const formatted = scrubbedFormat(args);
        if (formatted)
          return formatted.length === 1 ? method.call(this, formatted[0]) : method.apply(this, formatted);
        return method.apply(this, args);
      },
    },
    serializers: {
      ...Object.fromEntries(SECRET_KEY_NAMES.map((name) => [name, () => CENSOR])),
      err: serializeError,
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
