import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { redditRateLimits } from '../../integrations/reddit/reddit.table';
import { registerJobs, startQueue, type JobQueue } from '../../jobs/queue';
import type { TestApp } from '../../test/test-app';
import { discoveryCycleJob } from './discovery-cycle.job';
import {
  addSearchCredential,
  buildDiscoveryProject,
  createDiscoveryApp,
  cursorsOf,
} from './discovery.test-support';

// Far ahead of the real time, so no job queued for the virtual clock's future starts on its own.
const clock = virtualClock(Date.UTC(2099, 0, 5, 12));
let t: TestApp;
let queue: JobQueue;
let clientId: string;
let scheduled: string[];
const settled = { timeout: 30_000, interval: 200 };

beforeAll(async () => {
  t = await createDiscoveryApp({ reddit: { clock }, queue: startQueue });
  queue = t.ctx.queue!;
  clientId = (await addSearchCredential(t.ctx)).client_id;
  await buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['CRM'], subreddits: ['SaaS', 'startups'] });
  await registerJobs(t.ctx, queue, [discoveryCycleJob]);
  scheduled = (await queue.boss.getSchedules()).map((s) => s.name);
  // The per-minute safety net would add runs at real minute boundaries: these tests queue their own.
  await queue.boss.unschedule(discoveryCycleJob.name);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await queue.boss.deleteQueuedJobs(discoveryCycleJob.name);
  t.sim!.faults.clear();
});

async function jobs() {
  return queue.boss.findJobs(discoveryCycleJob.name);
}

describe('the discovery-cycle job', () => {
  it('is one at a time, on a schedule, and queues the next cycle an interval after its start', async () => {
    const stored = await queue.boss.getQueue(discoveryCycleJob.name);
    expect(stored).toMatchObject({ policy: 'stately' });
    expect(scheduled).toContain(discoveryCycleJob.name);

    const id = await queue.enqueue(discoveryCycleJob, {});
    expect(id).not.toBeNull();
    await vi.waitFor(async () => {
      const [job] = await queue.boss.findJobs(discoveryCycleJob.name, { id: id! });
      expect(job?.state).toBe('completed');
    }, settled);
    expect(await cursorsOf(t.ctx.db)).toHaveLength(2);
    const next = (await jobs()).filter((j) => j.state === 'created');
    expect(next).toHaveLength(1);
    expect(next[0]!.startAfter.getTime()).toBe(clock.t + t.config.discovery.intervalSeconds * 1000);
  });

  it('reschedules itself for the instant a spent budget frees (a 429 from Reddit)', async () => {
    t.sim!.faults.add({ kind: 'status', status: 429, path: '/r/*' });
    const id = await queue.enqueue(discoveryCycleJob, {});
    expect(id).not.toBeNull();
    await vi.waitFor(async () => {
      const [job] = await queue.boss.findJobs(discoveryCycleJob.name, { id: id! });
      expect(job?.state).toBe('completed');
    }, settled);
    const [limit] = await t.ctx.db
      .select()
      .from(redditRateLimits)
      .where(eq(redditRateLimits.clientKey, clientId));
    const freesAt = limit!.blockedUntil!.getTime();
    expect(freesAt).toBeGreaterThan(clock.t);
    const next = (await jobs()).filter((j) => j.state === 'created');
    expect(next).toHaveLength(1);
    expect(next[0]!.startAfter.getTime()).toBe(freesAt);
  });

  it('queues a read of the streams Reddit did not answer for the backoff instant, which then queues the next cycle', async () => {
    // Past the budget the test before spent.
    clock.t += 10 * 60_000;
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    const startedAt = clock.t;
    const id = await queue.enqueue(discoveryCycleJob, {});
    await vi.waitFor(async () => {
      const [job] = await queue.boss.findJobs(discoveryCycleJob.name, { id: id! });
      expect(job?.state).toBe('completed');
    }, settled);
    const [retry] = (await jobs()).filter((j) => j.state === 'created');
    expect(retry!.data).toEqual({
      retry: { streams: [{ groupNo: 0, kind: 't3' }], attempt: 2, startedAtMs: startedAt },
    });
    expect(retry!.startAfter.getTime()).toBeGreaterThan(clock.t);
    expect(retry!.startAfter.getTime()).toBeLessThanOrEqual(clock.t + 500);

    // Run as the worker would, once due: the next cycle counts its interval from the first run's start.
    await queue.boss.deleteQueuedJobs(discoveryCycleJob.name);
    t.sim!.inspect.reset();
    clock.t = retry!.startAfter.getTime();
    await discoveryCycleJob.handler(t.ctx, retry!.data as never);
    expect(t.sim!.inspect.requestLog().filter((e) => e.path.endsWith('/comments'))).toEqual([]);
    expect(
      t
        .sim!.inspect.requestLog()
        .filter((e) => e.path.endsWith('/new'))
        .map((e) => e.status),
    ).toEqual([200]);
    const next = (await jobs()).filter((j) => j.state === 'created');
    expect(next).toHaveLength(1);
    expect(next[0]!.data).toEqual({});
    expect(next[0]!.startAfter.getTime()).toBe(startedAt + t.config.discovery.intervalSeconds * 1000);
  });
});
