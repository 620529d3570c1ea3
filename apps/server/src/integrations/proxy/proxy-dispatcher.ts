import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import { guardedConnector, type TargetPolicy } from './ssrf-guard';

/** Timeouts shared by direct and proxied connections to Reddit. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A dispatcher whose traffic leaves through `proxyUrl`. The connection to the proxy goes through the
 * SSRF guard, so a proxy that is (or resolves to) a private address is refused when it is dialled.
 */
export function createProxyDispatcher(proxyUrl: string, policy: TargetPolicy): Dispatcher {
  return new ProxyAgent({
    uri: proxyUrl,
    // Always CONNECT-tunnel, so the only connection ever dialled to the proxy is the guarded one below.
    proxyTunnel: true,
    clientFactory: (origin, opts) =>
      new Pool(origin, {
        ...(opts as Pool.Options),
        connect: guardedConnector(policy, { timeout: CONNECT_TIMEOUT_MS }),
      }),
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });
}

/** Direct connections (no proxy configured). */
export function createDirectDispatcher(): Dispatcher {
  return new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS }, keepAliveTimeout: 30_000 });
}
