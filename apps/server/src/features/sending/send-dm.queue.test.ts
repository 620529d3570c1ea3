import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobs, startQueue } from '../../jobs/queue';
import { createTestApp, type TestApp } from '../../test/test-app';
import { queueSendDm, sendDmJob } from './send-dm.job';

/** The send-dm queue on pg-boss itself: one waiting send per DM, at the soonest time it was queued for. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ queue: startQueue });
  await registerJobs(t.ctx, t.ctx.queue!, [sendDmJob]);
}, 120_000);
afterAll(() => t?.close());

describe('the send-dm queue', () => {
  it('lets a DM queued again sooner go then: taken back by Stop Agent, then queued by Send All', async () => {
    const boss = t.ctx.queue!.boss;
    expect(await boss.getQueue(sendDmJob.name)).toMatchObject({ policy: 'stately' });
    const dm = { projectId: randomUUID(), dmId: randomUUID() };
    const waiting = async () =>
      (await boss.findJobs(sendDmJob.name, { key: dm.dmId, queued: true })).map((j) =>
        new Date(j.startAfter).getTime(),
      );
    // First planned for tomorrow; taken back, then queued again for a minute from now.
    const tomorrow = Date.now() + 86_400_000;
    const soon = Date.now() + 60_000;
    await queueSendDm(t.ctx, dm, tomorrow);
    await queueSendDm(t.ctx, dm, soon);
    expect(await waiting()).toEqual([soon]);
    // A later plan (a reschedule, a sweep) leaves the sooner job: its run plans the DM later itself.
    await queueSendDm(t.ctx, dm, tomorrow);
    expect(await waiting()).toEqual([soon]);
  });
});
