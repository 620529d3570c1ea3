import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultSpec, Fault } from './faults';
import type { ClientCounts, RequestLogEntry } from './inspect';
import type { ReplyKind, StoredMessage } from './messages';
import type { ClientRegistration } from './oauth';
import { type RedditSimOptions, SimCore } from './server';

export type { RedditSimOptions } from './server';
export type { ClientRegistration, ClientType } from './oauth';
export type { FaultSpec, Fault } from './faults';
export type { RequestLogEntry, ClientCounts } from './inspect';
export type { StoredMessage, ReplyKind, MessageStyle } from './messages';
export type {
  RedditAccessTokenResponse,
  RedditComment,
  RedditErrorBody,
  RedditJsonResponse,
  RedditListing,
  RedditMe,
  RedditMessage,
  RedditPost,
  RedditSubreddit,
  RedditThing,
  RedditUser,
} from './types';
export { LOGIN_ACCOUNTS } from './corpus/users';
export { isGenericUserAgent } from './server';
export { RATE_LIMIT_BUDGET, RATE_LIMIT_WINDOW_MS, type RateLimitOptions } from './rate-limit';

export interface RedditSim {
  /** Base URL, e.g. http://127.0.0.1:4100; serves both www.reddit.com and oauth.reddit.com paths. */
  url: string;
  close(): Promise<void>;
  registerClient(client: ClientRegistration): void;
  faults: {
    add(fault: FaultSpec): string;
    remove(id: string): boolean;
    clear(): void;
    list(): Fault[];
  };
  inspect: {
    /** Every compose the simulator accepted, optionally for one recipient or sender. */
    messages(filter?: { to?: string; from?: string }): StoredMessage[];
    messagesByRecipient(): Record<string, StoredMessage[]>;
    /** Simulated replies delivered so far (sim time). */
    replies(): StoredMessage[];
    requestLog(filter?: { clientId?: string; endpoint?: string }): RequestLogEntry[];
    requestCountsByClient(): Record<string, ClientCounts & { maxInAnyMinute: number }>;
    /** Most requests a client made in any window of `windowMs` (default 60 s). */
    maxRequestsInWindow(clientId: string, windowMs?: number): number;
    /** Clears the request log and rate-limit windows; optionally messages and faults too. */
    reset(what?: { messages?: boolean; faults?: boolean }): void;
  };
  /** `from` answers the newest message `to` sent them, now (see POST /__sim/replies); null if none. */
  answerNow(from: string, to: string, answer?: { kind?: ReplyKind; body?: string }): StoredMessage | null;
  /** Current simulator time, ms. */
  now(): number;
  /** Moves the simulator's own clock forward; throws when a `now` was injected. */
  advance(ms: number): void;
}

/** How long an idle client connection stays open. */
export const KEEP_ALIVE_MS = 65_000;

export async function startRedditSim(options: RedditSimOptions = {}): Promise<RedditSim> {
  const core = new SimCore(options);
  const server = createServer((req, res) => {
    core.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ message: 'Internal Server Error', error: 500 }));
      }
      console.error('reddit-sim:', error);
    });
  });
  // A client reuses an idle connection until its own timeout; a server that closes it first (Node's default
  // is 5 s) resets a request sent at that moment. Reddit's edge keeps idle connections longer than that.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    registerClient: (client) => core.registerClient(client),
    faults: {
      add: (fault) => core.faults.add(fault),
      remove: (id) => core.faults.remove(id),
      clear: () => core.faults.clear(),
      list: () => core.faults.list(),
    },
    inspect: {
      messages: (filter) => core.inspectMessages(filter),
      messagesByRecipient: () => core.messagesByRecipient(),
      replies: () => core.deliveredReplies(),
      requestLog: (filter) => core.requestLog.list(filter),
      requestCountsByClient: () => core.requestCounts(),
      maxRequestsInWindow: (clientId, windowMs) => core.requestLog.maxInWindow(clientId, windowMs),
      reset: (what) => core.reset(what),
    },
    answerNow: (from, to, answer) => core.messages.answerNow(from, to, core.clock.now(), answer),
    now: () => core.clock.now(),
    advance: (ms) => core.clock.advance(ms),
  };
}
