import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redditItems } from '../discovery/discovery.table';
import { buildProject } from '../../test/factories';
import { buildDm } from '../dms/dms.test-support';
import { createTestApp, type TestApp } from '../../test/test-app';
import { insertLeads } from './record-leads.repository';
import { LEADS_CSV_COLUMNS } from './leads.csv';
import { leads, profiles } from './leads.table';
import { EXPORT_PAGE_SIZE } from './leads.service';
import { buildAuthor, buildItem, buildLead, buildProfile, redditName } from './leads.test-support';

let t: TestApp;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Project = Awaited<ReturnType<typeof buildProject>>;
const newProject = () => buildProject(t.ctx.db, t.config);
const at = (iso: string) => new Date(iso);

async function get(project: Project, url: string) {
  const res = await t.app.inject({ url, headers: project.owner.auth });
  return res;
}

async function del(project: Project, url: string) {
  return t.app.inject({ method: 'DELETE', url, headers: project.owner.auth });
}

const postsUrl = (p: Project, q = '') => `/api/v1/posts?project_id=${p.id}${q ? `&${q}` : ''}`;
const commentsUrl = (p: Project, q = '') => `/api/v1/projects/${p.id}/comments${q ? `?${q}` : ''}`;
const profilesUrl = (p: Project, q = '') => `/api/v1/projects/${p.id}/profiles${q ? `?${q}` : ''}`;

