import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  NO_APPROVED_KEYWORDS,
  NO_APPROVED_SUBREDDITS,
  NO_SEARCH_TYPE,
  POST_SEARCH_RUNNING,
  SEARCH_RUNNING,
  type TSearchStatus,
} from '@threadreach/contract';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { registerJobs, startQueue } from '../../jobs/queue';
import type { TestApp } from '../../test/test-app';
import { startRun } from '../projects';
import { subreddits } from '../subreddits/subreddits.table';
import { discoverySearches, redditAuthors } from './discovery.table';
import {
  addSearchCredential,
  buildDiscoveryProject,
  createDiscoveryApp,
  leadsOf,
  type DiscoveryProjectSpec,
} from './discovery.test-support';
import { projectSearchJob } from './project-search.job';

const clock = virtualClock();
let t: TestApp;
const settled = { timeout: 60_000, interval: 100 };

beforeAll(async () => {
  t = await createDiscoveryApp({ reddit: { clock }, queue: startQueue });
  await addSearchCredential(t.ctx);
  await registerJobs(t.ctx, t.ctx.queue!, [projectSearchJob]);
});
afterAll(() => t?.close());

type Project = Awaited<ReturnType<typeof buildDiscoveryProject>>;
const project = (spec: DiscoveryProjectSpec) =>
  buildDiscoveryProject(t.ctx.db, t.config, spec, new Date(clock.t));

