import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobs, startQueue } from '../../jobs/queue';
import { createTestApp, type TestApp } from '../../test/test-app';
import { agentRunJob, agentSweepJob, queueAgentRun } from './agent-run.job';

/** The chain on pg-boss itself: one waiting run per project, whoever queues it, and the sweep on its schedule. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ queue: startQueue });
  await registerJobs(t.ctx, t.ctx.queue!, [agentRunJob, agentSweepJob]);
}, 120_000);
afterAll(() => t?.close());

describe('the agent-run queue', () => {
  it('keeps one waiting run per project and lets other projects queue theirs', async () => {
    const boss = t.ctx.queue!.boss;
    expect(await boss.getQueue(agentRunJob.name)).toMatchObject({ policy: 'stately' });
    const later = Date.now() + 3_600_000;
    const a = randomUUID();
    const b = randomUUID();
    const enqueue = (projectId: string) =>
      t.ctx.queue!.enqueue(
        agentRunJob,
        { projectId },
        { startAfter: new Date(later), singletonKey: projectId },
      );
    expect(await enqueue(a)).toEqual(expect.any(String));
    // Complete twice, or a restart re-arming the chain: the run already waiting stays the only one.
    expect(await enqueue(a)).toBeNull();
    expect(await queueAgentRun(t.ctx, a, later)).toBe(true);
    expect(await enqueue(b)).toEqual(expect.any(String));
    const waiting = await boss.findJobs(agentRunJob.name, { queued: true });
    expect(waiting.filter((j) => (j.data as { projectId: string }).projectId === a)).toHaveLength(1);
    const schedules = await boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(agentSweepJob.name);
  });

  it('lets an earlier run take the place of a later one: an agent stopped and started again runs at once', async () => {
    const boss = t.ctx.queue!.boss;
    const projectId = randomUUID();
    const waiting = async () =>
      (await boss.findJobs(agentRunJob.name, { key: projectId, queued: true })).map((j) =>
        new Date(j.startAfter).getTime(),
      );
    // The chain's next run, 2 hours out; the agent is stopped and started again (first run in 5 s).
    const chained = Date.now() + 2 * 3_600_000;
    const restarted = Date.now() + 60_000;
    await queueAgentRun(t.ctx, projectId, chained);
    await queueAgentRun(t.ctx, projectId, restarted);
    expect(await waiting()).toEqual([restarted]);
    // A later one does not displace it.
    await queueAgentRun(t.ctx, projectId, chained);
    expect(await waiting()).toEqual([restarted]);
  });
});
