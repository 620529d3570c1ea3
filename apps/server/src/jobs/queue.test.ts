import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { deleteExpiredAuthRecords, insertRefreshToken } from '../features/auth/auth.repository';
import { cleanupAuthTokensJob } from '../features/auth/cleanup-auth-tokens.job';
import { findRefreshToken } from '../features/auth/auth.repository';
import { buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { RequestBudget } from '../integrations/reddit';
import { defineJob } from './job';
import { JobPayloadError, registerJobs, startQueue, type JobQueue } from './queue';

/** The instant Reddit named for a credential's budget to free (as from Retry-After). */
const BUDGET_FREES_AT = Date.UTC(2099, 0, 1, 12, 0, 0, 123);
const budgetKey = (credentialId: string) => `client-${credentialId}`;

const budgetRuns: unknown[] = [];
const budgetJob = defineJob({
  name: 'test-budget-spent',
  schema: z.object({ credentialId: z.string() }),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  // The Reddit budget's non-waiting mode: a spent budget throws the instant it frees, nothing sleeps.
  async handler(ctx, data) {
    budgetRuns.push(data);
    await new RequestBudget(ctx.db, ctx.clock).acquireNow(budgetKey(data.credentialId));
  },
});

// Never due in a test: its jobs wait, so what is queued can be read back.
const laterJob = defineJob({
  name: 'test-later',
  schema: z.object({ id: z.string() }),
  policy: 'stately',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  async handler() {},
});

const brokenJob = defineJob({
  name: 'test-broken',
  schema: z.object({ n: z.number() }),
  policy: 'standard',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  async handler() {
    throw new Error('broken');
  },
});

let t: TestApp;
let queue: JobQueue;
beforeAll(async () => {
  t = await createTestApp({ queue: startQueue });
  queue = t.ctx.queue!;
  await registerJobs(t.ctx, queue, [cleanupAuthTokensJob, budgetJob, brokenJob, laterJob]);
});
afterAll(() => t.close());

async function jobState(name: string, id: string) {
  const [job] = await queue.boss.findJobs(name, { id });
  return job?.state;
}

const settled = { timeout: 20_000, interval: 200 };

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

  it('creates each queue with its job’s policy and retries', async () => {
    const stored = await queue.boss.getQueue(cleanupAuthTokensJob.name);
    expect(stored).toMatchObject({ policy: 'singleton', retryLimit: 2, retryDelay: 60, retryBackoff: true });
  });

  it('creates a queue left with another policy again, unless jobs wait in it', async () => {
    const idle = {
      ...brokenJob,
      name: `test-policy-${randomUUID().slice(0, 8)}`,
      policy: 'stately' as const,
    };
    await queue.boss.createQueue(idle.name, { policy: 'standard' });
    await registerJobs(t.ctx, queue, [idle]);
    expect(await queue.boss.getQueue(idle.name)).toMatchObject({ policy: 'stately' });

    const busy = { ...idle, name: `test-policy-${randomUUID().slice(0, 8)}` };
    await queue.boss.createQueue(busy.name, { policy: 'standard' });
    await queue.boss.send(busy.name, { n: 1 }, { startAfter: new Date(BUDGET_FREES_AT) });
    await expect(registerJobs(t.ctx, queue, [busy])).rejects.toThrow(/policy standard, not stately/);
  });

  it('schedules the clean-up and runs it as a job', async () => {
    const schedules = await queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain('cleanup-auth-tokens');

    const now = t.ctx.clock.now();
    const user = await buildUser(t.ctx.db, t.config);
    const expiredHash = `expired-${randomUUID()}`;
    const liveHash = `live-${randomUUID()}`;
    const family = randomUUID();
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: family,
      tokenHash: expiredHash,
      expiresAt: new Date(now - 1000),
    });
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: family,
      tokenHash: liveHash,
      expiresAt: new Date(now + 60_000),
    });

    await queue.enqueue(cleanupAuthTokensJob, {});
    await vi.waitFor(async () => expect(await findRefreshToken(t.ctx.db, expiredHash)).toBeNull(), settled);
    expect(await findRefreshToken(t.ctx.db, liveHash)).not.toBeNull();
  });

  it('the clean-up keeps revoked tokens until they expire, so reuse stays detectable', async () => {
    const now = t.ctx.clock.now();
    const user = await buildUser(t.ctx.db, t.config);
    const hash = `revoked-${randomUUID()}`;
    await insertRefreshToken(t.ctx.db, {
      userId: user.id,
      familyId: randomUUID(),
      tokenHash: hash,
      expiresAt: new Date(now + 60_000),
    });
    await deleteExpiredAuthRecords(t.ctx.db, new Date(now));
    expect(await findRefreshToken(t.ctx.db, hash)).not.toBeNull();
  });
});

