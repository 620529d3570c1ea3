import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DM_GENERATION_RUNNING, PRODUCT_INFO_MISSING, type TDmGenerationStatus } from '@threadreach/contract';
import { registerJobs, startQueue } from '../../jobs/queue';
import { recordingQueue } from '../../jobs/queue.test-support';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildLead, redditName } from '../leads/leads.test-support';
import { suppressions } from '../suppressions/suppressions.table';
import { dmMessages } from './dms.table';
import { buildDm } from './dms.test-support';
import { DM_JOB_BATCH, draftDmsForBestLeads } from './generate-all-dms';
import { generateDmsJob } from './generate-dms.job';

type Project = Awaited<ReturnType<typeof buildProject>>;

async function newProject(t: TestApp, productInfo = true): Promise<Project> {
  const project = await buildProject(t.ctx.db, t.config);
  if (productInfo) {
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}/product-info`,
      headers: project.owner.auth,
      payload: validProductInfo(),
    });
  }
  return project;
}

function startAll(t: TestApp, project: Project, payload: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/generate-all-dm-messages',
    headers: project.owner.auth,
    payload: { project_id: project.id, ...payload },
  });
}

async function status(t: TestApp, project: Project): Promise<TDmGenerationStatus> {
  const res = await t.app.inject({
    url: `/api/v1/generate-all-dm-messages/status?project_id=${project.id}`,
    headers: project.owner.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function dmsOf(t: TestApp, project: Project) {
  return t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
}

describe('Generate All DMs, one batch per job run', () => {
  const queued = recordingQueue();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ queue: queued.starter });
  });
  afterAll(() => t.close());

  it('writes one DM per author without one, in batches, counting what it skipped', async () => {
    const project = await newProject(t);
    const authors = Array.from({ length: DM_JOB_BATCH + 2 }, () => redditName('lead'));
    for (const author of authors) await buildLead(t.ctx.db, project.id, { author, intentScore: 60 });
    // A second, better lead by the first author: the one written for.
    const best = await buildLead(t.ctx.db, project.id, { author: authors[0]!, intentScore: 90 });
    // Below the minimum score, dismissed, or by an author already written to: left out of the plan.
    await buildLead(t.ctx.db, project.id, { author: redditName('low'), intentScore: 10 });
    await buildLead(t.ctx.db, project.id, { author: redditName('gone'), dismissedAt: new Date() });
    const known = redditName('known');
    await buildLead(t.ctx.db, project.id, { author: known, intentScore: 60 });
    await buildDm(t.ctx.db, project.id, { recipientUsername: known, leadId: null });
    // In the plan, skipped when its turn comes.
    const blocked = redditName('blocked');
    await buildLead(t.ctx.db, project.id, { author: blocked, intentScore: 50 });
    await t.ctx.db.insert(suppressions).values({
      ownerUserId: project.owner.id,
      usernameKey: blocked.toLowerCase(),
      username: blocked,
      reason: 'manual',
      createdAt: new Date(),
    });

    const started = await startAll(t, project, { min_score: 20 });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({ data: { status: 'started' } });
    expect(queued.jobs.filter((j) => j.name === generateDmsJob.name)).toEqual([
      { name: 'generate-dms', data: { projectId: project.id }, options: { singletonKey: project.id } },
    ]);
    const again = await startAll(t, project);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: DM_GENERATION_RUNNING, code: 'dm_generation_running' });

    const total = authors.length + 1;
    expect(await status(t, project)).toMatchObject({
      status: 'generating',
      total,
      progress: { phase: 'writing DMs', items_read: 0, leads_found: 0 },
    });

    queued.jobs.length = 0;
    await generateDmsJob.handler(t.ctx, { projectId: project.id });
    expect(await status(t, project)).toMatchObject({
      status: 'generating',
      progress: { items_read: DM_JOB_BATCH, leads_found: DM_JOB_BATCH },
    });
    // The job queued its successor for the rest.
    expect(queued.jobs.map((j) => j.data)).toEqual([{ projectId: project.id }]);

    queued.jobs.length = 0;
    await generateDmsJob.handler(t.ctx, { projectId: project.id });
    expect(queued.jobs).toEqual([]);
    const done = await status(t, project);
    expect(done).toMatchObject({
      status: 'completed',
      total,
      progress: { items_read: total, leads_found: authors.length },
      result: {
        generated: authors.length,
        failed: 0,
        skipped: {
          already_has_dm: 1,
          suppressed: 1,
          already_contacted: 0,
          own_account: 0,
          author_deleted: 0,
          lead_too_old: 0,
        },
      },
    });
    const dms = await dmsOf(t, project);
    expect(
      dms
        .filter((d) => d.recipientUsername !== known)
        .map((d) => d.recipientUsername)
        .sort(),
    ).toEqual([...authors].sort());
    expect(dms.find((d) => d.recipientUsername === authors[0])?.leadId).toBe(best.id);

    // A late or repeated job finds the run finished.
    await generateDmsJob.handler(t.ctx, { projectId: project.id });
    expect((await dmsOf(t, project)).length).toBe(dms.length);
  });

  it('plans no DM about a post or comment older than DM_EXPIRY_DAYS (14), counting it skipped as too old', async () => {
    const project = await newProject(t);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [stale, both] = [redditName('stale'), redditName('both')];
    await buildLead(t.ctx.db, project.id, { author: stale, intentScore: 90, itemCreatedAt: daysAgo(15) });
    await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      author: both,
      intentScore: 95,
      itemCreatedAt: daysAgo(20),
    });
    // Their recent lead is written for, though the old one scores higher.
    const recent = await buildLead(t.ctx.db, project.id, {
      author: both,
      intentScore: 40,
      itemCreatedAt: daysAgo(13),
    });

    expect((await startAll(t, project)).statusCode).toBe(200);
    expect(await status(t, project)).toMatchObject({ total: 1 });
    await generateDmsJob.handler(t.ctx, { projectId: project.id });
    expect(await status(t, project)).toMatchObject({
      status: 'completed',
      result: { generated: 1, skipped: { lead_too_old: 2, already_has_dm: 0 } },
    });
    const dms = await dmsOf(t, project);
    expect(dms.map((d) => [d.recipientUsername, d.leadId])).toEqual([[both, recent.id]]);
  });

  it("agent mode's drafting leaves out leads too old to message, so they never use up its limit", async () => {
    const project = await newProject(t);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [stale, recent] = [redditName('stale'), redditName('recent')];
    await buildLead(t.ctx.db, project.id, { author: stale, intentScore: 90, itemCreatedAt: daysAgo(15) });
    await buildLead(t.ctx.db, project.id, { author: recent, intentScore: 60, itemCreatedAt: daysAgo(1) });

    const report = await draftDmsForBestLeads(t.ctx, project.id, { minScore: 20, limit: 1, patterns: null });
    expect(report).toEqual({ generated: 1, failed: 0, skipped: 0 });
    expect((await dmsOf(t, project)).map((d) => d.recipientUsername)).toEqual([recent]);
  });

  it('ends quietly when the project was deleted while its run was queued', async () => {
    const project = await newProject(t);
    await buildLead(t.ctx.db, project.id, { author: redditName('late') });
    expect((await startAll(t, project)).statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(gone.statusCode).toBe(204);
    await expect(generateDmsJob.handler(t.ctx, { projectId: project.id })).resolves.toBeUndefined();
    expect(await dmsOf(t, project)).toEqual([]);
  });

  it('completes at once when every author already has a DM, and refuses without product information', async () => {
    const project = await newProject(t);
    const author = redditName('only');
    await buildLead(t.ctx.db, project.id, { author });
    await buildDm(t.ctx.db, project.id, { recipientUsername: author, leadId: null });
    queued.jobs.length = 0;
    expect((await startAll(t, project)).statusCode).toBe(200);
    expect(queued.jobs).toEqual([]);
    expect(await status(t, project)).toMatchObject({
      status: 'completed',
      total: 0,
      result: { generated: 0, skipped: { already_has_dm: 1 } },
    });

    const bare = await newProject(t, false);
    const refused = await startAll(t, bare);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: PRODUCT_INFO_MISSING, code: 'product_info_missing' });
    expect(await status(t, bare)).toMatchObject({ status: 'idle', total: null, result: null });
  });
});

describe('Generate All DMs on the job queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ queue: startQueue });
    await registerJobs(t.ctx, t.ctx.queue!, [generateDmsJob]);
  });
  afterAll(() => t.close());

  it('runs batch after batch until every lead has its DM', async () => {
    const project = await newProject(t);
    const count = DM_JOB_BATCH + 3;
    for (let i = 0; i < count; i++) await buildLead(t.ctx.db, project.id, { author: redditName('q') });
    expect((await startAll(t, project)).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        expect((await status(t, project)).status).toBe('completed');
      },
      { timeout: 30_000, interval: 200 },
    );
    expect((await status(t, project)).result?.generated).toBe(count);
    expect(await dmsOf(t, project)).toHaveLength(count);
  });
});
