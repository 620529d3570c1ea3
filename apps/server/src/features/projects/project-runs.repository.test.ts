import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  failRunningRun,
  findRun,
  finishRun,
  RUN_STALE_AFTER_MS,
  startRun,
  updateRunProgress,
} from './project-runs.repository';

let t: TestApp;
const T0 = Date.UTC(2026, 10, 2, 9);
const progress = (phase: string) => ({ phase, items_read: 1, leads_found: 0 });

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('a run taken over after its worker went silent', () => {
  it('keeps the late worker out of the run that replaced its own', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const lost = await startRun(t.ctx.db, project.id, 'search', new Date(T0));
    expect(lost).not.toBeNull();

    const later = T0 + RUN_STALE_AFTER_MS + 1000;
    const current = await startRun(t.ctx.db, project.id, 'search', new Date(later));
    expect(current?.startedAt.getTime()).toBe(later);

    // The first worker comes back and reports, then finishes.
    await updateRunProgress(t.ctx.db, lost!, progress('reading new posts'), new Date(later + 1000));
    await finishRun(
      t.ctx.db,
      lost!,
      { status: 'completed', result: { posts_found: 9 } },
      new Date(later + 2000),
    );
    const untouched = await findRun(t.ctx.db, project.id, 'search');
    expect(untouched).toMatchObject({ status: 'running', progress: null, result: null, finishedAt: null });
    expect(untouched?.startedAt.getTime()).toBe(later);

    await updateRunProgress(t.ctx.db, current!, progress('reading new comments'), new Date(later + 3000));
    await finishRun(
      t.ctx.db,
      current!,
      { status: 'completed', result: { posts_found: 2 } },
      new Date(later + 4000),
    );
    expect(await findRun(t.ctx.db, project.id, 'search')).toMatchObject({
      status: 'completed',
      progress: progress('reading new comments'),
      result: { posts_found: 2 },
    });
  });

  it('lets a slow worker finish its own run when nobody took it over', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const run = await startRun(t.ctx.db, project.id, 'dms', new Date(T0));
    const late = new Date(T0 + RUN_STALE_AFTER_MS * 2);
    await finishRun(t.ctx.db, run!, { status: 'failed', error: 'gone' }, late);
    expect(await findRun(t.ctx.db, project.id, 'dms')).toMatchObject({
      status: 'failed',
      error: 'gone',
      finishedAt: late,
    });
  });
});

describe('failing a running run started with given options', () => {
  it('fails only a running run whose options hold them, and answers its start', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const fail = (at: number) =>
      failRunningRun(t.ctx.db, project.id, 'search', { trigger: 'agent' }, 'Stopped', new Date(at));
    // Another start's run (the customer's) is left running.
    await startRun(t.ctx.db, project.id, 'search', new Date(T0), { trigger: 'enhanced', limit: 100 });
    expect(await fail(T0 + 1000)).toBeNull();
    expect(await findRun(t.ctx.db, project.id, 'search')).toMatchObject({ status: 'running', error: null });

    await finishRun(
      t.ctx.db,
      { projectId: project.id, kind: 'search', startedAt: new Date(T0) },
      { status: 'completed' },
      new Date(T0 + 2000),
    );
    await startRun(t.ctx.db, project.id, 'search', new Date(T0 + 3000), { trigger: 'agent', limit: 100 });
    expect((await fail(T0 + 4000))?.getTime()).toBe(T0 + 3000);
    expect(await findRun(t.ctx.db, project.id, 'search')).toMatchObject({
      status: 'failed',
      error: 'Stopped',
      finishedAt: new Date(T0 + 4000),
    });
    // Once ended, it is not ended again.
    expect(await fail(T0 + 5000)).toBeNull();
    expect((await findRun(t.ctx.db, project.id, 'search'))?.finishedAt).toEqual(new Date(T0 + 4000));
  });
});
