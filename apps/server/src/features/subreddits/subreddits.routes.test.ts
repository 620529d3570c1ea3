import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BULK_SUBREDDITS_MAX,
  EMPTY_BULK_SUBREDDITS,
  NO_APPROVED_KEYWORDS,
  NO_SUBREDDIT_SELECTED,
  SUBREDDIT_GENERATION_RUNNING,
  SUBREDDITS_PER_PROJECT_MAX,
  type TSubreddit,
} from '@threadreach/contract';
import { AiError } from '../../ai/ai.provider';
import { retryAtOf } from '../../jobs/job';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { projectRuns } from '../projects/project-runs.table';
import { generateSubredditsJob } from './generate-subreddits.job';
import { MAX_GENERATION_RESCHEDULES, MAX_RESCHEDULE_DELAY_MS } from './subreddit-generation';
import { subreddits } from './subreddits.table';
import {
  addSearchCredential,
  insertKeyword,
  insertSubreddit,
  recordingQueue,
} from './subreddits.test-support';

let t: TestApp;
const clock = fixedClock(Date.UTC(2026, 2, 2, 9));
const queue = recordingQueue();

beforeAll(async () => {
  t = await createTestApp({ reddit: { clock }, queue: queue.starter });
  await addSearchCredential(t.ctx);
});
afterAll(() => t.close());
// Each test starts with the credential's request budget free again.
beforeEach(() => {
  clock.t += 15 * 60_000;
  t.sim!.faults.clear();
});

type Project = Awaited<ReturnType<typeof buildProject>>;
const url = (p: Project, path: string) => `/api/v1/projects/${p.id}/${path}`;

async function projectWithKeywords(keywords = ['reddit leads', 'saas founders']): Promise<Project> {
  const project = await buildProject(t.ctx.db, t.config);
  await t.app.inject({
    method: 'PUT',
    url: url(project, 'product-info'),
    headers: project.owner.auth,
    payload: validProductInfo(),
  });
  for (const keyword of keywords) await insertKeyword(t.ctx.db, project.id, { keyword, approved: true });
  return project;
}

const get = (p: Project, path: string) => t.app.inject({ url: url(p, path), headers: p.owner.auth });
const post = (p: Project, path: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: url(p, path),
    headers: p.owner.auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const status = async (p: Project) => (await get(p, 'subreddits/status')).json();
const listAll = async (p: Project): Promise<TSubreddit[]> =>
  (await get(p, 'subreddits?limit=500')).json().items;
const runJob = (p: Project) => generateSubredditsJob.handler(t.ctx, { projectId: p.id });

describe('GET subreddits', () => {
  it('lists approved subreddits first, then by relevance, one page at a time', async () => {
    const project = await projectWithKeywords();
    await insertSubreddit(t.ctx.db, project.id, { name: 'low', relevanceScore: 0.41 });
    await insertSubreddit(t.ctx.db, project.id, { name: 'high', relevanceScore: 0.9 });
    await insertSubreddit(t.ctx.db, project.id, { name: 'mine', relevanceScore: 0.2, approved: true });
    const all = (await get(project, 'subreddits')).json();
    expect(all.items.map((s: TSubreddit) => s.subreddit_name)).toEqual(['mine', 'high', 'low']);
    expect(all.items[1]).toMatchObject({ relevance_score: 0.9, approved: false });
    expect((await get(project, 'subreddits?limit=1&offset=1')).json()).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      items: [{ subreddit_name: 'high' }],
    });
    expect((await get(project, 'subreddits?limit=501')).statusCode).toBe(400);
  });
});