describe('GET /posts', () => {
  it("lists the project's live posts newest first, a page at a time, with the item and its author", async () => {
    const project = await newProject();
    const other = await newProject();
    const known = redditName('known');
    const unread = redditName('unread');
    const gone = redditName('gone');
    await buildAuthor(t.ctx.db, {
      name: known,
      accountCreatedAt: new Date(Date.now() - 10.5 * DAY_MS),
      commentKarma: 1234,
      bio: 'Founder',
    });
    await buildAuthor(t.ctx.db, { name: gone, missing: true });
    const oldest = await buildLead(t.ctx.db, project.id, {
      author: gone,
      itemCreatedAt: at('2030-01-01T10:00:00Z'),
    });
    const middle = await buildLead(t.ctx.db, project.id, {
      author: unread,
      itemCreatedAt: at('2030-01-02T10:00:00Z'),
    });
    const newest = await buildLead(t.ctx.db, project.id, {
      author: known,
      itemCreatedAt: at('2030-01-03T10:00:00Z'),
      title: 'Which CRM do you use?',
      body: 'I need a CRM for my agency',
      matchedKeywords: ['crm', 'agency'],
      matches: [
        { keyword: 'crm', field: 'title', start: 6, end: 9 },
        { keyword: 'agency', field: 'body', start: 20, end: 26 },
      ],
      intentScore: 80,
      intentReasons: ['asks for a tool'],
    });
    await buildLead(t.ctx.db, project.id, { kind: 'comment', itemCreatedAt: at('2030-01-04T10:00:00Z') });
    await buildLead(t.ctx.db, project.id, {
      itemCreatedAt: at('2030-01-05T10:00:00Z'),
      dismissedAt: at('2030-01-06T00:00:00Z'),
    });
    await buildLead(t.ctx.db, other.id, { itemCreatedAt: at('2030-01-05T10:00:00Z') });

    const first = await get(project, postsUrl(project, 'limit=2'));
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.items.map((p: { id: string }) => p.id)).toEqual([newest.id, middle.id]);
    expect(page.items[0]).toEqual({
      id: newest.id,
      reddit_id: newest.item.name,
      author: known,
      subreddit: 'saas',
      score: 3,
      permalink: newest.item.permalink,
      created_utc: '2030-01-03T10:00:00.000Z',
      found_at: '2030-01-03T10:01:00.000Z',
      account_age_days: 10,
      comment_karma: 1234,
      account_unavailable: false,
      too_old_to_message: false,
      matched_keywords: ['crm', 'agency'],
      matches: [
        { keyword: 'crm', field: 'title', start: 6, end: 9 },
        { keyword: 'agency', field: 'body', start: 20, end: 26 },
      ],
      intent_score: 80,
      intent_reasons: ['asks for a tool'],
      has_dm: false,
      title: 'Which CRM do you use?',
      content: 'I need a CRM for my agency',
    });
    // Not read yet, or no profile to read: unknown rather than zero.
    expect(page.items[1]).toMatchObject({
      account_age_days: null,
      comment_karma: null,
      account_unavailable: false,
    });

    const second = (await get(project, postsUrl(project, 'limit=2&offset=2'))).json();
    expect(second).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(second.items.map((p: { id: string }) => p.id)).toEqual([oldest.id]);
    expect(second.items[0]).toMatchObject({
      account_age_days: null,
      comment_karma: null,
      account_unavailable: true,
    });
  });

  it('says which posts and comments are too old to message: older than DM_EXPIRY_DAYS (14)', async () => {
    const project = await newProject();
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
    const recent = await buildLead(t.ctx.db, project.id, { itemCreatedAt: daysAgo(13) });
    const old = await buildLead(t.ctx.db, project.id, { itemCreatedAt: daysAgo(15) });
    const recentComment = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      itemCreatedAt: daysAgo(13),
    });
    const oldComment = await buildLead(t.ctx.db, project.id, { kind: 'comment', itemCreatedAt: daysAgo(15) });

    const tooOld = (list: { items: { id: string; too_old_to_message: boolean }[] }) =>
      new Map(list.items.map((i) => [i.id, i.too_old_to_message]));
    const posts = tooOld((await get(project, postsUrl(project))).json());
    expect(posts).toEqual(
      new Map([
        [recent.id, false],
        [old.id, true],
      ]),
    );
    const comments = tooOld((await get(project, commentsUrl(project))).json());
    expect(comments).toEqual(
      new Map([
        [recentComment.id, false],
        [oldComment.id, true],
      ]),
    );
  });

  it('says whose author already has a DM in the project, in any state but sent (those leave the lists)', async () => {
    const project = await newProject();
    const other = await newProject();
    const written = redditName('written');
    const failed = redditName('failed');
    const elsewhere = redditName('elsewhere');
    const post = await buildLead(t.ctx.db, project.id, { author: written });
    const comment = await buildLead(t.ctx.db, project.id, { author: written.toUpperCase(), kind: 'comment' });
    const afterFailure = await buildLead(t.ctx.db, project.id, { author: failed });
    const fresh = await buildLead(t.ctx.db, project.id, { author: elsewhere });
    await buildProfile(t.ctx.db, project.id, { redditUsername: written });
    await buildDm(t.ctx.db, project.id, { leadId: post.id, recipientUsername: written });
    await buildDm(t.ctx.db, project.id, {
      leadId: afterFailure.id,
      recipientUsername: failed,
      state: 'failed',
    });
    // A DM of another project (of another customer) says nothing about this one.
    await buildDm(t.ctx.db, other.id, { leadId: null, recipientUsername: elsewhere });

    const flags = (items: Array<{ id: string; has_dm: boolean }>) =>
      Object.fromEntries(items.map((i) => [i.id, i.has_dm]));
    expect(flags((await get(project, postsUrl(project))).json().items)).toEqual({
      [post.id]: true,
      [afterFailure.id]: true,
      [fresh.id]: false,
    });
    expect(flags((await get(project, commentsUrl(project))).json().items)).toEqual({ [comment.id]: true });
    const [profile] = (await get(project, profilesUrl(project))).json().items;
    expect(profile).toMatchObject({ reddit_username: written, has_dm: true });
  });

  it('keeps only posts scoring at least min_score', async () => {
    const project = await newProject();
    for (const intentScore of [20, 60, 90]) await buildLead(t.ctx.db, project.id, { intentScore });
    const page = (await get(project, postsUrl(project, 'min_score=60'))).json();
    expect(page.total).toBe(2);
    expect(page.items.map((p: { intent_score: number }) => p.intent_score).sort()).toEqual([60, 90]);
    expect((await get(project, postsUrl(project))).json().total).toBe(3);
  });

  it('lists the highest intent first with sort=intent, the newer first among equal scores, page after page', async () => {
    const project = await newProject();
    const lead = (intentScore: number, iso: string) =>
      buildLead(t.ctx.db, project.id, { intentScore, itemCreatedAt: at(iso) });
    const s67 = await lead(67, '2030-01-04T10:00:00Z');
    const s32 = await lead(32, '2030-01-02T10:00:00Z');
    const s72Newer = await lead(72, '2030-01-05T10:00:00Z');
    const s42 = await lead(42, '2030-01-06T10:00:00Z');
    const s100 = await lead(100, '2030-01-01T10:00:00Z');
    // Equal score and time: the id decides, the same way on every page.
    const twins = [await lead(72, '2030-01-03T10:00:00Z'), await lead(72, '2030-01-03T10:00:00Z')];
    const [twinA, twinB] = twins
      .map((l) => l.id)
      .sort()
      .reverse();
    await buildLead(t.ctx.db, project.id, { kind: 'comment', intentScore: 99 });

    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((p) => p.id);
    const pages = [];
    for (let offset = 0; offset < 8; offset += 2) {
      const res = await get(project, postsUrl(project, `sort=intent&limit=2&offset=${offset}`));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ total: 7, limit: 2, offset });
      pages.push(...ids(res.json()));
    }
    expect(pages).toEqual([s100.id, s72Newer.id, twinA, twinB, s67.id, s42.id, s32.id]);

    // Newest first stays the default, and sort=newest says so.
    const newest = [s42.id, s72Newer.id, s67.id, twinA, twinB, s32.id, s100.id];
    expect(ids((await get(project, postsUrl(project))).json())).toEqual(newest);
    expect(ids((await get(project, postsUrl(project, 'sort=newest'))).json())).toEqual(newest);
    // With a minimum score, the same order over what is left.
    const strong = (await get(project, postsUrl(project, 'sort=intent&min_score=70'))).json();
    expect(strong.total).toBe(4);
    expect(ids(strong)).toEqual([s100.id, s72Newer.id, twinA, twinB]);
  });

  it('refuses a sort it does not know with a 400 naming the field', async () => {
    const project = await newProject();
    for (const q of ['sort=score', 'sort=', 'sort=INTENT', 'sort=intent&sort=newest']) {
      for (const url of [postsUrl(project, q), commentsUrl(project, q), profilesUrl(project, q)]) {
        const res = await get(project, url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({
          detail: 'sort must be newest or intent',
          code: 'validation_error',
        });
      }
    }
  });

  it('refuses a bad page or score with a 400 naming the field', async () => {
    const project = await newProject();
    for (const q of [
      'min_score=101',
      'min_score=-1',
      'min_score=high',
      'limit=0',
      'limit=501',
      'offset=-1',
    ]) {
      const res = await get(project, postsUrl(project, q));
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
    const noProject = await get(project, '/api/v1/posts?project_id=not-a-uuid');
    expect(noProject.statusCode).toBe(404);
    expect(noProject.json()).toEqual({ detail: 'Project not found', code: 'not_found' });
  });
});

