import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredAuthRecords, insertRefreshToken } from '../features/auth/auth.repository';
import { cleanupAuthTokensJob } from '../features/auth/cleanup-auth-tokens.job';
import { findRefreshToken } from '../features/auth/auth.repository';
import { buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerJobs, startQueue } from './queue';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ queue: startQueue });
  await registerJobs(t.ctx, t.ctx.queue!, [cleanupAuthTokensJob]);
});
afterAll(() => t.close());

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('condition not met in time');
}

describe('job queue', () => {
  it('reports healthy with the database on /health', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: { ok: true, driver: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
      queue: { ok: true },
    });
  });

  it('schedules the clean-up and runs it as a job', async () => {
    const schedules = await t.ctx.queue!.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain('cleanup-auth-tokens');

    const user = await buildUser(t.ctx.db, t.config);
    const expiredHash = `expired-${randomUUID()}`;
    const liveHash = `live-${randomUUID()}`;
    const family = randomUUID();
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: family,
      tokenHash: expiredHash,
      expiresAt: new Date(Date.now() - 1000),
    });
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: family,
      tokenHash: liveHash,
      expiresAt: new Date(Date.now() + 60_000),
    });

    await t.ctx.queue!.send('cleanup-auth-tokens', {});
    await waitFor(async () => (await findRefreshToken(t.ctx.db, expiredHash)) === null);
    expect(await findRefreshToken(t.ctx.db, liveHash)).not.toBeNull();
  });

  it('the clean-up keeps revoked tokens until they expire, so reuse stays detectable', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const hash = `revoked-${randomUUID()}`;
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: randomUUID(),
      tokenHash: hash,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await deleteExpiredAuthRecords(t.ctx.db);
    expect(await findRefreshToken(t.ctx.db, hash)).not.toBeNull();
  });
});