describe('subreddit generation', () => {
  it('is idle before the first start', async () => {
    const project = await projectWithKeywords();
    expect(await status(project)).toEqual({
      status: 'idle',
      error: null,
      started_at: null,
      finished_at: null,
      duration_seconds: null,
      progress: null,
    });
  });

  it('needs approved keywords, and starts nothing without them', async () => {
    const project = await projectWithKeywords([]);
    await insertKeyword(t.ctx.db, project.id, { keyword: 'not approved' });
    const res = await post(project, 'generate-subreddits');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: NO_APPROVED_KEYWORDS, code: 'no_approved_keywords' });
    expect((await status(project)).status).toBe('idle');
  });

  it('starts a job, answers 409 while it runs, and reports progress and duration', async () => {
    const project = await projectWithKeywords();
    const queued = queue.jobs.length;
    const started = clock.t;
    const res = await post(project, 'generate-subreddits');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'started' } });
    expect(queue.jobs.slice(queued)).toEqual([
      { name: 'generate-subreddits', data: { projectId: project.id }, options: { singletonKey: project.id } },
    ]);

    clock.t += 2_500;
    expect(await status(project)).toMatchObject({
      status: 'generating',
      error: null,
      started_at: new Date(started).toISOString(),
      finished_at: null,
      duration_seconds: 2.5,
    });
    const again = await post(project, 'generate-subreddits');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: SUBREDDIT_GENERATION_RUNNING,
      code: 'subreddit_generation_running',
    });
    expect(queue.jobs).toHaveLength(queued + 1);

    // While the engine works, the status shows which phase it is in.
    const suggest = t.ctx.ai.suggestSubreddits.bind(t.ctx.ai);
    const seen: unknown[] = [];
    const spy = vi.spyOn(t.ctx.ai, 'suggestSubreddits').mockImplementation(async (request) => {
      seen.push((await status(project)).progress);
      clock.t += 1_500;
      return suggest(request);
    });
    try {
      await runJob(project);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual([{ phase: 'searching Reddit for subreddits', items_read: 0, leads_found: 0 }]);

    const done = await status(project);
    expect(done).toMatchObject({
      status: 'completed',
      error: null,
      finished_at: new Date(started + 4_000).toISOString(),
      duration_seconds: 4,
      progress: { phase: 'saving suggestions', leads_found: 0 },
    });
    clock.t += 60_000;
    expect((await status(project)).duration_seconds).toBe(4);

    const listed = await listAll(project);
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(done.progress.items_read).toBe(listed.length);
    for (const s of listed) {
      expect(s.approved).toBe(false);
      expect(s.description).not.toBe('');
      expect(s.estimated_members).toBeGreaterThan(0);
      expect(s.relevance_score).toBeGreaterThan(0);
      expect(s.relevance_score).toBeLessThanOrEqual(1);
    }
    // Only subreddits that exist on Reddit (the simulator's corpus), spelled as Reddit does.
    const names = listed.map((s) => s.subreddit_name);
    expect(names).toEqual(expect.arrayContaining(['SaaS']));
    const rows = await t.ctx.db.select().from(subreddits).where(eq(subreddits.projectId, project.id));
    expect(rows.every((r) => r.source === 'generated' && r.approvedAt === null)).toBe(true);
  });

  it('"Generate More" leaves out every subreddit already listed', async () => {
    const project = await projectWithKeywords();
    await insertSubreddit(t.ctx.db, project.id, { name: 'SaaS', approved: true, source: 'manual' });
    expect((await post(project, 'generate-subreddits')).statusCode).toBe(200);
    const spy = vi.spyOn(t.ctx.ai, 'suggestSubreddits');
    try {
      await runJob(project);
      expect(spy.mock.calls[0]![0]).toMatchObject({
        exclude: ['SaaS'],
        keywords: [
          { keyword: 'reddit leads', type: 'product' },
          { keyword: 'saas founders', type: 'product' },
        ],
      });
    } finally {
      spy.mockRestore();
    }
    const first = await listAll(project);
    expect((await status(project)).status).toBe('completed');

    expect((await post(project, 'generate-subreddits')).statusCode).toBe(200);
    await runJob(project);
    const second = await listAll(project);
    const lower = second.map((s) => s.subreddit_name.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
    // What was listed stays as it was.
    for (const s of first) expect(second).toContainEqual(s);
  });

  it('reports a failure with its reason, and can be started again', async () => {
    const project = await projectWithKeywords();
    await post(project, 'generate-subreddits');
    clock.t += 1_000;
    const spy = vi
      .spyOn(t.ctx.ai, 'suggestSubreddits')
      .mockRejectedValueOnce(new AiError('upstream_error', 'The language model did not answer'));
    try {
      await runJob(project);
    } finally {
      spy.mockRestore();
    }
    expect(await status(project)).toMatchObject({
      status: 'failed',
      error: 'The language model did not answer',
      duration_seconds: 1,
    });
    expect(await listAll(project)).toEqual([]);
    expect((await post(project, 'generate-subreddits')).json()).toEqual({ data: { status: 'started' } });
  });

  it('fails with the reason when step 1 was never saved', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await insertKeyword(t.ctx.db, project.id, { keyword: 'reddit leads', approved: true });
    await post(project, 'generate-subreddits');
    await runJob(project);
    expect(await status(project)).toMatchObject({
      status: 'failed',
      error: 'Product information is missing: save step 1 first',
    });
  });

  it('keeps generating while Reddit asks for a pause (429): the job is rescheduled, nothing waits', async () => {
    const project = await projectWithKeywords();
    await post(project, 'generate-subreddits');
    t.sim!.faults.add({ kind: 'rate-limit', path: '/subreddits/search', retryAfter: 30, count: 1 });
    const refused = await runJob(project).then(
      () => null,
      (error: unknown) => error,
    );
    const retryAt = retryAtOf(refused);
    expect(retryAt, String(refused)).not.toBeNull();
    expect(retryAt! - clock.t).toBeGreaterThanOrEqual(30_000);
    expect(await status(project)).toMatchObject({
      status: 'generating',
      progress: { phase: 'waiting for the pause Reddit asked for' },
    });

    clock.t = retryAt!;
    await runJob(project);
    expect((await status(project)).status).toBe('completed');
    expect((await listAll(project)).length).toBeGreaterThan(0);
  });

  it('wakes at least every few minutes while it waits, so the run never looks lost', async () => {
    const project = await projectWithKeywords();
    await post(project, 'generate-subreddits');
    t.sim!.faults.add({ kind: 'rate-limit', path: '/subreddits/search', retryAfter: 900, count: 1 });
    const refused = await runJob(project).then(
      () => null,
      (error: unknown) => error,
    );
    expect(retryAtOf(refused)).toBe(clock.t + MAX_RESCHEDULE_DELAY_MS);
    clock.t += MAX_RESCHEDULE_DELAY_MS;
    // Still spent: no request is made, the run stays alive and waits again.
    await expect(runJob(project)).rejects.toMatchObject({ retryAtMs: clock.t + MAX_RESCHEDULE_DELAY_MS });
    expect(await status(project)).toMatchObject({ status: 'generating', duration_seconds: 300 });
    clock.t += 2 * MAX_RESCHEDULE_DELAY_MS;
    await runJob(project);
    expect((await status(project)).status).toBe('completed');
  });

  it(`gives up after ${MAX_GENERATION_RESCHEDULES} reschedules`, async () => {
    const project = await projectWithKeywords();
    await post(project, 'generate-subreddits');
    await t.ctx.db
      .update(projectRuns)
      .set({ options: { reschedules: MAX_GENERATION_RESCHEDULES } })
      .where(eq(projectRuns.projectId, project.id));
    t.sim!.faults.add({ kind: 'rate-limit', path: '/subreddits/search', retryAfter: 30, count: 1 });
    await runJob(project);
    expect(await status(project)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('Reddit asked for a pause in requests until'),
    });
  });

  it('does nothing when the run has already finished', async () => {
    const project = await projectWithKeywords();
    await post(project, 'generate-subreddits');
    await runJob(project);
    const before = [await status(project), await listAll(project)];
    const spy = vi.spyOn(t.ctx.ai, 'suggestSubreddits');
    try {
      await runJob(project);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect([await status(project), await listAll(project)]).toEqual(before);
  });
});

