import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../integrations/reddit';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import type { TestApp } from '../../test/test-app';
import {
  addSearchCredential,
  addVerifyingCredential,
  buildDiscoveryProject,
  createDiscoveryApp,
  cursorsOf,
  leadsOf,
  listingSince,
  profilesOf,
} from './discovery.test-support';
import { compileMatcher } from './matcher';
import { runDiscoveryCycle } from './discovery-cycle.service';
import {
  discoveryCursors,
  discoverySearches,
  redditAuthors,
  redditAuthorsUnanswered,
  redditItems,
  type DiscoveryCursorRow,
} from './discovery.table';
import { subreddits } from '../subreddits/subreddits.table';
import { authorsToEnrich, syncStreams } from './discovery.repository';
import { enrichAuthors } from './enrich-authors';
import { RedditReader } from './reddit-reader';
import { projects } from '../projects/projects.table';
import { buildLead, redditName } from '../leads/leads.test-support';

const HOUR = 3_600_000;
const SUBS = ['SaaS', 'startups', 'smallbusiness'];

describe('the discovery cycle', () => {
  const clock = virtualClock();
  let t: TestApp;
  let verifier: string;
  beforeAll(async () => {
    t = await createDiscoveryApp({ reddit: { clock } });
    await addSearchCredential(t.ctx);
    verifier = (await addVerifyingCredential(t.ctx)).id;
  });
  afterAll(() => t?.close());

  it('starts at the present, then finds every matching new post and comment, with reasons', async () => {
    const keywords = ['CRM', 'help desk', 'churn'];
    const project = await buildDiscoveryProject(t.ctx.db, t.config, { keywords, subreddits: SUBS });

    const first = await runDiscoveryCycle(t.ctx);
    expect(first).toMatchObject({ groups: 1, leadsCreated: 0, itemsRead: 0, complete: true });
    const start = await cursorsOf(t.ctx.db);
    expect(start.map((c) => c.kind).sort()).toEqual(['t1', 't3']);
    expect(start.every((c) => c.beforeName)).toBe(true);

    // Six hours: more than a page of posts and many pages of comments.
    clock.t += 6 * HOUR;
    const report = await runDiscoveryCycle(t.ctx);
    expect(report.complete).toBe(true);
    expect(report.gaps).toBeGreaterThanOrEqual(2);
    expect(report.missedItems).toBe(0);

    const names = SUBS.map((s) => s.toLowerCase());
    const matcher = compileMatcher([
      {
        projectId: project.id,
        keywords,
        negativeKeywords: [],
        subreddits: names,
        excludedSubreddits: [],
        excludedAuthors: [],
        withoutKeywords: false,
      },
    ]);
    const expected = new Set<string>();
    let listed = 0;
    for (const kind of ['t3', 't1'] as const) {
      const stopAt = start.find((c) => c.kind === kind)!.beforeName;
      const items = await listingSince(t.ctx, verifier, kind, names, stopAt);
      listed += items.length;
      for (const item of items) if (matcher.match(item).length > 0) expected.add(item.name);
    }
    expect(report.itemsRead).toBe(listed);
    const leads = await leadsOf(t.ctx.db, project.id);
    expect(leads.length).toBeGreaterThan(0);
    expect(new Set(leads.map((l) => l.itemName))).toEqual(expected);
    expect(report.leadsCreated).toBe(leads.length);

    for (const lead of leads) {
      const [item] = await t.ctx.db.select().from(redditItems).where(eq(redditItems.name, lead.itemName));
      expect(item).toBeDefined();
      expect(lead.kind).toBe(item!.kind === 't3' ? 'post' : 'comment');
      expect(lead.foundAt.getTime()).toBe(clock.t);
      expect(lead.intentScore).toBeGreaterThanOrEqual(0);
      expect(lead.intentScore).toBeLessThanOrEqual(100);
      expect(lead.intentReasons.length).toBeGreaterThan(0);
      expect(lead.matches.length).toBeGreaterThan(0);
      for (const m of lead.matches) {
        // Comments store their post's title, but only their own body is matched.
        const text = m.field === 'title' ? item!.title : item!.body;
        expect(text.slice(m.start, m.end).toLowerCase().replace(/\s+/g, ' ')).toBe(m.keyword.toLowerCase());
        expect(lead.matchedKeywords).toContain(m.keyword);
      }
    }
    const people = await profilesOf(t.ctx.db, project.id);
    expect(people.map((p) => p.redditUsername).sort()).toEqual(
      [...new Set(leads.map((l) => l.author))].sort(),
    );
  });

  it('adds nothing twice: a second cycle reads nothing new, a repeated read adds no lead', async () => {
    const before = await leadsOf(t.ctx.db, await allProjectIds(t));
    const again = await runDiscoveryCycle(t.ctx);
    expect(again).toMatchObject({ itemsRead: 0, leadsCreated: 0, gaps: 0 });

    // As after a crash between a read and its commit: the same window is read again.
    const cursors = await cursorsOf(t.ctx.db);
    clock.t += 2 * HOUR;
    await runDiscoveryCycle(t.ctx);
    const after = await leadsOf(t.ctx.db, await allProjectIds(t));
    await rewind(t, cursors);
    const repeated = await runDiscoveryCycle(t.ctx);
    expect(repeated.itemsRead).toBeGreaterThan(0);
    expect(repeated.leadsCreated).toBe(0);
    const final = await leadsOf(t.ctx.db, await allProjectIds(t));
    expect(final.length).toBe(after.length);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    expect(new Set(final.map((l) => `${l.projectId}/${l.itemName}`)).size).toBe(final.length);
  });

  it('keeps negative keywords, excluded subreddits and authors out, and takes every item without keywords', async () => {
    const keywords = ['customers', 'users', 'tool', 'CRM'];
    const twin = await buildDiscoveryProject(t.ctx.db, t.config, { keywords, subreddits: SUBS });
    await runDiscoveryCycle(t.ctx);
    const window = await cursorsOf(t.ctx.db);
    clock.t += 3 * HOUR;
    await runDiscoveryCycle(t.ctx);
    const twinLeads = await leadsOf(t.ctx.db, twin.id);
    const texts = new Map<string, string>();
    for (const lead of twinLeads) {
      const [item] = await t.ctx.db.select().from(redditItems).where(eq(redditItems.name, lead.itemName));
      // What the matcher reads: a comment's own body, a post's title and body.
      texts.set(lead.itemName, item!.kind === 't3' ? `${item!.title}\n${item!.body}` : item!.body);
    }
    expect(twinLeads.length).toBeGreaterThan(5);
    const hasWord = (text: string, word: string) =>
      new RegExp(`(^|[^\\p{L}\\p{N}_])${word}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
    const words = [...new Set([...texts.values()].flatMap((x) => x.toLowerCase().match(/[a-z]{5,}/g) ?? []))];
    const negative = words.find((w) => {
      const n = [...texts.values()].filter((x) => hasWord(x, w)).length;
      return n > 0 && n < texts.size / 2;
    })!;
    const counts = new Map<string, number>();
    for (const l of twinLeads) counts.set(l.author, (counts.get(l.author) ?? 0) + 1);
    const author = [...counts].sort((a, b) => b[1] - a[1])[0]![0];

    const negated = await buildDiscoveryProject(t.ctx.db, t.config, {
      keywords,
      subreddits: SUBS,
      negativeKeywords: [negative.toUpperCase()],
    });
    const excluded = await buildDiscoveryProject(t.ctx.db, t.config, {
      keywords,
      subreddits: SUBS,
      excludedSubreddits: ['Startups'],
      excludedAuthors: [author.toUpperCase()],
    });
    const everything = await buildDiscoveryProject(t.ctx.db, t.config, {
      withoutKeywords: true,
      subreddits: ['SaaS'],
    });
    const idle = await buildDiscoveryProject(t.ctx.db, t.config, {
      unapprovedKeywords: keywords,
      subreddits: SUBS,
    });

    // The same window again, now with these projects.
    await rewind(t, window);
    const report = await runDiscoveryCycle(t.ctx);
    expect(report.leadsCreated).toBeGreaterThan(0);

    const itemsOf = async (id: string) => new Set((await leadsOf(t.ctx.db, id)).map((l) => l.itemName));
    expect(await itemsOf(twin.id)).toEqual(new Set(twinLeads.map((l) => l.itemName)));
    expect(await itemsOf(negated.id)).toEqual(
      new Set(twinLeads.filter((l) => !hasWord(texts.get(l.itemName)!, negative)).map((l) => l.itemName)),
    );
    expect((await itemsOf(negated.id)).size).toBeLessThan(twinLeads.length);
    const kept = twinLeads.filter((l) => l.subreddit.toLowerCase() !== 'startups' && l.author !== author);
    expect(kept.length).toBeLessThan(twinLeads.length);
    expect(await itemsOf(excluded.id)).toEqual(new Set(kept.map((l) => l.itemName)));
    expect(await itemsOf(idle.id)).toEqual(new Set());

    const saas = new Set<string>();
    for (const kind of ['t3', 't1'] as const) {
      const stopAt = window.find((c) => c.kind === kind)!.beforeName;
      const all = await listingSince(
        t.ctx,
        verifier,
        kind,
        SUBS.map((x) => x.toLowerCase()),
        stopAt,
      );
      for (const item of all)
        if (item.subreddit === 'SaaS' && item.author !== '[deleted]') saas.add(item.name);
    }
    expect(saas.size).toBeGreaterThan(0);
    expect(await itemsOf(everything.id)).toEqual(saas);
    for (const lead of await leadsOf(t.ctx.db, everything.id)) {
      expect(lead.matchedKeywords).toEqual([]);
      expect(lead.intentReasons).toBeInstanceOf(Array);
    }
  });

  it('reads a subreddit several projects share once per cycle, for all of them', async () => {
    const shared = await Promise.all(
      [1, 2, 3].map(() =>
        buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['users'], subreddits: ['SaaS'] }),
      ),
    );
    await runDiscoveryCycle(t.ctx);
    t.sim!.inspect.reset();
    clock.t += 30 * 60_000;
    const report = await runDiscoveryCycle(t.ctx);
    const log = t.sim!.inspect.requestLog();
    const listings = log.filter((e) => /^GET \/r\/\{sub\}\/(new|comments)$/.test(e.endpoint));
    expect(listings.map((e) => e.endpoint).sort()).toEqual(['GET /r/{sub}/comments', 'GET /r/{sub}/new']);
    for (const e of listings) {
      const subs = e.path.split('/')[2]!.toLowerCase().split('+');
      expect(subs.filter((x) => x === 'saas')).toHaveLength(1);
      expect(new Set(subs).size).toBe(subs.length);
    }
    expect(log.filter((e) => e.endpoint === 'GET /r/{sub}/search')).toEqual([]);
    expect(report.requests).toBe(log.filter((e) => e.surface === 'oauth').length);
    const sets = await Promise.all(
      shared.map(async (p) => (await leadsOf(t.ctx.db, p.id)).map((l) => l.itemName).sort()),
    );
    expect(sets[0]!.length).toBeGreaterThan(0);
    expect(sets[1]).toEqual(sets[0]);
    expect(sets[2]).toEqual(sets[0]);
  });

  it('reads each author once into the cache all tenants share', async () => {
    const a = await buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['customers'], subreddits: SUBS });
    const b = await buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['customers'], subreddits: SUBS });
    expect(a.owner.id).not.toBe(b.owner.id);
    await runDiscoveryCycle(t.ctx);
    t.sim!.inspect.reset();
    clock.t += HOUR;
    await runDiscoveryCycle(t.ctx);
    const authors = [...new Set((await leadsOf(t.ctx.db, [a.id, b.id])).map((l) => l.author))];
    // Twenty a cycle: the rest wait for the next ones.
    for (let i = 0; i < 20; i++) {
      const left = await authorsToEnrich(t.ctx.db, { limit: 1000, since: new Date(0), names: authors });
      if (left.length === 0) break;
      clock.t += 61_000;
      await runDiscoveryCycle(t.ctx);
    }
    expect(authors.length).toBeGreaterThan(1);
    const ofA = new Set((await leadsOf(t.ctx.db, a.id)).map((l) => l.author));
    expect(new Set((await leadsOf(t.ctx.db, b.id)).map((l) => l.author))).toEqual(ofA);
    const cached = await t.ctx.db.select().from(redditAuthors).where(inArray(redditAuthors.name, authors));
    expect(cached.map((c) => c.name).sort()).toEqual([...authors].sort());
    for (const c of cached) {
      if (!c.missing) {
        expect(c.accountCreatedAt).toBeInstanceOf(Date);
        expect(c.commentKarma).not.toBeNull();
      }
    }
    const reads = t.sim!.inspect.requestLog({ endpoint: 'GET /user/{name}/about' }).map((e) => e.path);
    expect(reads.length).toBe(new Set(reads).size);
    for (const name of authors)
      expect(reads.filter((p) => p === `/user/${name}/about`).length).toBeLessThanOrEqual(1);
  });

  it('marks deleted, suspended and unreadable accounts as missing', async () => {
    const reader = await RedditReader.forSearch(t.ctx);
    const outcome = await enrichAuthors(t.ctx, reader, [
      'suspended_seller',
      'nobody_here_42',
      'not a name',
      'demo_founder',
    ]);
    expect(outcome).toEqual({ enriched: 4, unanswered: 0, interrupted: false });
    const rows = await t.ctx.db
      .select()
      .from(redditAuthors)
      .where(
        inArray(redditAuthors.nameLower, [
          'suspended_seller',
          'nobody_here_42',
          'not a name',
          'demo_founder',
        ]),
      );
    const byName = new Map(rows.map((r) => [r.nameLower, r]));
    expect(byName.get('suspended_seller')?.missing).toBe(true);
    expect(byName.get('nobody_here_42')?.missing).toBe(true);
    expect(byName.get('not a name')?.missing).toBe(true);
    expect(byName.get('demo_founder')).toMatchObject({ missing: false, name: 'demo_founder' });
    expect(byName.get('demo_founder')?.accountCreatedAt).toBeInstanceOf(Date);
  });

  it('backfills a newly approved subreddit once: a keyword search, or its newest posts without keywords', async () => {
    const keywords = ['CRM', 'help desk', 'backup'];
    const searched = await buildDiscoveryProject(t.ctx.db, t.config, {
      keywords,
      subreddits: ['sysadmin'],
      backfilled: false,
    });
    const everything = await buildDiscoveryProject(t.ctx.db, t.config, {
      withoutKeywords: true,
      subreddits: ['nocode'],
      backfilled: false,
    });
    t.sim!.inspect.reset();
    clock.t += 61_000;
    const started = clock.t;
    const report = await runDiscoveryCycle(t.ctx);
    expect(report.backfills).toBe(2);
    const log = t.sim!.inspect.requestLog();
    expect(log.filter((e) => e.path === '/r/sysadmin/search')).toHaveLength(1);
    expect(log.filter((e) => e.path === '/r/nocode/new')).toHaveLength(1);

    const found = await leadsOf(t.ctx.db, searched.id);
    expect(found.length).toBeGreaterThan(0);
    for (const lead of found) {
      expect(lead.subreddit).toBe('sysadmin');
      expect(lead.kind).toBe('post');
      expect(lead.matches.length).toBeGreaterThan(0);
      expect(lead.itemCreatedAt.getTime()).toBeLessThan(started);
    }
    expect(found.some((l) => l.itemCreatedAt.getTime() < started - 6 * HOUR)).toBe(true);
    const all = await leadsOf(t.ctx.db, everything.id);
    expect(all).toHaveLength(100);
    expect(new Set(all.map((l) => l.subreddit))).toEqual(new Set(['nocode']));

    const rows = await t.ctx.db
      .select()
      .from(subreddits)
      .where(inArray(subreddits.projectId, [searched.id, everything.id]));
    expect(rows.every((r) => r.backfilledAt?.getTime() === started)).toBe(true);
    const searches = await t.ctx.db
      .select()
      .from(discoverySearches)
      .where(inArray(discoverySearches.projectId, [searched.id, everything.id]));
    expect(searches.map((s) => [s.trigger, s.status]).sort()).toEqual([
      ['backfill', 'completed'],
      ['backfill', 'completed'],
    ]);
    expect(searches.find((s) => s.projectId === everything.id)?.postsFound).toBe(100);

    // Once only; the subreddits now flow through the cycle's streams.
    t.sim!.inspect.reset();
    clock.t += 61_000;
    const next = await runDiscoveryCycle(t.ctx);
    expect(next.backfills).toBe(0);
    const paths = t.sim!.inspect.requestLog().map((e) => e.path);
    expect(paths.filter((p) => p.endsWith('/search'))).toEqual([]);
    expect(paths.some((p) => p.includes('sysadmin') && p.endsWith('/new'))).toBe(true);
  });

  it('does not stall on a cursor whose item left the listing, and checks that only now and then', async () => {
    await runDiscoveryCycle(t.ctx);
    const lose = async (updatedAgoMs: number) => {
      await t.ctx.db
        .update(discoveryCursors)
        .set({
          beforeName: 't3_zzzzzzz',
          newestCreatedAt: new Date(clock.t - 40 * 60_000),
          updatedAt: new Date(clock.t - updatedAgoMs),
        })
        .where(eq(discoveryCursors.kind, 't3'));
    };
    // Checked recently: an empty page costs one request, as for a quiet stream.
    await lose(60_000);
    t.sim!.inspect.reset();
    let report = await runDiscoveryCycle(t.ctx);
    expect(t.sim!.inspect.requestLog({ endpoint: 'GET /r/{sub}/new' })).toHaveLength(1);
    expect(report.itemsRead).toBe(0);

    // Not checked for as long: read from the top down to the cursor's time, then forward again.
    await lose(40 * 60_000);
    t.sim!.inspect.reset();
    report = await runDiscoveryCycle(t.ctx);
    expect(report.itemsRead).toBeGreaterThan(0);
    expect(report.missedItems).toBe(0);
    const [cursor] = (await cursorsOf(t.ctx.db)).filter((c) => c.kind === 't3');
    expect(cursor!.beforeName).not.toBe('t3_zzzzzzz');
    clock.t += 20 * 60_000;
    t.sim!.inspect.reset();
    report = await runDiscoveryCycle(t.ctx);
    const news = t.sim!.inspect.requestLog({ endpoint: 'GET /r/{sub}/new' });
    expect(news).toHaveLength(1);
    expect(report.itemsRead).toBeGreaterThan(0);
  });
});

describe('reads spread over the search credentials', () => {
  const clock = virtualClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createDiscoveryApp({ reddit: { clock } });
  });
  afterAll(() => t?.close());

  it('takes turns between credentials, and skips one whose budget is spent', async () => {
    const one = await addSearchCredential(t.ctx);
    const two = await addSearchCredential(t.ctx);
    await buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['customers'], subreddits: SUBS });
    await runDiscoveryCycle(t.ctx);
    t.sim!.inspect.reset();
    clock.t += 6 * HOUR;
    expect((await runDiscoveryCycle(t.ctx)).complete).toBe(true);
    const byClient = (id: string) =>
      t.sim!.inspect.requestLog({ clientId: id }).filter((e) => e.surface === 'oauth').length;
    expect(byClient(one.client_id)).toBeGreaterThan(3);
    expect(Math.abs(byClient(one.client_id) - byClient(two.client_id))).toBeLessThanOrEqual(1);

    t.sim!.inspect.reset();
    clock.t += HOUR;
    await new RequestBudget(t.ctx.db, t.ctx.clock).blockUntil(one.client_id, clock.t + 10 * 60_000);
    const report = await runDiscoveryCycle(t.ctx);
    expect(report).toMatchObject({ complete: true, retryAtMs: null });
    expect(byClient(one.client_id)).toBe(0);
    expect(byClient(two.client_id)).toBe(report.requests);

    // Both spent: the cycle stops and says when the first frees.
    clock.t += 60_000;
    await new RequestBudget(t.ctx.db, t.ctx.clock).blockUntil(two.client_id, clock.t + 5 * 60_000);
    const spent = await runDiscoveryCycle(t.ctx);
    expect(spent).toMatchObject({ complete: false, retryAtMs: clock.t + 5 * 60_000, requests: 0 });
  });
});

describe('a read Reddit does not answer', () => {
  const clock = virtualClock();
  let t: TestApp;
  // r/saas and 99 names the simulator does not know fill group 0; r/startups is group 1 on its own.
  const GROUP_0 = ['SaaS', ...Array.from({ length: 99 }, (_, i) => `sb${String(i).padStart(3, '0')}`)];
  beforeAll(async () => {
    t = await createDiscoveryApp({ reddit: { clock } });
    await addSearchCredential(t.ctx);
  });
  afterAll(() => t?.close());
  /** The listings read, in order (group 0's by its stream), each once however many pages it took. */
  const listings = () => {
    const read = t
      .sim!.inspect.requestLog()
      .filter((e) => e.path.endsWith('/new') || e.path.endsWith('/comments'))
      .map((e) => {
        const stream = e.path.startsWith('/r/saas+') ? `group 0 ${e.path.split('/').at(-1)}` : e.path;
        return `${stream} ${e.status}`;
      });
    return [...new Set(read)];
  };

  it("is skipped while the other subreddits are read in the same cycle, and read again at the client's backoff", async () => {
    const project = await buildDiscoveryProject(t.ctx.db, t.config, {
      keywords: ['customers', 'users'],
      subreddits: [...GROUP_0, 'startups'],
    });
    expect((await runDiscoveryCycle(t.ctx)).groups).toBe(2);
    const start = await cursorsOf(t.ctx.db);
    clock.t += 6 * HOUR;
    t.sim!.inspect.reset();
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/saas+*/new', count: 1 });

    const report = await runDiscoveryCycle(t.ctx);
    expect(report).toMatchObject({
      complete: false,
      retryAtMs: null,
      unanswered: { streams: [{ groupNo: 0, kind: 't3' }], backfills: [] },
    });
    expect(report.againAtMs).toBeGreaterThan(clock.t);
    // The client's first backoff: at most 500 ms.
    expect(report.againAtMs).toBeLessThanOrEqual(clock.t + 500);
    expect(listings()).toEqual([
      'group 0 new 503',
      'group 0 comments 200',
      '/r/startups/new 200',
      '/r/startups/comments 200',
    ]);
    const found = await leadsOf(t.ctx.db, project.id);
    expect(found.some((l) => l.subreddit === 'startups' && l.kind === 'post')).toBe(true);
    expect(found.some((l) => l.subreddit === 'SaaS' && l.kind === 'post')).toBe(false);
    const cursor = async (groupNo: number, kind: string) =>
      (await cursorsOf(t.ctx.db)).find((c) => c.groupNo === groupNo && c.kind === kind)!.beforeName;
    const before = (groupNo: number, kind: string) =>
      start.find((c) => c.groupNo === groupNo && c.kind === kind)!.beforeName;
    expect(await cursor(0, 't3')).toBe(before(0, 't3'));
    expect(await cursor(1, 't3')).not.toBe(before(1, 't3'));

    // The retry reads that stream only, from where it stopped.
    clock.t = report.againAtMs!;
    t.sim!.inspect.reset();
    const again = await runDiscoveryCycle(t.ctx, {
      retry: { streams: report.unanswered.streams, attempt: 2 },
    });
    expect(again).toMatchObject({
      complete: true,
      againAtMs: null,
      unanswered: { streams: [], backfills: [] },
    });
    expect(listings()).toEqual(['group 0 new 200']);
    expect(await cursor(0, 't3')).not.toBe(before(0, 't3'));
    const after = await leadsOf(t.ctx.db, project.id);
    expect(after.some((l) => l.subreddit === 'SaaS' && l.kind === 'post')).toBe(true);
  });

  it('leaves a backfill Reddit does not answer pending, and backfills the other subreddits', async () => {
    const project = await buildDiscoveryProject(t.ctx.db, t.config, {
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
      backfilled: false,
    });
    clock.t += 61_000;
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/saas/search', count: 1 });
    const report = await runDiscoveryCycle(t.ctx);
    expect(report).toMatchObject({
      backfills: 1,
      unanswered: { streams: [], backfills: ['SaaS'] },
      complete: false,
    });
    expect(report.againAtMs).toBeGreaterThan(clock.t);
    const backfilled = async () =>
      (await t.ctx.db.select().from(subreddits).where(eq(subreddits.projectId, project.id)))
        .filter((r) => r.backfilledAt)
        .map((r) => r.name)
        .sort();
    expect(await backfilled()).toEqual(['startups']);

    clock.t = report.againAtMs!;
    const again = await runDiscoveryCycle(t.ctx, { retry: { streams: [], attempt: 2 } });
    expect(again).toMatchObject({ backfills: 1, complete: true, againAtMs: null });
    expect(await backfilled()).toEqual(['SaaS', 'startups']);
  });

  it('at the last attempt is left for the next interval', async () => {
    clock.t += 61_000;
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/r/startups/comments', count: 1 });
    const report = await runDiscoveryCycle(t.ctx, {
      retry: { streams: [{ groupNo: 1, kind: 't1' }], attempt: 4 },
    });
    expect(report).toMatchObject({
      complete: false,
      againAtMs: null,
      unanswered: { streams: [{ groupNo: 1, kind: 't1' }] },
    });
  });
});

describe('an author Reddit does not answer', () => {
  const clock = virtualClock();
  let t: TestApp;
  let projectId: string;
  beforeAll(async () => {
    t = await createDiscoveryApp({ reddit: { clock } });
    await addSearchCredential(t.ctx);
    // A keyword no post says: the only leads are the tests' own.
    const keyword = redditName('kw');
    projectId = (await buildDiscoveryProject(t.ctx.db, t.config, { keywords: [keyword], subreddits: SUBS }))
      .id;
    await runDiscoveryCycle(t.ctx);
  });
  afterAll(() => t?.close());

  /** A lead by each author, the first found last: the cycle reads them in this order. */
  const leadsBy = async (names: string[]) => {
    for (const [i, author] of names.entries()) {
      await buildLead(t.ctx.db, projectId, {
        author,
        itemCreatedAt: new Date(clock.t - HOUR),
        foundAt: new Date(clock.t - (i + 1) * 60_000),
      });
    }
  };
  const cycle = async () => {
    clock.t += 61_000;
    t.sim!.inspect.reset();
    return runDiscoveryCycle(t.ctx);
  };
  /** The profiles the simulator was asked for since the cycle began, in order, with its answer. */
  const lookups = () =>
    t
      .sim!.inspect.requestLog({ endpoint: 'GET /user/{name}/about' })
      .map((e) => `${e.path.split('/')[2]} ${e.status}`);
  const cached = async (names: string[]) =>
    (
      await t.ctx.db
        .select({ name: redditAuthors.name })
        .from(redditAuthors)
        .where(
          inArray(
            redditAuthors.nameLower,
            names.map((n) => n.toLowerCase()),
          ),
        )
    )
      .map((r) => r.name)
      .sort();

  it('is skipped while the other authors are read in the same cycle, and read by a later cycle once Reddit answers', async () => {
    const [failing, ...others] = Array.from({ length: 5 }, () => redditName('a')) as [string, ...string[]];
    await leadsBy([failing, ...others]);
    const fault = t.sim!.faults.add({ kind: 'status', status: 503, path: `/user/${failing}/about` });

    const report = await cycle();
    expect(report).toMatchObject({
      authorsEnriched: 4,
      authorsUnanswered: 1,
      complete: false,
      retryAtMs: null,
      againAtMs: null,
    });
    // Names the simulator does not know: answered 404, cached as missing.
    expect(lookups()).toEqual([`${failing} 503`, ...others.map((n) => `${n} 404`)]);
    expect(await cached([failing, ...others])).toEqual([...others].sort());

    // Not cached: the next cycle asks again.
    expect(await cycle()).toMatchObject({ authorsEnriched: 0, authorsUnanswered: 1 });
    expect(lookups()).toEqual([`${failing} 503`]);

    t.sim!.faults.remove(fault);
    expect(await cycle()).toMatchObject({ authorsEnriched: 1, authorsUnanswered: 0, complete: true });
    expect(lookups()).toEqual([`${failing} 404`]);
    expect(await cached([failing, ...others])).toEqual([failing, ...others].sort());
    const noted = await t.ctx.db
      .select()
      .from(redditAuthorsUnanswered)
      .where(eq(redditAuthorsUnanswered.nameLower, failing.toLowerCase()));
    expect(noted).toEqual([]);
  });

  it('is read after the others, so profiles Reddit keeps failing do not hold them back cycle after cycle', async () => {
    const failing = Array.from({ length: 3 }, () => redditName('f'));
    const others = Array.from({ length: 2 }, () => redditName('a'));
    await leadsBy([...failing, ...others]);
    const faults = failing.map((n) =>
      t.sim!.faults.add({ kind: 'status', status: 503, path: `/user/${n}/about` }),
    );

    // Three in a row look like Reddit down: the look-ups stop there.
    expect(await cycle()).toMatchObject({ authorsEnriched: 0, authorsUnanswered: 3 });
    expect(lookups()).toEqual(failing.map((n) => `${n} 503`));

    // Next time they come last.
    expect(await cycle()).toMatchObject({ authorsEnriched: 2, authorsUnanswered: 3 });
    expect(lookups()).toEqual([...others.map((n) => `${n} 404`), ...failing.map((n) => `${n} 503`)]);

    for (const id of faults) t.sim!.faults.remove(id);
    expect(await cycle()).toMatchObject({ authorsEnriched: 3, authorsUnanswered: 0 });
    expect(await cached([...failing, ...others])).toEqual([...failing, ...others].sort());
  });

  it('stops after three look-ups in a row Reddit does not answer, as when it is down', async () => {
    const names = Array.from({ length: 10 }, () => redditName('d'));
    await leadsBy(names);
    const down = t.sim!.faults.add({ kind: 'status', status: 503, path: '/user/*/about' });
    expect(await cycle()).toMatchObject({ authorsEnriched: 0, authorsUnanswered: 3, complete: false });
    expect(lookups()).toEqual(names.slice(0, 3).map((n) => `${n} 503`));
    t.sim!.faults.remove(down);

    // A connection that breaks every time: each author is asked twice (once more at once), three authors.
    const broken = t.sim!.faults.add({ kind: 'reset', path: '/user/*/about' });
    t.sim!.inspect.reset();
    const reader = await RedditReader.forSearch(t.ctx);
    expect(await enrichAuthors(t.ctx, reader, names.slice(3))).toEqual({
      enriched: 0,
      unanswered: 3,
      interrupted: true,
    });
    expect(lookups().map((l) => l.split(' ')[0])).toEqual(names.slice(3, 6).flatMap((n) => [n, n]));
    t.sim!.faults.remove(broken);

    // Reddit answers again: every one of them is read.
    expect(await cycle()).toMatchObject({ authorsEnriched: 10, authorsUnanswered: 0 });
    expect(await cached(names)).toEqual([...names].sort());
  });

  it('stops at once when the budget is spent, and reads the rest in their order once it frees', async () => {
    const names = Array.from({ length: 4 }, () => redditName('b'));
    await leadsBy(names);
    t.sim!.faults.add({ kind: 'rate-limit', retryAfter: 600, path: `/user/${names[1]}/about`, count: 1 });
    expect(await cycle()).toMatchObject({
      authorsEnriched: 1,
      authorsUnanswered: 0,
      complete: false,
      retryAtMs: null,
    });
    expect(lookups()).toEqual([`${names[0]} 404`, `${names[1]} 429`]);

    clock.t += 600_000;
    expect(await cycle()).toMatchObject({ authorsEnriched: 3, authorsUnanswered: 0, complete: true });
    expect(lookups()).toEqual(names.slice(1).map((n) => `${n} 404`));
  });
});

describe('a burst deeper than Reddit lists', () => {
  const clock = virtualClock();
  let t: TestApp;
  const BUSY = ['Entrepreneur', 'smallbusiness', 'startups'];
  beforeAll(async () => {
    t = await createDiscoveryApp({ reddit: { clock } });
    await addSearchCredential(t.ctx);
  });
  afterAll(() => t?.close());

  it('reads the 1000 newest items, counts the rest as missed, and goes on from the top', async () => {
    await buildDiscoveryProject(t.ctx.db, t.config, { keywords: ['customers'], subreddits: BUSY });
    await runDiscoveryCycle(t.ctx);
    // About 4440 comments a day: eight hours is some 1480, past the 1000 Reddit lists.
    clock.t += 8 * HOUR;
    const report = await runDiscoveryCycle(t.ctx);
    const expectedComments = (8 / 24) * (1440 + 1500 + 1500);
    const expectedPosts = (8 / 24) * (360 + 480 + 420);
    expect(report.complete).toBe(true);
    expect(report.missedItems).toBeGreaterThan((expectedComments - 1000) * 0.8);
    expect(report.missedItems).toBeLessThan((expectedComments - 1000) * 1.2);
    expect(report.itemsRead).toBeGreaterThan(1000 + expectedPosts * 0.9);
    expect(report.itemsRead).toBeLessThan(1000 + expectedPosts * 1.1);
    const cursors = await cursorsOf(t.ctx.db);
    expect(cursors.find((c) => c.kind === 't1')!.missedItems).toBe(report.missedItems);
    expect(cursors.find((c) => c.kind === 't3')!.missedItems).toBe(0);

    clock.t += 61_000;
    const next = await runDiscoveryCycle(t.ctx);
    expect(next).toMatchObject({ missedItems: 0, gaps: 0, complete: true });
    expect(next.itemsRead).toBeGreaterThan(0);
    expect(next.itemsRead).toBeLessThan(20);
  });

  it('keeps groups of at most 100 subreddits, adds to the lowest with room, and drops emptied groups', async () => {
    const now = new Date(clock.t);
    const names = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `sub${String(from + i).padStart(4, '0')}`);
    let state = await syncStreams(t.ctx.db, names(0, 250), now);
    expect([...state.groups].map(([g, subs]) => [g, subs.length])).toEqual([
      [0, 100],
      [1, 100],
      [2, 50],
    ]);
    const kept = state.groups.get(1)!;
    // Ten leave group 0 and all of group 2; five new ones fill group 0 first.
    const wanted = [...names(10, 90), ...kept, ...names(1000, 5)];
    await t.ctx.db
      .insert(discoveryCursors)
      .values({ groupNo: 2, kind: 't3', beforeName: 't3_x', updatedAt: now });
    state = await syncStreams(t.ctx.db, wanted, now);
    expect(state.groups.get(0)).toHaveLength(95);
    expect(state.groups.get(0)).toEqual(expect.arrayContaining(names(1000, 5)));
    expect(state.groups.get(1)).toEqual(kept);
    expect(state.groups.has(2)).toBe(false);
    expect([...state.shrunk]).toEqual([0]);
    expect((await cursorsOf(t.ctx.db)).filter((c) => c.groupNo === 2)).toEqual([]);
  });
});

async function allProjectIds(t: TestApp): Promise<string[]> {
  return (await t.ctx.db.select({ id: projects.id }).from(projects)).map((p) => p.id);
}

/** Puts the cursors back where they were, as if the reads since had never been committed. */
async function rewind(t: TestApp, cursors: DiscoveryCursorRow[]): Promise<void> {
  for (const c of cursors) {
    await t.ctx.db
      .update(discoveryCursors)
      .set({ beforeName: c.beforeName, newestCreatedAt: c.newestCreatedAt, updatedAt: c.updatedAt })
      .where(and(eq(discoveryCursors.groupNo, c.groupNo), eq(discoveryCursors.kind, c.kind)));
  }
}
