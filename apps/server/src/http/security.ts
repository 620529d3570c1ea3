import fastifyRateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import ipaddr from 'ipaddr.js';
import { authEndpoints, endpointKey } from '@threadreach/contract';
import type { Config } from '../config/config';
import { endpointOf } from './endpoints';
import { AppError } from './errors';

/** Which per-address limit a route without a token counts against (docs/decisions/019-security-baseline.md). */
export type ClientLimit = 'sign-in' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** For routes outside the contract (the development sign-in): the limit they count against. */
    clientLimit?: ClientLimit;
  }
}

const SIGN_IN_ENDPOINTS = new Set(
  [authEndpoints.ssoStart, authEndpoints.callback, authEndpoints.v3Login].map(endpointKey),
);
const WINDOW_MS = 60_000;

/** The limit a request counts against, or null for routes that need a token (and the web app's files). */
export function clientLimitOf(request: FastifyRequest): ClientLimit | null {
  const endpoint = endpointOf(request);
  if (endpoint) {
    if (endpoint.scope.kind !== 'public') return null;
    return SIGN_IN_ENDPOINTS.has(endpointKey(endpoint)) ? 'sign-in' : 'public';
  }
  const declared = request.routeOptions.config?.clientLimit;
  if (declared) return declared;
  // The API documentation: the only other routes under /api.
  return request.routeOptions.url?.startsWith('/api/') ? 'public' : null;
}

/** Who a limit counts: an IPv4 address, or an IPv6 client by its /64 (one customer line hands out many). */
export function clientAddress(ip: string): string {
  try {
    const parsed = ipaddr.process(ip);
    if (parsed.kind() === 'ipv4') return parsed.toString();
    return `${(parsed as ipaddr.IPv6).parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(':')}::/64`;
  } catch {
    return ip;
  }
}

function origin(url: string): string {
  return new URL(url).origin;
}

/**
 * The Content Security Policy of every answer. Scripts only from this origin (the support chat's origin
 * when one is configured); inline styles because Mantine and the API docs set them; no framing at all.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const self = "'self'";
  const chat = config.supportChatScriptUrl ? [origin(config.supportChatScriptUrl)] : [];
  const directives: Record<string, string[]> = {
    'default-src': [self],
    'base-uri': [self],
    'script-src': [self, ...chat],
    'script-src-attr': ["'none'"],
    'style-src': [self, "'unsafe-inline'"],
    'img-src': [self, 'data:', ...chat],
    'font-src': [self, 'data:'],
    'connect-src': [self, ...chat],
    'frame-src': chat.length ? chat : ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    // Sign-in and checkout forms post here and are redirected back to PUBLIC_URL.
    'form-action': [...new Set([self, origin(config.publicUrl)])],
  };
  if (config.publicUrl.startsWith('https://')) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/**
 * Security headers on every answer, and per-address rate limits on routes without a token. Registered
 * before any route, so that every route gets the limit hook.
 */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  const https = config.publicUrl.startsWith('https://');
  const options: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
  // Built once: @fastify/helmet rebuilt every middleware (and re-parsed the policy) on each request.
  const setSecurityHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });

  const perMinute: Record<ClientLimit, number> = {
    'sign-in': config.rateLimits.signInPerMinute,
    public: config.rateLimits.publicPerMinute,
  };
  const limits: RateLimitPluginOptions = {
    global: true,
    timeWindow: WINDOW_MS,
    // Requests of routes that need a token pass untouched; a limit of 0 is no limit.
    allowList: (request) => {
      const limit = clientLimitOf(request);
      return limit === null || perMinute[limit] === 0;
    },
    keyGenerator: (request) => `${clientLimitOf(request)}|${clientAddress(request.ip)}`,
    max: (request) => perMinute[clientLimitOf(request) ?? 'public'],
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        'rate_limited',
        `Too many requests from this address. Please try again in ${context.after}.`,
      ),
  };
  await app.register(fastifyRateLimit, limits);
}

/**
 * Refuses a browser request sent from another site: a cookie-authenticated call must come from a page of
 * this application. `Sec-Fetch-Site` is the browser's own word (it holds behind a proxy that rewrites
 * the origin); without it, `Origin` must be PUBLIC_URL's. Clients that send neither are not browsers,
 * and a forged request needs a browser that carries the victim's cookie.
 */
export function refuseCrossSite(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  const sentOrigin = request.headers.origin;
  const allowed =
    typeof site === 'string'
      ? site === 'same-origin' || site === 'none'
      : sentOrigin === undefined || sentOrigin === origin(publicUrl);
  if (!allowed) {
    throw new AppError(403, 'cross_site', 'Cross-site requests are not accepted here.');
  }
}
