import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import { syncBuiltinESMExports } from 'node:module';
import { isIP, Socket } from 'node:net';

/**
 * Server tests talk only to this machine: the database, the simulator, local fakes. Any other
 * connection or name lookup is refused and remembered, and the test that made it fails even when the
 * code under test swallowed the refusal. Undici, global fetch, node:http and TLS all dial through
 * `net.Socket.prototype.connect`, so one wrapper covers them.
 */
export class OutboundRequestError extends Error {
  override name = 'OutboundRequestError';
  readonly code = 'ERR_OUTBOUND_REFUSED';
}

interface GuardState {
  installed: boolean;
  attempts: string[];
  allowedHosts: Set<string>;
}

// On globalThis: builtins outlive the per-file module graphs of one test worker, and so must this.
const STATE_KEY = Symbol.for('threadreach.outbound-guard');
const state: GuardState = ((globalThis as Record<symbol, unknown>)[STATE_KEY] ??= {
  installed: false,
  attempts: [],
  allowedHosts: new Set<string>(),
}) as GuardState;

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Loopback, the unspecified address (which reaches this machine), or a configured database host. */
export function isLocalDestination(host: string): boolean {
  const h = bare(host);
  if (h === 'localhost' || h.endsWith('.localhost') || state.allowedHosts.has(h)) return true;
  if (isIP(h) === 4) return h.startsWith('127.') || h === '0.0.0.0';
  if (isIP(h) === 6) return h === '::1' || h === '::' || h.startsWith('::ffff:127.');
  return false;
}

function refuse(what: string): OutboundRequestError {
  state.attempts.push(what);
  return new OutboundRequestError(
    `Outbound request to ${what} refused: server tests reach only this machine (use a local fake or mock)`,
  );
}

interface Destination {
  host?: string;
  port?: unknown;
  path?: string | null;
}

/** connect(options), connect(path), connect(port, host), or net's normalized [options, callback]. */
function destinationOf(args: unknown[]): Destination {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) return first as Destination;
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { port: first, ...(typeof args[1] === 'string' ? { host: args[1] } : {}) };
}

type LookupFn = (hostname: string, ...rest: unknown[]) => unknown;

export function installOutboundGuard(): void {
  if (state.installed) return;
  state.installed = true;
  const dbUrl = process.env.DATABASE_URL;
  if (dbUrl) state.allowedHosts.add(bare(new URL(dbUrl).hostname));

  const connect = Socket.prototype.connect as (this: Socket, ...args: unknown[]) => Socket;
  Socket.prototype.connect = function guardedConnect(this: Socket, ...args: unknown[]) {
    const dest = destinationOf(args);
    const host = dest.host ?? 'localhost';
    // A non-empty path is a unix socket or pipe, as net itself decides.
    if ((typeof dest.path === 'string' && dest.path) || isLocalDestination(host)) {
      return connect.apply(this, args);
    }
    const error = refuse(`${host}:${String(dest.port)}`);
    // Writes wait for the connection, and the failure comes once the caller listens, as a real
    // connection failure would.
    (this as { connecting: boolean }).connecting = true;
    setImmediate(() => this.destroy(error));
    return this;
  } as typeof Socket.prototype.connect;

  const lookup = dns.lookup as unknown as LookupFn;
  (dns as unknown as { lookup: LookupFn }).lookup = function guardedLookup(hostname, ...rest) {
    if (isIP(bare(hostname)) || isLocalDestination(hostname)) return lookup.call(dns, hostname, ...rest);
    const callback = rest.at(-1) as (error: Error) => void;
    const error = refuse(`DNS lookup of ${hostname}`);
    process.nextTick(() => callback(error));
  };
  const lookupAsync = dnsPromises.lookup as unknown as (...args: unknown[]) => Promise<unknown>;
  const guardedLookupAsync = async (hostname: string, ...rest: unknown[]) => {
    if (isIP(bare(hostname)) || isLocalDestination(hostname)) return lookupAsync(hostname, ...rest);
    throw refuse(`DNS lookup of ${hostname}`);
  };
  (dnsPromises as unknown as { lookup: unknown }).lookup = guardedLookupAsync;
  (dns.promises as unknown as { lookup: unknown }).lookup = guardedLookupAsync;
  // Named imports (`import { lookup } from 'node:dns/promises'`) see the wrapped functions too.
  syncBuiltinESMExports();
}

/** Throws, naming them, when outbound requests were attempted since the last call; clears them. */
export function assertNoOutboundRequests(): void {
  const attempts = state.attempts.splice(0);
  if (attempts.length > 0) {
    throw new OutboundRequestError(
      `The test attempted outbound requests (mock them or use a local fake): ${attempts.join(', ')}`,
    );
  }
}
