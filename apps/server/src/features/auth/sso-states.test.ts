import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../test/clock.test-support';
import { TestBrowser } from '../../test/sso-browser';
import { createTestApp, type TestApp } from '../../test/test-app';
import { insertSsoState, trimSsoStates } from './auth.repository';

const MAX = 10;
const clock = fixedClock(Date.now());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true, clock, env: { SSO_PENDING_MAX: String(MAX) } });
});
afterAll(() => t.close());

async function pending(): Promise<number> {
  const rows = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from sso_states`);
  return rows.rows[0]!.n;
}

async function start(browser = new TestBrowser(t.url)) {
  clock.t += 1000;
  const res = await browser.fetch('/api/v1/auth/sso/start');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sso_url: string };
  return { browser, ssoUrl: body.sso_url };
}

async function finish(started: { browser: TestBrowser; ssoUrl: string }) {
  const url = `${started.ssoUrl}&login_hint=${encodeURIComponent('user@demo.local')}`;
  const callback = await started.browser.followToCallback(url);
  const ver = callback.searchParams.get('ver')!;
  return started.browser.fetch(`/api/v1/auth/callback?ver=${encodeURIComponent(ver)}`);
}

// The bound is one for the whole database: on the PostgreSQL run, whose suites share one database, the
// end-to-end checks would evict other suites' sign-ins. There the bound is checked in a rolled-back
// transaction below.
const onSharedDatabase = !!process.env.DATABASE_URL;

describe('pending sign-ins', () => {
  it.skipIf(onSharedDatabase)(
    'stay within their bound however many are started, the oldest giving way',
    async () => {
      const first = await start();
      for (let i = 0; i < 3 * MAX; i++) await start();
      expect(await pending()).toBe(MAX);

      const refused = await finish(first);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'sso_state_invalid' });

      const newest = await start();
      expect((await finish(newest)).status).toBe(200);
    },
  );

  it.skipIf(onSharedDatabase)(
    'that expired are dropped by the next start, without the clean-up job',
    async () => {
      for (let i = 0; i < 5; i++) await start();
      clock.t += 11 * 60 * 1000;
      await start();
      expect(await pending()).toBe(1);
    },
  );
});

describe('the bound on pending sign-ins', () => {
  it('keeps the newest and drops the oldest and the expired, in one statement', async () => {
    // Dated after anything else in the database, so the rows kept are these.
    const base = clock.t + 24 * 3600_000;
    const states = Array.from({ length: 3 * MAX }, (_, i) => `bound-${base}-${i}`);
    const rolledBack = new Error('roll back');
    await t.ctx.db
      .transaction(async (tx) => {
        for (const [i, state] of states.entries()) {
          await insertSsoState(tx, {
            state,
            nonce: 'n',
            codeVerifier: 'v',
            redirectTo: null,
            expiresAt: new Date(base + i * 1000),
          });
        }
        await trimSsoStates(tx, new Date(base + 2.5 * 1000), MAX);
        const rows = await tx.execute<{ state: string }>(
          sql`select state from sso_states where state like ${`bound-${base}-%`}`,
        );
        const kept = rows.rows.map((r) => r.state).sort();
        expect(kept).toEqual(states.slice(-MAX).sort());
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
  });
});