describe('GET /projects/:id/comments', () => {
  it('lists live comments newest first with the title of their post', async () => {
    const project = await newProject();
    const older = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      itemCreatedAt: at('2030-02-01T00:00:00Z'),
    });
    const newer = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      itemCreatedAt: at('2030-02-02T00:00:00Z'),
      title: 'Best tools for agencies?',
      body: 'We switched to a CRM last year',
    });
    await buildLead(t.ctx.db, project.id, { kind: 'comment', dismissedAt: at('2030-02-03T00:00:00Z') });
    await buildLead(t.ctx.db, project.id, { kind: 'post' });

    const page = (await get(project, commentsUrl(project))).json();
    expect(page.total).toBe(2);
    expect(page.items.map((c: { id: string }) => c.id)).toEqual([newer.id, older.id]);
    expect(page.items[0]).toMatchObject({
      reddit_id: newer.item.name,
      content: 'We switched to a CRM last year',
      post_title: 'Best tools for agencies?',
    });
    expect(page.items[0]).not.toHaveProperty('title');
    expect((await get(project, commentsUrl(project, 'min_score=51'))).json().total).toBe(0);
  });
  it('lists comments highest intent first with sort=intent', async () => {
    const project = await newProject();
    const comment = (intentScore: number, iso: string) =>
      buildLead(t.ctx.db, project.id, { kind: 'comment', intentScore, itemCreatedAt: at(iso) });
    const low = await comment(20, '2030-02-03T00:00:00Z');
    const highOlder = await comment(90, '2030-02-01T00:00:00Z');
    const highNewer = await comment(90, '2030-02-02T00:00:00Z');
    const ids = (q: string) =>
      get(project, commentsUrl(project, q)).then((r) => r.json().items.map((c: { id: string }) => c.id));
    expect(await ids('sort=intent')).toEqual([highNewer.id, highOlder.id, low.id]);
    expect(await ids('sort=intent&limit=1&offset=1')).toEqual([highOlder.id]);
    expect(await ids('')).toEqual([low.id, highNewer.id, highOlder.id]);
  });
});

