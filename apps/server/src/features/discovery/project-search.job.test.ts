import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedditBudgetExhaustedError } from '../../integrations/reddit';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { recordingQueue } from '../../jobs/queue.test-support';
import type { TestApp } from '../../test/test-app';
import { AGENT_SEARCH_OPTIONS } from '../agent/agent-run';
import { findRun, RUN_STALE_AFTER_MS, startRun } from '../projects';
import { countByDay } from '../statistics/statistics.repository';
import { openSearch } from './discovery.repository';
import { discoverySearches } from './discovery.table';
import {
  addSearchCredential,
  buildDiscoveryProject,
  createDiscoveryApp,
  leadsOf,
} from './discovery.test-support';
import { projectSearchJob } from './project-search.job';
import { getSearchStatus } from './project-search.service';

/**
 * The project-search job driven run by run on the simulator's clock, as the workers would run it: each
 * run's handler is called with the data the previous run queued, once the clock reaches its start.
 */
const clock = virtualClock();
const queue = recordingQueue();
let t: TestApp;

beforeAll(async () => {
  t = await createDiscoveryApp({ reddit: { clock }, queue: queue.starter });
  await addSearchCredential(t.ctx);
});
afterAll(() => t?.close());
beforeEach(() => {
  t.sim!.faults.clear();
  t.sim!.inspect.reset();
});

type Project = Awaited<ReturnType<typeof buildDiscoveryProject>>;
type SearchJobData = { projectId: string; attempt?: number };

async function startedSearch(): Promise<Project> {
  const p = await buildDiscoveryProject(
    t.ctx.db,
    t.config,
    { keywords: ['customers', 'users'], subreddits: ['SaaS'] },
    new Date(clock.t),
  );
  expect((await startSearch(p)).statusCode).toBe(200);
  return p;
}

function startSearch(p: Project) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/search-posts',
    headers: p.owner.auth,
    payload: { project_id: p.id },
  });
}

function searchJobs(p: Project) {
  return queue.jobs.filter(
    (j) => j.name === projectSearchJob.name && (j.data as SearchJobData).projectId === p.id,
  );
}

/** Runs the project's last queued search job once the clock reaches its start; answers its data. */
async function runQueued(p: Project): Promise<SearchJobData> {
  const job = searchJobs(p).at(-1)!;
  clock.t = Math.max(clock.t, job.options.startAfter?.getTime() ?? 0);
  const data = job.data as SearchJobData;
  await projectSearchJob.handler(t.ctx, data);
  return data;
}

async function searchRow(p: Project) {
  return (await searchRows(p))[0]!;
}

function searchRows(p: Project) {
  return t.ctx.db
    .select()
    .from(discoverySearches)
    .where(eq(discoverySearches.projectId, p.id))
    .orderBy(asc(discoverySearches.startedAt));
}

const listingStatuses = () =>
  t
    .sim!.inspect.requestLog()
    .filter((e) => e.path.endsWith('/new'))
    .map((e) => e.status);

describe('a search when Reddit does not answer', () => {
  it('stays running, says when it tries again, queues its next attempt for then, and ends with its leads', async () => {
    const p = await startedSearch();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 3 });

    for (const attempt of [1, 2, 3]) {
      const before = searchJobs(p).length;
      const ran = await runQueued(p);
      expect(ran.attempt ?? 1).toBe(attempt);
      const jobs = searchJobs(p);
      expect(jobs).toHaveLength(before + 1);
      const next = jobs.at(-1)!;
      expect(next.data).toEqual({ projectId: p.id, attempt: attempt + 1 });
      expect(next.options.singletonKey).toBe(p.id);
      const startAfter = next.options.startAfter!.getTime();
      expect(startAfter).toBeGreaterThan(clock.t);
      // Jittered exponential backoff from 500 ms: at most 500 ms × 2^(attempt − 1).
      expect(startAfter).toBeLessThanOrEqual(clock.t + 500 * 2 ** (attempt - 1));

      const status = await getSearchStatus(t.ctx, p.id);
      expect(status.status).toBe('searching');
      const due = new Date(Math.ceil(startAfter / 1000) * 1000).toISOString().slice(11, 19);
      expect(status.progress!.phase).toBe(`Reddit did not answer; trying again at ${due} UTC`);
      expect((await searchRow(p)).status).toBe('running');
    }

    expect((await runQueued(p)).attempt).toBe(4);
    const done = await getSearchStatus(t.ctx, p.id);
    expect(done.status).toBe('completed');
    expect(done.error).toBeNull();
    const leads = await leadsOf(t.ctx.db, p.id);
    expect(leads.length).toBeGreaterThan(0);
    expect(done.result!.posts_found).toBe(leads.length);
    expect(await searchRow(p)).toMatchObject({ status: 'completed', postsFound: leads.length });
    expect(searchJobs(p)).toHaveLength(4);
    // Each attempt asks once: a 5xx is not asked again at once.
    expect(listingStatuses()).toEqual([503, 503, 503, 200]);
  });

  it('fails with the unavailable message after the fourth attempt', async () => {
    const p = await startedSearch();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new' });

    for (let i = 0; i < 4; i++) await runQueued(p);
    expect(searchJobs(p).map((j) => (j.data as SearchJobData).attempt)).toEqual([undefined, 2, 3, 4]);
    const failed = await getSearchStatus(t.ctx, p.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('Reddit is unavailable right now; please try again later');
    expect((await searchRow(p)).status).toBe('failed');
    expect(listingStatuses()).toEqual([503, 503, 503, 503]);
  });

  it('asks again at once, within the same attempt, after a broken connection', async () => {
    const p = await startedSearch();
    t.sim!.faults.add({ kind: 'reset', path: '/r/*/new', count: 1 });
    await runQueued(p);
    expect(searchJobs(p)).toHaveLength(1);
    expect((await getSearchStatus(t.ctx, p.id)).status).toBe('completed');
    expect((await leadsOf(t.ctx.db, p.id)).length).toBeGreaterThan(0);
  });

  it('does not count a pause Reddit asked for (429) as an attempt: the same attempt runs again when it ends', async () => {
    const p = await startedSearch();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    await runQueued(p);
    t.sim!.faults.add({ kind: 'rate-limit', retryAfter: 30, path: '/r/*/new', count: 1 });

    const second = searchJobs(p).at(-1)!;
    clock.t = second.options.startAfter!.getTime();
    const spent = await projectSearchJob.handler(t.ctx, second.data as SearchJobData).catch((e) => e);
    // The runner queues the same data again for `retryAtMs` (see jobs/queue.ts): the attempt stays 2.
    expect(spent).toBeInstanceOf(RedditBudgetExhaustedError);
    expect(searchJobs(p)).toHaveLength(2);
    const waiting = await getSearchStatus(t.ctx, p.id);
    expect(waiting.status).toBe('searching');
    expect(waiting.progress!.phase).toBe('waiting for the pause Reddit asked for');

    clock.t = (spent as RedditBudgetExhaustedError).retryAtMs;
    await projectSearchJob.handler(t.ctx, second.data as SearchJobData);
    expect((await getSearchStatus(t.ctx, p.id)).status).toBe('completed');
    expect(listingStatuses()).toEqual([503, 429, 200]);
  });
});

