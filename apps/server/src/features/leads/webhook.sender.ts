import { createHmac, randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@threadreach/contract';
import {
  guardedConnector,
  ProxyTargetRefusedError,
  resolvePublicTarget,
  type TargetPolicy,
} from '../../integrations/proxy/ssrf-guard';
import { APP_VERSION } from '../../version';

/** Connecting, and waiting for the answer's headers and each chunk of its body, each stop after this. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is read of a webhook's answer before it is dropped: only the status matters. */
const ANSWER_READ_LIMIT = 64 * 1024;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'];

/** Why a webhook URL is refused; the text is shown to the customer. */
export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const NOT_PUBLIC = 'Webhook URL must resolve to a public address';

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Where webhooks may go: public addresses only, as for proxies; outside production also this machine, so
 * a receiver can be tried locally.
 */
function targetPolicy(production: boolean): TargetPolicy {
  return { allowedHosts: production ? [] : LOOPBACK_HOSTS };
}

/** Parses a webhook URL and checks what can be checked without connecting: form and scheme. */
export function parseWebhookUrl(raw: string, production: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('invalid_webhook_url', 'Webhook URL is not a valid URL');
  }
  if (url.username || url.password) {
    throw new WebhookUrlError('invalid_webhook_url', 'Webhook URL must not contain a user name or password');
  }
  const localHttp = url.protocol === 'http:' && !production && LOOPBACK_HOSTS.includes(bare(url.hostname));
  if (url.protocol !== 'https:' && !localHttp) {
    throw new WebhookUrlError('webhook_https_required', 'Webhook URL must use https');
  }
  return url;
}

/** Checks the URL and that its host resolves only to addresses webhooks may reach. */
export async function checkWebhookUrl(raw: string, production: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw, production);
  try {
    await resolvePublicTarget(url.hostname, targetPolicy(production));
  } catch (error) {
    if (!(error instanceof ProxyTargetRefusedError)) throw error;
    throw new WebhookUrlError('webhook_target_refused', NOT_PUBLIC);
  }
  return url;
}

/** A new signing secret. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=` and the hex HMAC-SHA256, keyed with the secret, of `<timestamp>.<raw body>`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type WebhookResult =
  | { ok: true; status: string }
  /** `refused`: the target is not one webhooks may reach, and `refusal` says why. */
  | { ok: false; status: string; refused: false }
  | { ok: false; status: string; refused: true; refusal: WebhookUrlError };

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  return typeof code === 'string' ? `error ${code}` : 'error';
}

/**
 * POSTs a signed body. The scheme is checked again and the connection goes through the SSRF guard, which
 * resolves the host and connects to the address it checked, so DNS changed since the URL was saved
 * cannot aim it inside. Redirects are not followed. Never throws for the target's failures.
 */
export async function postWebhook(input: {
  url: string;
  production: boolean;
  secret: string;
  body: string;
  timestamp: number;
}): Promise<WebhookResult> {
  let url: URL;
  try {
    url = parseWebhookUrl(input.url, input.production);
  } catch (error) {
    if (error instanceof WebhookUrlError)
      return { ok: false, status: `refused: ${error.detail}`, refused: true, refusal: error };
    throw error;
  }
  const dispatcher = new Agent({
    connect: guardedConnector(targetPolicy(input.production), { timeout: WEBHOOK_TIMEOUT_MS }),
  });
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        'user-agent': `Threadreach-Webhook/${APP_VERSION}`,
        [WEBHOOK_TIMESTAMP_HEADER]: String(input.timestamp),
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(input.secret, input.timestamp, input.body),
      },
      body: input.body,
      headersTimeout: WEBHOOK_TIMEOUT_MS,
      bodyTimeout: WEBHOOK_TIMEOUT_MS,
    });
    await res.body.dump({ limit: ANSWER_READ_LIMIT }).catch(() => undefined);
    const status = String(res.statusCode);
    return res.statusCode >= 200 && res.statusCode < 300
      ? { ok: true, status }
      : { ok: false, status, refused: false };
  } catch (error) {
    if (
      error instanceof ProxyTargetRefusedError ||
      (error as { code?: unknown }).code === 'proxy_target_refused'
    ) {
      const refusal = new WebhookUrlError('webhook_target_refused', NOT_PUBLIC);
      return { ok: false, status: `refused: ${NOT_PUBLIC}`, refused: true, refusal };
    }
    return { ok: false, status: describeFailure(error), refused: false };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}
