import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

export class ProxyTargetRefusedError extends Error {
  override name = 'ProxyTargetRefusedError';
  readonly code = 'proxy_target_refused';
}

export interface TargetPolicy {
  /** Host names or addresses let through although private (a local test proxy, an in-cluster proxy). */
  allowedHosts: string[];
  /** All addresses a host name resolves to; DNS by default. */
  resolve?: (hostname: string) => Promise<string[]>;
}

const defaultResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Only ordinary public unicast addresses: no loopback, private, link-local, metadata or reserved ranges. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so mapped addresses get the IPv4 verdict.
  return ipaddr.process(address).range() === 'unicast';
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * The address to connect to for `hostname`, refusing any target that is or resolves to a non-public
 * address. Connecting to the checked address (not the name again) leaves no gap for DNS rebinding.
 */
export async function resolvePublicTarget(hostname: string, policy: TargetPolicy): Promise<string> {
  const host = bare(hostname);
  if (policy.allowedHosts.includes(host)) return host;
  if (isIP(host)) {
    if (!isPublicAddress(host))
      throw new ProxyTargetRefusedError(`Proxy target ${host} is not a public address`);
    return host;
  }
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? defaultResolve)(host);
  } catch (error) {
    throw new ProxyTargetRefusedError(
      `Proxy host ${host} could not be resolved: ${(error as Error).message}`,
    );
  }
  if (addresses.length === 0) throw new ProxyTargetRefusedError(`Proxy host ${host} has no address`);
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused) throw new ProxyTargetRefusedError(`Proxy host ${host} resolves to a non-public address`);
  return addresses[0]!;
}

/** An undici connector that checks every connection's target first. */
export function guardedConnector(
  policy: TargetPolicy,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) => {
    resolvePublicTarget(opts.hostname, policy).then(
      (address) => {
        const servername = opts.servername ?? (isIP(bare(opts.hostname)) ? undefined : bare(opts.hostname));
        connect({ ...opts, hostname: address, ...(servername ? { servername } : {}) }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}