describe('GET /projects/:id/profiles', () => {
  it('lists live profiles by latest match, with their bio and live lead count', async () => {
    const project = await newProject();
    const other = await newProject();
    const alice = redditName('alice');
    const bob = redditName('bob');
    await buildAuthor(t.ctx.db, {
      name: alice,
      accountCreatedAt: new Date(Date.now() - 400.5 * DAY_MS),
      commentKarma: 56,
      bio: 'I run a small agency',
    });
    await buildAuthor(t.ctx.db, { name: bob, missing: true });
    const aliceProfile = await buildProfile(t.ctx.db, project.id, {
      redditUsername: alice,
      lastFoundAt: at('2030-03-02T00:00:00Z'),
      intentScore: 70,
    });
    const bobProfile = await buildProfile(t.ctx.db, project.id, {
      redditUsername: bob,
      lastFoundAt: at('2030-03-03T00:00:00Z'),
      intentScore: 30,
    });
    await buildProfile(t.ctx.db, project.id, { dismissedAt: at('2030-03-04T00:00:00Z') });
    await buildLead(t.ctx.db, project.id, { author: alice });
    await buildLead(t.ctx.db, project.id, { author: alice, kind: 'comment' });
    await buildLead(t.ctx.db, project.id, { author: alice, dismissedAt: at('2030-03-05T00:00:00Z') });
    await buildLead(t.ctx.db, other.id, { author: alice });

    const page = (await get(project, profilesUrl(project))).json();
    expect(page.total).toBe(2);
    expect(page.items.map((p: { id: string }) => p.id)).toEqual([bobProfile.id, aliceProfile.id]);
    expect(page.items[1]).toEqual({
      id: aliceProfile.id,
      reddit_username: alice,
      bio_content: 'I run a small agency',
      account_age_days: 400,
      comment_karma: 56,
      account_unavailable: false,
      matched_keywords: ['crm'],
      intent_score: 70,
      intent_reasons: ['asks for a recommendation'],
      lead_count: 2,
      has_dm: false,
      found_at: '2030-03-02T00:00:00.000Z',
    });
    expect(page.items[0]).toMatchObject({
      bio_content: '',
      account_age_days: null,
      comment_karma: null,
      account_unavailable: true,
      lead_count: 0,
    });

    const strong = (await get(project, profilesUrl(project, 'min_score=50&limit=1'))).json();
    expect(strong).toMatchObject({ total: 1, limit: 1 });
    expect(strong.items[0].id).toBe(aliceProfile.id);
  });
  it("lists profiles by their best lead's intent with sort=intent, the latest match first among equals", async () => {
    const project = await newProject();
    const profile = (intentScore: number, iso: string) =>
      buildProfile(t.ctx.db, project.id, { intentScore, lastFoundAt: at(iso) });
    const high = await profile(80, '2030-03-01T00:00:00Z');
    const lowNewest = await profile(10, '2030-03-05T00:00:00Z');
    const midOlder = await profile(60, '2030-03-02T00:00:00Z');
    const midNewer = await profile(60, '2030-03-03T00:00:00Z');
    const ids = (q: string) =>
      get(project, profilesUrl(project, q)).then((r) => r.json().items.map((p: { id: string }) => p.id));
    expect(await ids('sort=intent')).toEqual([high.id, midNewer.id, midOlder.id, lowNewest.id]);
    expect(await ids('sort=intent&limit=2&offset=2')).toEqual([midOlder.id, lowNewest.id]);
    expect(await ids('')).toEqual([lowNewest.id, midNewer.id, midOlder.id, high.id]);
  });
});

