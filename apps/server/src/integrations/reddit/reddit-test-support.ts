import { randomBytes, randomUUID } from 'node:crypto';
import { startRedditSim, type RedditSim, type RedditSimOptions } from '@threadreach/reddit-sim';
import type { Db } from '../../db/client';
import { createDirectDispatcher } from '../proxy/proxy-dispatcher';
import { SecretBox } from '../../security/secrets';
import type { Clock } from './clock';
import { RedditClient } from './reddit.client';
import type { RedditClientDeps, RedditCredentialAccess } from './reddit.transport';

/**
 * A virtual clock shared by the simulator and the client. A sleeper moves time to its own wake-up time,
 * never past it, so concurrent sleepers that wake at the same instant move it once.
 */
export function virtualClock(start = Date.UTC(2026, 0, 5, 12)): Clock & { t: number } {
  const clock = {
    t: start,
    now: () => clock.t,
    async sleep(ms: number) {
      const wake = clock.t + Math.max(0, ms);
      await new Promise((resolve) => setImmediate(resolve));
      clock.t = Math.max(clock.t, wake);
    },
  };
  return clock;
}

export interface RedditTestRig {
  sim: RedditSim;
  clock: Clock & { t: number };
  secrets: SecretBox;
  client(overrides?: Partial<RedditCredentialAccess>, deps?: Partial<RedditClientDeps>): RedditClient;
}

/** The simulator on a random port and a factory of clients for fresh credentials pointed at it. */
export async function startRedditRig(db: Db, simOptions: RedditSimOptions = {}): Promise<RedditTestRig> {
  const clock = virtualClock();
  const sim = await startRedditSim({ port: 0, seed: 42, ...simOptions, now: clock.now });
  const secrets = new SecretBox([{ id: 't1', key: randomBytes(32) }]);
  const dispatcher = createDirectDispatcher();
  return {
    sim,
    clock,
    secrets,
    client(overrides = {}, deps = {}) {
      const credential: RedditCredentialAccess = {
        id: randomUUID(),
        clientId: `client-${randomUUID().slice(0, 8)}`,
        clientSecret: `secret-${randomUUID()}`,
        accountName: 'threadreach_bot',
        connection: async () => ({ dispatcher, proxied: false }),
        ...overrides,
      };
      return new RedditClient(
        {
          endpoints: { apiUrl: sim.url, authUrl: sim.url },
          appId: 'threadreach',
          version: '0.1.0',
          db,
          secrets,
          clock,
          retryBaseMs: 200,
          ...deps,
        },
        credential,
      );
    },
  };
}