function enhanced(p: Project, body: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/projects/${p.id}/search-enhanced`,
    headers: p.owner.auth,
    payload: body,
  });
}
function posts(p: Project) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/search-posts',
    headers: p.owner.auth,
    payload: { project_id: p.id },
  });
}
async function status(p: Project, which: 'enhanced' | 'posts' = 'enhanced'): Promise<TSearchStatus> {
  const url =
    which === 'enhanced'
      ? `/api/v1/projects/${p.id}/search-enhanced/status`
      : `/api/v1/search-posts/status?project_id=${p.id}`;
  const res = await t.app.inject({ url, headers: p.owner.auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}
async function finished(p: Project, which: 'enhanced' | 'posts' = 'enhanced'): Promise<TSearchStatus> {
  let last: TSearchStatus | undefined;
  await vi.waitFor(async () => {
    last = await status(p, which);
    expect(['completed', 'failed']).toContain(last.status);
  }, settled);
  return last!;
}

describe('starting a search', () => {
  it('needs approved keywords, unless the project takes every post', async () => {
    const p = await project({ unapprovedKeywords: ['crm'], subreddits: ['SaaS'] });
    for (const res of [await enhanced(p), await posts(p)]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: NO_APPROVED_KEYWORDS, code: 'no_approved_keywords' });
    }
    expect((await status(p)).status).toBe('idle');
    const all = await project({ withoutKeywords: true, subreddits: ['nocode'] });
    expect((await posts(all)).json()).toEqual({ data: { status: 'started' } });
    expect((await finished(all, 'posts')).status).toBe('completed');
  });

  it('needs approved subreddits', async () => {
    const p = await project({ keywords: ['crm'] });
    for (const res of [await enhanced(p), await posts(p)]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: NO_APPROVED_SUBREDDITS, code: 'no_approved_subreddits' });
    }
  });

  it('needs at least one kind of result and a limit of at most 100', async () => {
    const p = await project({ keywords: ['crm'], subreddits: ['SaaS'] });
    const none = await enhanced(p, {
      include_posts: false,
      include_comments: false,
      include_profiles: false,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('validation_error');
    expect(none.json().detail).toContain(NO_SEARCH_TYPE);
    expect((await enhanced(p, { limit: 101 })).statusCode).toBe(400);
  });

  it('answers 409 while a search of the project runs', async () => {
    const p = await project({ keywords: ['crm'], subreddits: ['SaaS'] });
    await startRun(t.ctx.db, p.id, 'search', new Date(clock.t), {});
    const twice = await enhanced(p);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ detail: SEARCH_RUNNING, code: 'search_running' });
    const again = await posts(p);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: POST_SEARCH_RUNNING, code: 'post_search_running' });
    expect((await status(p, 'posts')).status).toBe('searching');
  });
});

describe('a search', () => {
  it('backfills new subreddits, reads the newest posts and comments, and reports what it found', async () => {
    const p = await project({ keywords: ['customers', 'users', 'tool'], subreddits: ['SaaS'] });
    await t.ctx.db.insert(subreddits).values({
      projectId: p.id,
      name: 'startups',
      source: 'manual',
      approved: true,
      approvedAt: new Date(clock.t),
    });
    t.sim!.inspect.reset();
    const res = await enhanced(p, { include_comments: true, include_profiles: true, limit: 50 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'started' } });

    const done = await finished(p);
    expect(done.status).toBe('completed');
    expect(done.error).toBeNull();
    const leads = await leadsOf(t.ctx.db, p.id);
    const postLeads = leads.filter((l) => l.kind === 'post');
    const commentLeads = leads.filter((l) => l.kind === 'comment');
    expect(postLeads.length).toBeGreaterThan(0);
    expect(commentLeads.length).toBeGreaterThan(0);
    expect(done.result).toEqual({
      posts_found: postLeads.length,
      comments_found: commentLeads.length,
      profiles_found: new Set(leads.map((l) => l.author)).size,
    });
    expect(done.progress).toMatchObject({ phase: 'done', leads_found: leads.length });
    expect(done.progress!.items_read).toBeGreaterThan(leads.length);
    for (const lead of leads) {
      expect(['SaaS', 'startups']).toContain(lead.subreddit);
      expect(lead.matches.length).toBeGreaterThan(0);
    }

    const paths = t.sim!.inspect.requestLog().map((e) => e.path);
    expect(paths.filter((x) => x === '/r/startups/search')).toHaveLength(1);
    expect(paths.filter((x) => x.endsWith('/new') && x.startsWith('/r/saas'))).toHaveLength(1);
    const [row] = await t.ctx.db.select().from(subreddits).where(eq(subreddits.name, 'startups'));
    expect(row!.backfilledAt).not.toBeNull();
    const [search] = await t.ctx.db
      .select()
      .from(discoverySearches)
      .where(eq(discoverySearches.projectId, p.id));
    expect(search).toMatchObject({
      trigger: 'enhanced',
      status: 'completed',
      postsFound: postLeads.length,
      commentsFound: commentLeads.length,
    });
    expect(search!.requests).toBeGreaterThan(2);

    // Done, it may start again; nothing is found twice.
    expect(
      (await enhanced(p, { include_comments: true, include_profiles: true, limit: 50 })).statusCode,
    ).toBe(200);
    expect((await finished(p)).status).toBe('completed');
    expect((await leadsOf(t.ctx.db, p.id)).length).toBe(leads.length);
  });

  it("reads its newest leads' authors, Users unchecked, so the lists open on their age and karma", async () => {
    const p = await project({ keywords: ['customers', 'users', 'tool'], subreddits: ['SaaS'] });
    t.sim!.inspect.reset();
    expect((await enhanced(p, { include_comments: true })).statusCode).toBe(200);
    const done = await finished(p);
    expect(done.status).toBe('completed');
    expect(done.result?.profiles_found).toBe(0);

    // Read now, or by an earlier test's search: the cache is shared.
    const read = t
      .sim!.inspect.requestLog({ endpoint: 'GET /user/{name}/about' })
      .map((e) => decodeURIComponent(e.path.split('/')[2] ?? ''));
    const cached = new Set(
      (await t.ctx.db.select({ name: redditAuthors.name }).from(redditAuthors)).map((a) => a.name),
    );
    const authors = new Set((await leadsOf(t.ctx.db, p.id)).map((l) => l.author));
    expect(authors.size).toBeGreaterThan(20);
    expect(read.length).toBeGreaterThan(0);
    expect(read.length).toBeLessThanOrEqual(20);
    expect(new Set(read).size).toBe(read.length);
    for (const url of [
      `/api/v1/posts?project_id=${p.id}&limit=10`,
      `/api/v1/projects/${p.id}/comments?limit=10`,
    ]) {
      const firstPage = await t.app.inject({ method: 'GET', url, headers: p.owner.auth });
      const items = firstPage.json().items as { author: string; account_age_days: number | null }[];
      expect(items.length).toBe(10);
      for (const item of items) expect(cached).toContain(item.author);
      expect(items.filter((i) => i.account_age_days !== null).length).toBeGreaterThan(6);
    }
  });

  it('shows its phase, items read and leads found while it runs', async () => {
    const p = await project({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'marketing', 'SEO', 'socialmedia'],
      backfilled: false,
    });
    t.sim!.faults.add({ kind: 'latency', ms: 400, path: '/r/*' });
    try {
      expect((await posts(p)).statusCode).toBe(200);
      const seen: TSearchStatus[] = [];
      await vi.waitFor(async () => {
        const now = await status(p, 'posts');
        seen.push(now);
        expect(now.status).not.toBe('idle');
        expect(now.status === 'completed' || (now.progress?.items_read ?? 0) > 0).toBe(true);
      }, settled);
      const running = seen.find((s) => s.status === 'searching' && (s.progress?.items_read ?? 0) > 0);
      expect(running?.progress?.phase).toMatch(/^(backfilling r\/\w+|reading new posts)$/);
      expect(running?.progress?.items_read).toBeGreaterThan(0);
      const done = await finished(p, 'posts');
      expect(done.status).toBe('completed');
      expect(done.result!.comments_found).toBe(0);
      expect(done.result!.posts_found).toBe((await leadsOf(t.ctx.db, p.id)).length);
    } finally {
      t.sim!.faults.clear();
    }
  });

  it('tries again after Reddit answers 5xx, by queueing its next attempt, and ends with its leads', async () => {
    const p = await project({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    t.sim!.inspect.reset();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 2 });
    let done: TSearchStatus;
    try {
      expect((await posts(p)).statusCode).toBe(200);
      done = await finished(p, 'posts');
    } finally {
      t.sim!.faults.clear();
    }
    expect(done.status).toBe('completed');
    expect(done.error).toBeNull();
    const leads = await leadsOf(t.ctx.db, p.id);
    expect(leads.length).toBeGreaterThan(0);
    expect(done.result!.posts_found).toBe(leads.length);
    const listings = t.sim!.inspect.requestLog().filter((e) => e.path.endsWith('/new'));
    expect(listings.map((e) => e.status)).toEqual([503, 503, 200]);
    const runs = await t.ctx.queue!.boss.findJobs(projectSearchJob.name, { key: p.id });
    expect(runs.map((j) => (j.data as { attempt?: number }).attempt).sort()).toEqual([2, 3, undefined]);
    const [search] = await t.ctx.db
      .select()
      .from(discoverySearches)
      .where(eq(discoverySearches.projectId, p.id));
    expect(search).toMatchObject({ status: 'completed', postsFound: leads.length });
  });

  it('counts without writing anything in a dry run', async () => {
    const p = await project({ keywords: ['customers', 'users'], subreddits: ['SaaS'], backfilled: false });
    expect((await enhanced(p, { persist_posts: false, include_comments: true })).statusCode).toBe(200);
    const done = await finished(p);
    expect(done.status).toBe('completed');
    expect(done.result!.posts_found + done.result!.comments_found).toBeGreaterThan(0);
    expect(await leadsOf(t.ctx.db, p.id)).toEqual([]);
    const rows = await t.ctx.db
      .select()
      .from(subreddits)
      .where(inArray(subreddits.projectId, [p.id]));
    expect(rows.every((r) => r.backfilledAt === null)).toBe(true);
  });
});