describe('a search whose worker died', () => {
  it('closes as failed among the project searches when a new search takes its run over, and stays counted', async () => {
    const p = await startedSearch();
    // Its first attempt opens its entry and waits for Reddit; the worker is killed before the next one.
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    await runQueued(p);
    const dead = (await findRun(t.ctx.db, p.id, 'search'))!;
    expect(dead.status).toBe('running');

    // Not yet stale: it is refused, and the dead search's entry is left alone.
    clock.t = dead.heartbeatAt.getTime() + RUN_STALE_AFTER_MS - 1000;
    expect((await startSearch(p)).statusCode).toBe(409);
    expect(await searchRows(p)).toMatchObject([{ status: 'running', finishedAt: null }]);

    // Two starts at once once it went stale: one takes the run over, the other finds it running.
    clock.t = dead.heartbeatAt.getTime() + RUN_STALE_AFTER_MS + 1000;
    const starts = await Promise.all([startSearch(p), startSearch(p)]);
    expect(starts.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await searchRows(p)).toEqual([
      expect.objectContaining({
        trigger: 'posts',
        status: 'failed',
        startedAt: dead.startedAt,
        finishedAt: dead.heartbeatAt,
      }),
    ]);

    await runQueued(p);
    expect((await getSearchStatus(t.ctx, p.id)).status).toBe('completed');
    const rows = await searchRows(p);
    expect(rows.map((r) => r.status)).toEqual(['failed', 'completed']);
    expect(rows[1]!.startedAt.getTime()).toBe(clock.t);
    // Both searches ran: the statistics count each.
    const counts = await countByDay(t.ctx.db, { from: new Date(0), to: new Date(clock.t + 1000) }, p.id);
    const searches = counts.filter((c) => c.metric === 'searches').reduce((sum, c) => sum + c.n, 0);
    expect(searches).toBe(2);
  });
});

describe('the agent search whose run died', () => {
  it('is closed as failed, under its own trigger, when the customer search takes its run over', async () => {
    const p = await buildDiscoveryProject(
      t.ctx.db,
      t.config,
      { keywords: ['customers'], subreddits: ['SaaS'] },
      new Date(clock.t),
    );
    const dead = (await startRun(t.ctx.db, p.id, 'search', new Date(clock.t), AGENT_SEARCH_OPTIONS))!;
    await openSearch(t.ctx.db, p.id, 'agent', dead.startedAt);

    clock.t = dead.heartbeatAt.getTime() + RUN_STALE_AFTER_MS + 1000;
    expect((await startSearch(p)).statusCode).toBe(200);
    expect(await searchRows(p)).toEqual([
      expect.objectContaining({
        trigger: 'agent',
        status: 'failed',
        startedAt: dead.startedAt,
        finishedAt: dead.heartbeatAt,
      }),
    ]);
  });
});

describe('a search whose next attempt cannot be queued', () => {
  it('fails, and so does its entry among the project searches', async () => {
    const p = await startedSearch();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    const enqueue = vi.spyOn(t.ctx.queue!, 'enqueue').mockRejectedValueOnce(new Error('queue down'));
    try {
      await expect(runQueued(p)).rejects.toThrow('queue down');
    } finally {
      enqueue.mockRestore();
    }
    const status = await getSearchStatus(t.ctx, p.id);
    expect(status.status).toBe('failed');
    expect(status.error).toBe('The search could not be queued; please try again');
    expect(await searchRows(p)).toMatchObject([
      { trigger: 'posts', status: 'failed', finishedAt: new Date(clock.t) },
    ]);
    // The person starts it again at once.
    expect((await startSearch(p)).statusCode).toBe(200);
  });
});