describe('enqueue', () => {
  it('refuses a payload its job’s schema refuses, before anything is queued', async () => {
    // @ts-expect-error: the payload is typed by the job's schema
    const sent = queue.enqueue(budgetJob, { credentialId: 7 });
    await expect(sent).rejects.toBeInstanceOf(JobPayloadError);
    expect(await queue.boss.findJobs(budgetJob.name, { data: { credentialId: 7 } })).toEqual([]);
  });

  it('takes a singletonKey only for a policy that honours one', async () => {
    // @ts-expect-error: a standard queue ignores singletonKey
    const sent = queue.enqueue(brokenJob, { n: 1 }, { singletonKey: 'k' });
    await expect(sent).rejects.toThrow(/standard policy/);
  });

  it('queues the job for its start time and key', async () => {
    const key = `start-${randomUUID()}`;
    const startAfter = new Date(Date.UTC(2098, 5, 1));
    const id = await queue.enqueue(budgetJob, { credentialId: key }, { startAfter, singletonKey: key });
    const [job] = await queue.boss.findJobs(budgetJob.name, { id: id! });
    expect(job).toMatchObject({ state: 'created', singletonKey: key, data: { credentialId: key } });
    expect(job!.startAfter.getTime()).toBe(startAfter.getTime());
  });
});

describe('a job queued with earliest', () => {
  const waitingStarts = async (key: string) =>
    (await queue.boss.findJobs(laterJob.name, { key, queued: true })).map((j) => j.startAfter.getTime());

  it('takes the place of a waiting job due later, and leaves one due sooner', async () => {
    const key = `later-${randomUUID()}`;
    const [soon, later, latest] = [Date.UTC(2097, 0, 1), Date.UTC(2097, 0, 2), Date.UTC(2097, 0, 3)];
    const data = { id: key };
    expect(
      await queue.enqueue(laterJob, data, { startAfter: new Date(later), singletonKey: key }),
    ).not.toBeNull();
    // Without earliest the waiting job stays, whatever its time.
    expect(await queue.enqueue(laterJob, data, { startAfter: new Date(soon), singletonKey: key })).toBeNull();
    expect(await waitingStarts(key)).toEqual([later]);

    const opts = (at: number) => ({ startAfter: new Date(at), singletonKey: key, earliest: true });
    expect(await queue.enqueue(laterJob, data, opts(soon))).not.toBeNull();
    expect(await waitingStarts(key)).toEqual([soon]);
    expect(await queue.enqueue(laterJob, data, opts(latest))).toBeNull();
    expect(await waitingStarts(key)).toEqual([soon]);
  });
});

describe('a job whose budget is spent', () => {
  it('is queued again for the instant the budget frees, and this run completes', async () => {
    const credentialId = randomUUID();
    await new RequestBudget(t.ctx.db, t.ctx.clock).blockUntil(budgetKey(credentialId), BUDGET_FREES_AT);
    const key = `credential:${credentialId}`;
    const first = await queue.enqueue(budgetJob, { credentialId }, { singletonKey: key });
    expect(first).not.toBeNull();

    await vi.waitFor(async () => expect(await jobState(budgetJob.name, first!)).toBe('completed'), settled);
    expect(budgetRuns).toContainEqual({ credentialId });

    const next = (await queue.boss.findJobs(budgetJob.name, { key })).filter((j) => j.id !== first);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ state: 'created', singletonKey: key, data: { credentialId } });
    expect(next[0]!.startAfter.getTime()).toBe(BUDGET_FREES_AT);
  });

  it('is told apart from a failure, which fails the run and queues nothing', async () => {
    const n = Math.floor(Math.random() * 1e9);
    const id = await queue.enqueue(brokenJob, { n });
    await vi.waitFor(async () => expect(await jobState(brokenJob.name, id!)).toBe('failed'), settled);
    expect(await queue.boss.findJobs(brokenJob.name, { data: { n } })).toHaveLength(1);
  });
});