describe('POST add-subreddits-bulk', () => {
  it('adds existing subreddits, approved and spelled as Reddit does, and reports the rest', async () => {
    const project = await projectWithKeywords();
    const res = await post(project, 'add-subreddits-bulk', {
      subreddits:
        'r/SaaS, /r/startups\nNoSuchSubredditHere\n\n  saas , not a name!,sideproject,R/Entrepreneur\r\nr/\n',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      added_count: 4,
      already_listed: [],
      not_found: ['NoSuchSubredditHere'],
      invalid: ['not a name!', 'r/'],
    });
    expect(body.added.map((s: TSubreddit) => s.subreddit_name)).toEqual(
      expect.arrayContaining(['SaaS', 'startups', 'SideProject', 'Entrepreneur']),
    );
    for (const s of body.added as TSubreddit[]) {
      expect(s).toMatchObject({ approved: true, relevance_score: 1 });
      expect(s.description).not.toBe('');
      expect(s.estimated_members).toBeGreaterThan(0);
    }
    const rows = await t.ctx.db.select().from(subreddits).where(eq(subreddits.projectId, project.id));
    expect(rows.map((r) => [r.source, r.approvedAt?.getTime()])).toEqual(rows.map(() => ['manual', clock.t]));
    expect((await listAll(project)).map((s) => s.subreddit_name).sort()).toEqual(
      ['Entrepreneur', 'SaaS', 'SideProject', 'startups'].sort(),
    );
  });

  it('takes pasted Reddit addresses of a subreddit or of a page in it', async () => {
    const project = await projectWithKeywords();
    const res = await post(project, 'add-subreddits-bulk', {
      subreddits: [
        'https://www.reddit.com/r/freelance/',
        'old.reddit.com/r/SaaS/top/?t=week',
        'https://reddit.com/r/startups/comments/abc123/some_post/',
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ added_count: 3, invalid: [], not_found: [] });
  });

  it('takes a list too, and approves names already listed instead of adding them again', async () => {
    const project = await projectWithKeywords();
    const listed = await insertSubreddit(t.ctx.db, project.id, { name: 'SaaS', relevanceScore: 0.7 });
    const res = await post(project, 'add-subreddits-bulk', { subreddits: ['saas', 'r/startups'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      added_count: 1,
      already_listed: ['SaaS'],
      not_found: [],
      invalid: [],
    });
    expect(await listAll(project)).toContainEqual({
      id: listed.id,
      subreddit_name: 'SaaS',
      description: '',
      estimated_members: 0,
      relevance_score: 0.7,
      approved: true,
    });
  });

  it('reports private and banned subreddits as not found', async () => {
    const project = await projectWithKeywords();
    t.sim!.faults.add({ kind: 'status', status: 403, path: '/r/Landlord/about' });
    const res = await post(project, 'add-subreddits-bulk', { subreddits: 'Landlord' });
    expect(res.json()).toMatchObject({ added_count: 0, not_found: ['Landlord'] });
    expect(await listAll(project)).toEqual([]);
  });

  it('refuses empty, oversized and malformed input, and stores nothing', async () => {
    const project = await projectWithKeywords();
    for (const subreddits of ['', ' , \n  ,', []]) {
      const res = await post(project, 'add-subreddits-bulk', { subreddits });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: EMPTY_BULK_SUBREDDITS, code: 'empty_input' });
    }
    const tooMany = Array.from({ length: BULK_SUBREDDITS_MAX + 1 }, (_, i) => `sub${i}`);
    const asText = await post(project, 'add-subreddits-bulk', { subreddits: tooMany.join(',') });
    expect(asText.statusCode).toBe(400);
    expect(asText.json().code).toBe('too_many_names');
    for (const payload of [
      { subreddits: tooMany },
      { subreddits: 'x'.repeat(2001) },
      { subreddits: 'SaaS\u0000' },
      { subreddits: ['SaaS', 'x'.repeat(101)] },
      { subreddits: 42 },
      {},
    ]) {
      const res = await post(project, 'add-subreddits-bulk', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
    expect(await listAll(project)).toEqual([]);
  });

  it(`keeps a project at ${SUBREDDITS_PER_PROJECT_MAX} subreddits at most`, async () => {
    const project = await projectWithKeywords();
    await t.ctx.db.insert(subreddits).values(
      Array.from({ length: SUBREDDITS_PER_PROJECT_MAX }, (_, i) => ({
        projectId: project.id,
        name: `listed${i}`,
        source: 'generated',
      })),
    );
    const res = await post(project, 'add-subreddits-bulk', { subreddits: 'SaaS' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('too_many_subreddits');
    expect((await post(project, 'generate-subreddits')).json().code).toBe('too_many_subreddits');
  });
});

describe('POST approve-subreddits', () => {
  it('approves and unapproves; only newly approved ones get approved_at, backfills are left alone', async () => {
    const project = await projectWithKeywords();
    const earlier = new Date(clock.t - 86_400_000);
    const a = await insertSubreddit(t.ctx.db, project.id, { name: 'alpha', relevanceScore: 0.9 });
    const b = await insertSubreddit(t.ctx.db, project.id, { name: 'beta', relevanceScore: 0.8 });
    const kept = await insertSubreddit(t.ctx.db, project.id, {
      name: 'kept',
      approved: true,
      approvedAt: earlier,
      backfilledAt: earlier,
    });
    const dropped = await insertSubreddit(t.ctx.db, project.id, {
      name: 'dropped',
      approved: true,
      approvedAt: earlier,
      backfilledAt: earlier,
    });
    const res = await post(project, 'approve-subreddits', {
      subreddits: [
        { id: a.id, subreddit_name: 'alpha', approved: true },
        { id: kept.id, approved: true },
        { id: dropped.id, approved: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().approved_count).toBe(2);
    expect(res.json().subreddits.map((s: TSubreddit) => [s.subreddit_name, s.approved])).toEqual([
      ['alpha', true],
      ['kept', true],
      ['beta', false],
      ['dropped', false],
    ]);
    const rows = new Map(
      (await t.ctx.db.select().from(subreddits).where(eq(subreddits.projectId, project.id))).map((r) => [
        r.id,
        r,
      ]),
    );
    expect(rows.get(a.id)).toMatchObject({ approvedAt: new Date(clock.t), backfilledAt: null });
    expect(rows.get(kept.id)).toMatchObject({ approvedAt: earlier, backfilledAt: earlier });
    expect(rows.get(dropped.id)).toMatchObject({ approved: false, approvedAt: null, backfilledAt: earlier });
    expect(rows.get(b.id)).toMatchObject({ approved: false, approvedAt: null });
  });

  it('needs at least one approved subreddit', async () => {
    const project = await projectWithKeywords();
    const a = await insertSubreddit(t.ctx.db, project.id, { name: 'alpha', approved: true });
    const res = await post(project, 'approve-subreddits', { subreddits: [{ id: a.id, approved: false }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: NO_SUBREDDIT_SELECTED, code: 'no_subreddit_selected' });
    expect((await listAll(project))[0]!.approved).toBe(true);
  });

  it('takes back the approval of one subreddit while others stay approved', async () => {
    const project = await projectWithKeywords();
    const a = await insertSubreddit(t.ctx.db, project.id, { name: 'alpha', approved: true });
    await insertSubreddit(t.ctx.db, project.id, { name: 'beta', approved: true });
    const res = await post(project, 'approve-subreddits', { subreddits: [{ id: a.id, approved: false }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().approved_count).toBe(1);
    const rows = await listAll(project);
    expect(rows.map((r) => [r.subreddit_name, r.approved]).sort()).toEqual([
      ['alpha', false],
      ['beta', true],
    ]);
  });

  it("answers 404 for another project's subreddit, or one that does not exist, and changes nothing", async () => {
    const project = await projectWithKeywords();
    const other = await projectWithKeywords();
    const own = await insertSubreddit(t.ctx.db, project.id, { name: 'mine' });
    const theirs = await insertSubreddit(t.ctx.db, other.id, { name: 'theirs' });
    const before = [await listAll(project), await listAll(other)];
    for (const foreign of [theirs.id, randomUUID()]) {
      const res = await post(project, 'approve-subreddits', {
        subreddits: [
          { id: own.id, approved: true },
          { id: foreign, approved: true },
        ],
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Subreddit not found', code: 'not_found' });
    }
    expect([await listAll(project), await listAll(other)]).toEqual(before);
  });

  it('refuses malformed bodies', async () => {
    const project = await projectWithKeywords();
    const own = await insertSubreddit(t.ctx.db, project.id, { name: 'mine' });
    for (const payload of [
      { subreddits: [] },
      { subreddits: [{ id: 'not-a-uuid', approved: true }] },
      { subreddits: [{ id: own.id }] },
      { subreddits: [{ id: own.id, approved: true, subreddit_name: 'a\u0000' }] },
      {
        subreddits: Array.from({ length: SUBREDDITS_PER_PROJECT_MAX + 1 }, () => ({
          id: own.id,
          approved: true,
        })),
      },
    ]) {
      const res = await post(project, 'approve-subreddits', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect((await listAll(project))[0]!.approved).toBe(false);
  });
});