describe('deleting results', () => {
  it('removes a post for good: hidden, kept as a tombstone, not brought back by the next search', async () => {
    const project = await newProject();
    const post = await buildLead(t.ctx.db, project.id);
    const res = await del(project, `/api/v1/posts/${post.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await get(project, postsUrl(project))).json().total).toBe(0);

    const [row] = await t.ctx.db.select().from(leads).where(eq(leads.id, post.id));
    expect(row!.dismissedAt).toBeInstanceOf(Date);
    const again = await insertLeads(t.ctx.db, [
      {
        projectId: project.id,
        itemName: post.itemName,
        kind: 'post',
        author: post.author,
        subreddit: post.subreddit,
        matchedKeywords: ['crm'],
        matches: [],
        intentScore: 90,
        intentReasons: [],
        itemCreatedAt: post.itemCreatedAt,
        foundAt: new Date(),
      },
    ]);
    expect(again).toEqual([]);
    expect((await get(project, postsUrl(project))).json().total).toBe(0);

    const twice = await del(project, `/api/v1/posts/${post.id}`);
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toEqual({ detail: 'Post not found', code: 'not_found' });
  });

  it('deletes a comment and a profile of the project', async () => {
    const project = await newProject();
    const comment = await buildLead(t.ctx.db, project.id, { kind: 'comment' });
    const profile = await buildProfile(t.ctx.db, project.id);
    expect((await del(project, `/api/v1/projects/${project.id}/comments/${comment.id}`)).statusCode).toBe(
      204,
    );
    expect((await del(project, `/api/v1/projects/${project.id}/profiles/${profile.id}`)).statusCode).toBe(
      204,
    );
    expect((await get(project, commentsUrl(project))).json().total).toBe(0);
    expect((await get(project, profilesUrl(project))).json().total).toBe(0);
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, profile.id));
    expect(row!.dismissedAt).toBeInstanceOf(Date);
    const again = await del(project, `/api/v1/projects/${project.id}/profiles/${profile.id}`);
    expect(again.json()).toEqual({ detail: 'Profile not found', code: 'not_found' });
  });

  it('answers 404 for an id of the wrong kind, of another project, or of nothing, and changes nothing', async () => {
    const project = await newProject();
    const other = await newProject();
    const post = await buildLead(t.ctx.db, project.id, { kind: 'post' });
    const comment = await buildLead(t.ctx.db, project.id, { kind: 'comment' });
    const foreign = await buildLead(t.ctx.db, other.id, { kind: 'comment' });
    const foreignProfile = await buildProfile(t.ctx.db, other.id);
    const cases: [string, string][] = [
      [`/api/v1/posts/${comment.id}`, 'Post not found'],
      [`/api/v1/posts/${randomUUID()}`, 'Post not found'],
      [`/api/v1/posts/not-a-uuid`, 'Post not found'],
      [`/api/v1/projects/${project.id}/comments/${post.id}`, 'Comment not found'],
      [`/api/v1/projects/${project.id}/comments/${foreign.id}`, 'Comment not found'],
      [`/api/v1/projects/${project.id}/profiles/${foreignProfile.id}`, 'Profile not found'],
      [`/api/v1/projects/${project.id}/profiles/${post.id}`, 'Profile not found'],
    ];
    for (const [url, detail] of cases) {
      const res = await del(project, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail, code: 'not_found' });
    }
    const rows = await t.ctx.db.select().from(leads).where(eq(leads.projectId, project.id));
    expect(rows.every((r) => r.dismissedAt === null)).toBe(true);
    const [foreignRow] = await t.ctx.db.select().from(leads).where(eq(leads.id, foreign.id));
    expect(foreignRow!.dismissedAt).toBeNull();
  });
});

describe('deleting all of a results list', () => {
  it('removes every post the list shows at the minimum score, on every page, and nothing else', async () => {
    const project = await newProject();
    const other = await newProject();
    for (const intentScore of [20, 60, 90]) await buildLead(t.ctx.db, project.id, { intentScore });
    await buildLead(t.ctx.db, project.id, { kind: 'comment', intentScore: 90 });
    await buildLead(t.ctx.db, other.id, { intentScore: 90 });

    const res = await del(project, postsUrl(project, 'min_score=60'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted_count: 2 });
    const left = (await get(project, postsUrl(project))).json();
    expect(left.items.map((p: { intent_score: number }) => p.intent_score)).toEqual([20]);
    expect((await get(project, commentsUrl(project))).json().total).toBe(1);
    expect((await get(other, postsUrl(other))).json().total).toBe(1);

    expect((await del(project, postsUrl(project))).json()).toEqual({ deleted_count: 1 });
    expect((await del(project, postsUrl(project))).json()).toEqual({ deleted_count: 0 });
    const rows = await t.ctx.db.select().from(leads).where(eq(leads.projectId, project.id));
    expect(rows.filter((r) => r.kind === 'post').every((r) => r.dismissedAt instanceof Date)).toBe(true);
  });

  it('removes every comment and every profile of the project', async () => {
    const project = await newProject();
    for (let i = 0; i < 3; i++) {
      await buildLead(t.ctx.db, project.id, { kind: 'comment' });
      await buildProfile(t.ctx.db, project.id);
    }
    await buildLead(t.ctx.db, project.id, { kind: 'post' });
    expect((await del(project, commentsUrl(project))).json()).toEqual({ deleted_count: 3 });
    expect((await del(project, profilesUrl(project))).json()).toEqual({ deleted_count: 3 });
    expect((await get(project, commentsUrl(project))).json().total).toBe(0);
    expect((await get(project, profilesUrl(project))).json().total).toBe(0);
    expect((await get(project, postsUrl(project))).json().total).toBe(1);
  });

  it('refuses a bad score with a 400 naming the field, and deletes nothing', async () => {
    const project = await newProject();
    await buildLead(t.ctx.db, project.id, { kind: 'comment' });
    for (const q of ['min_score=101', 'min_score=-1', 'min_score=high']) {
      const res = await del(project, commentsUrl(project, q));
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
    expect((await get(project, commentsUrl(project))).json().total).toBe(1);
  });
});

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
    i++;
  }
  expect(field, 'the last record ends with CRLF').toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('leads.csv on the simulated Reddit', () => {
  it("links each lead to the simulated Reddit's page of it, as View on Reddit does", async () => {
    const demo = await createTestApp({ reddit: true });
    try {
      const project = await buildProject(demo.ctx.db, demo.config);
      const post = await buildLead(demo.ctx.db, project.id);
      const res = await demo.app.inject({
        url: `/api/v1/projects/${project.id}/leads.csv`,
        headers: project.owner.auth,
      });
      const [header, row] = parseCsv(res.body);
      expect(row![header!.indexOf('url')]).toBe(`${demo.sim!.url}${post.item.permalink}`);
    } finally {
      await demo.close();
    }
  });
});

describe('GET /projects/:id/leads.csv', () => {
  it('exports every live lead with its score and reasons, quoted and safe to open in a spreadsheet', async () => {
    const project = await buildProject(t.ctx.db, t.config, { name: 'Acme CRM — EU' });
    const post = await buildLead(t.ctx.db, project.id, {
      itemCreatedAt: at('2030-04-02T00:00:00Z'),
      title: '=HYPERLINK("http://evil.example","click")',
      body: 'Line one, with a comma\r\nand "quotes"',
      matchedKeywords: ['crm', 'agency'],
      intentScore: 75,
      intentReasons: ['asks for a tool', 'complains about a problem'],
    });
    const older = await buildLead(t.ctx.db, project.id, {
      itemCreatedAt: at('2030-04-01T00:00:00Z'),
      title: '+1 for this',
      body: '@channel -2 votes',
    });
    const comment = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      itemCreatedAt: at('2030-04-03T00:00:00Z'),
      title: 'Thread title',
      body: '\tTabbed',
    });
    await buildLead(t.ctx.db, project.id, { dismissedAt: at('2030-04-04T00:00:00Z') });
    await buildLead(t.ctx.db, (await newProject()).id);

    const res = await get(project, `/api/v1/projects/${project.id}/leads.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="leads-acme-crm-eu-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([...LEADS_CSV_COLUMNS]);
    expect(rows.map((r) => r[1])).toEqual([post.itemName, older.itemName, comment.itemName]);
    const record = (r: string[]) => Object.fromEntries(header!.map((h, i) => [h, r[i]]));
    expect(record(rows[0]!)).toEqual({
      kind: 'post',
      reddit_id: post.itemName,
      url: `https://www.reddit.com${post.item.permalink}`,
      subreddit: 'saas',
      author: post.author,
      title: `'=HYPERLINK("http://evil.example","click")`,
      content: 'Line one, with a comma\r\nand "quotes"',
      matched_keywords: 'crm; agency',
      intent_score: '75',
      intent_reasons: 'asks for a tool; complains about a problem',
      created_utc: '2030-04-02T00:00:00.000Z',
      found_at: '2030-04-02T00:01:00.000Z',
    });
    expect(record(rows[1]!)).toMatchObject({ title: "'+1 for this", content: "'@channel -2 votes" });
    expect(record(rows[2]!)).toMatchObject({ kind: 'comment', title: 'Thread title', content: "'\tTabbed" });
    // No field a spreadsheet would evaluate.
    for (const row of rows) for (const field of row) expect(field).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('streams a large export page by page, every lead once, newest first', async () => {
    const project = await newProject();
    const total = EXPORT_PAGE_SIZE * 2 + 7;
    const items = Array.from({ length: total }, (_, i) => ({
      name: `t3_bulk${randomUUID().replace(/-/g, '').slice(0, 12)}${i}`,
      kind: 'post',
      subreddit: 'saas',
      author: 'bulk_author',
      title: `Post ${i}`,
      body: '',
      permalink: `/r/saas/comments/bulk${i}/`,
      score: 1,
      // Many share a second, so pages must break ties the same way every time.
      createdAt: new Date(Date.UTC(2030, 5, 1, 0, 0, Math.floor(i / 3))),
      fetchedAt: new Date(Date.UTC(2030, 5, 2)),
    }));
    await t.ctx.db.insert(redditItems).values(items);
    await t.ctx.db.insert(leads).values(
      items.map((item) => ({
        projectId: project.id,
        itemName: item.name,
        kind: 'post',
        author: item.author,
        subreddit: item.subreddit,
        matchedKeywords: ['crm'],
        matches: [],
        intentScore: 10,
        intentReasons: [],
        itemCreatedAt: item.createdAt,
        foundAt: item.fetchedAt,
      })),
    );
    const res = await get(project, `/api/v1/projects/${project.id}/leads.csv`);
    expect(res.statusCode).toBe(200);
    const [, ...rows] = parseCsv(res.body);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r[1])).size).toBe(total);
    const created = rows.map((r) => r[10]!);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('answers an empty project with the header alone', async () => {
    const project = await newProject();
    const res = await get(project, `/api/v1/projects/${project.id}/leads.csv`);
    expect(res.statusCode).toBe(200);
    expect(parseCsv(res.body)).toEqual([[...LEADS_CSV_COLUMNS]]);
  });
});

describe('the shared items behind the results', () => {
  it('lets two projects hold the same item as separate leads', async () => {
    const a = await newProject();
    const b = await newProject();
    const item = await buildItem(t.ctx.db);
    await buildLead(t.ctx.db, a.id, { item });
    const inB = await buildLead(t.ctx.db, b.id, { item });
    expect((await del(b, `/api/v1/posts/${inB.id}`)).statusCode).toBe(204);
    expect((await get(a, postsUrl(a))).json().items[0].reddit_id).toBe(item.name);
  });
});
