import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KEYWORDS_PER_PROJECT_MAX,
  NO_KEYWORD_SELECTED,
  SUBREDDITS_PER_PROJECT_MAX,
  type TApproveKeywordsRequest,
  type TKeyword,
} from '@threadreach/contract';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { subreddits } from '../subreddits/subreddits.table';
import { insertKeyword, insertSubreddit, recordingQueue } from '../subreddits/subreddits.test-support';
import { keywords } from './keywords.table';

let t: TestApp;
const queue = recordingQueue();

beforeAll(async () => {
  t = await createTestApp({ queue: queue.starter });
});
afterAll(() => t.close());

type Project = Awaited<ReturnType<typeof buildProject>>;

const url = (p: Project, path: string) => `/api/v1/projects/${p.id}/${path}`;

async function projectWithStepOne(): Promise<Project> {
  const project = await buildProject(t.ctx.db, t.config);
  const res = await t.app.inject({
    method: 'PUT',
    url: url(project, 'product-info'),
    headers: project.owner.auth,
    payload: validProductInfo(),
  });
  expect(res.statusCode).toBe(200);
  return project;
}

async function list(project: Project, query = '') {
  const res = await t.app.inject({ url: url(project, `keywords${query}`), headers: project.owner.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function generate(project: Project) {
  return t.app.inject({
    method: 'POST',
    url: url(project, 'generate-keywords'),
    headers: project.owner.auth,
  });
}

async function approve(project: Project, payload: TApproveKeywordsRequest | Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: url(project, 'approve-keywords'),
    headers: project.owner.auth,
    payload,
  });
}

async function insertApproved(project: Project, n: number) {
  await t.ctx.db.insert(keywords).values(
    Array.from({ length: n }, (_, i) => ({
      projectId: project.id,
      keyword: `approved keyword ${i}`,
      type: 'product',
      approved: true,
    })),
  );
}

const row = (k: TKeyword, approved = k.approved) => ({
  id: k.id,
  keyword: k.keyword,
  type: k.type,
  approved,
});

describe('GET keywords', () => {
  it('starts empty, with empty filters', async () => {
    const project = await projectWithStepOne();
    expect(await list(project)).toEqual({
      items: [],
      total: 0,
      limit: 100,
      offset: 0,
      filters: { negative_keywords: [], excluded_subreddits: [], excluded_authors: [] },
    });
  });

  it('lists product keywords before ICP ones, one page at a time', async () => {
    const project = await projectWithStepOne();
    await insertKeyword(t.ctx.db, project.id, { keyword: 'solo founders', type: 'icp' });
    await insertKeyword(t.ctx.db, project.id, { keyword: 'lead finder', type: 'product' });
    await insertKeyword(t.ctx.db, project.id, { keyword: 'reddit outreach', type: 'product' });
    const all = await list(project);
    expect(all.total).toBe(3);
    expect(all.items.map((k: TKeyword) => k.type)).toEqual(['product', 'product', 'icp']);
    const page = await list(project, '?limit=1&offset=2');
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 2, items: [{ keyword: 'solo founders' }] });
  });

  it('refuses a page size outside the bounds', async () => {
    const project = await projectWithStepOne();
    for (const query of ['?limit=0', '?limit=501', '?offset=-1']) {
      const res = await t.app.inject({ url: url(project, `keywords${query}`), headers: project.owner.auth });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
  });
});

describe('POST generate-keywords', () => {
  it('writes product and ICP keywords from step 1, none approved yet', async () => {
    const project = await projectWithStepOne();
    await insertSubreddit(t.ctx.db, project.id, { name: 'SaaS' });
    const res = await generate(project);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.generated).toBe(true);
    expect(body.product_keywords.length).toBeGreaterThan(0);
    expect(body.icp_keywords.length).toBeGreaterThan(0);
    expect(body.subreddits_count).toBe(1);
    for (const k of [...body.product_keywords, ...body.icp_keywords]) expect(k.approved).toBe(false);
    expect(body.product_keywords.every((k: TKeyword) => k.type === 'product')).toBe(true);
    expect(body.icp_keywords.every((k: TKeyword) => k.type === 'icp')).toBe(true);

    const listed = await list(project);
    expect(listed.items).toEqual([...body.product_keywords, ...body.icp_keywords]);
  });

  it('keeps approved keywords, replaces the others and never adds one twice in another case', async () => {
    const project = await projectWithStepOne();
    const first = (await generate(project)).json();
    const [kept, dropped] = first.product_keywords as TKeyword[];
    // The customer approves one (in capitals) and types one of their own, unapproved.
    const saved = await approve(project, {
      keywords: [
        { ...row(kept!, true), keyword: kept!.keyword.toUpperCase() },
        row(dropped!, false),
        { keyword: 'my own idea', type: 'icp', approved: false },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const again = (await generate(project)).json();
    const all: TKeyword[] = [...again.product_keywords, ...again.icp_keywords];
    expect(all.find((k) => k.id === kept!.id)).toEqual({
      ...row(kept!, true),
      keyword: kept!.keyword.toUpperCase(),
    });
    expect(all.filter((k) => k.keyword.toLowerCase() === kept!.keyword.toLowerCase())).toHaveLength(1);
    expect(all.find((k) => k.keyword === 'my own idea')).toBeUndefined();
    expect(all.find((k) => k.id === dropped!.id)).toBeUndefined();
    // The dropped suggestion comes back as a new unapproved row.
    expect(all.find((k) => k.keyword === dropped!.keyword)).toMatchObject({ approved: false });
    const lower = all.map((k) => k.keyword.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });

  it(`never holds more than ${KEYWORDS_PER_PROJECT_MAX} keywords`, async () => {
    const project = await projectWithStepOne();
    await insertApproved(project, KEYWORDS_PER_PROJECT_MAX - 2);
    const res = (await generate(project)).json();
    expect(res.generated).toBe(true);
    expect((await list(project, '?limit=500')).total).toBe(KEYWORDS_PER_PROJECT_MAX);

    const full = await projectWithStepOne();
    await insertApproved(full, KEYWORDS_PER_PROJECT_MAX);
    expect((await generate(full)).json().generated).toBe(false);
    expect((await list(full, '?limit=500')).total).toBe(KEYWORDS_PER_PROJECT_MAX);
  });

  it('asks for step 1 first', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await generate(project);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Product information is missing: save step 1 first',
      code: 'product_info_missing',
    });
  });
});

describe('POST approve-keywords', () => {
  it('saves the list as shown: updates rows with ids, adds rows without, removes the rest', async () => {
    const project = await projectWithStepOne();
    const generated = (await generate(project)).json();
    const [a, b, ...rest] = generated.product_keywords as TKeyword[];
    const icp = generated.icp_keywords as TKeyword[];
    expect(rest.length + icp.length).toBeGreaterThan(0);

    const res = await approve(project, {
      keywords: [
        row(a!, true),
        { ...row(b!, false), keyword: 'renamed keyword', type: 'icp' },
        { keyword: '  typed   by hand ', type: 'product', approved: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ approved_count: 2, subreddit_generation: 'not_requested' });
    expect(body.keywords).toEqual([
      row(a!, true),
      expect.objectContaining({ keyword: 'typed by hand', type: 'product', approved: true }),
      { id: b!.id, keyword: 'renamed keyword', type: 'icp', approved: false },
    ]);
    expect((await list(project)).items).toEqual(body.keywords);
  });

  it('lets two keywords swap their texts', async () => {
    const project = await projectWithStepOne();
    const a = await insertKeyword(t.ctx.db, project.id, { keyword: 'alpha', approved: true });
    const b = await insertKeyword(t.ctx.db, project.id, { keyword: 'beta' });
    const res = await approve(project, {
      keywords: [
        { id: a, keyword: 'beta', type: 'product', approved: true },
        { id: b, keyword: 'alpha', type: 'product', approved: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().keywords).toEqual(
      expect.arrayContaining([
        { id: a, keyword: 'beta', type: 'product', approved: true },
        { id: b, keyword: 'alpha', type: 'product', approved: false },
      ]),
    );
  });

  it('keeps one row for a keyword written twice, approved if either was', async () => {
    const project = await projectWithStepOne();
    const res = await approve(project, {
      keywords: [
        { keyword: 'CRM Tool', type: 'product', approved: false },
        { keyword: 'crm   tool', type: 'icp', approved: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().keywords).toEqual([
      expect.objectContaining({ keyword: 'CRM Tool', type: 'product', approved: true }),
    ]);
  });

  it('needs at least one approved keyword, and changes nothing without one', async () => {
    const project = await projectWithStepOne();
    const id = await insertKeyword(t.ctx.db, project.id, { keyword: 'kept', approved: true });
    for (const keywords of [[], [{ id, keyword: 'kept', type: 'product', approved: false }]]) {
      const res = await approve(project, { keywords });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: NO_KEYWORD_SELECTED, code: 'no_keyword_selected' });
    }
    expect((await list(project)).items).toEqual([{ id, keyword: 'kept', type: 'product', approved: true }]);
  });

  it("answers 404 for another project's keyword, or one that does not exist, and changes nothing", async () => {
    const project = await projectWithStepOne();
    const other = await projectWithStepOne();
    const own = await insertKeyword(t.ctx.db, project.id, { keyword: 'mine', approved: true });
    const theirs = await insertKeyword(t.ctx.db, other.id, { keyword: 'theirs', approved: false });
    const before = [await list(project), await list(other)];
    for (const foreign of [theirs, randomUUID()]) {
      const res = await approve(project, {
        keywords: [
          { id: own, keyword: 'mine renamed', type: 'product', approved: true },
          { id: foreign, keyword: 'stolen', type: 'product', approved: true },
        ],
        filters: { negative_keywords: ['never saved'] },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Keyword not found', code: 'not_found' });
    }
    expect([await list(project), await list(other)]).toEqual(before);
  });

  it('saves negative keywords and exclusions, without prefixes or repeats; left-out lists are kept', async () => {
    const project = await projectWithStepOne();
    const keywords = [{ keyword: 'lead finder', type: 'product' as const, approved: true }];
    const res = await approve(project, {
      keywords,
      filters: {
        negative_keywords: ['free', 'FREE', ' job  offer '],
        excluded_subreddits: ['r/forhire', '/r/Jobs', 'forhire', 'https://www.reddit.com/r/slavelabour/top/'],
        excluded_authors: ['u/AutoModerator', 'spam_bot', 'https://www.reddit.com/user/promo_bot/'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const filters = {
      negative_keywords: ['free', 'job offer'],
      excluded_subreddits: ['forhire', 'Jobs', 'slavelabour'],
      excluded_authors: ['AutoModerator', 'spam_bot', 'promo_bot'],
    };
    expect(res.json().filters).toEqual(filters);

    const partial = await approve(project, { keywords, filters: { negative_keywords: ['hiring'] } });
    expect(partial.json().filters).toEqual({ ...filters, negative_keywords: ['hiring'] });
    const untouched = await approve(project, { keywords });
    expect(untouched.json().filters).toEqual({ ...filters, negative_keywords: ['hiring'] });
    expect((await list(project)).filters).toEqual({ ...filters, negative_keywords: ['hiring'] });
  });

  it('refuses keywords and filters out of bounds, and changes nothing', async () => {
    const project = await projectWithStepOne();
    const id = await insertKeyword(t.ctx.db, project.id, { keyword: 'kept', approved: true });
    const ok = { keyword: 'fine', type: 'product', approved: true };
    const cases: [Record<string, unknown>, string][] = [
      [{ keywords: [{ ...ok, keyword: 'x' }] }, 'at least 2'],
      [{ keywords: [{ ...ok, keyword: 'x'.repeat(81) }] }, 'at most 80'],
      [{ keywords: [{ ...ok, keyword: 'nul\u0000byte' }] }, 'NUL'],
      [{ keywords: [{ ...ok, type: 'other' }] }, 'type'],
      [{ keywords: [{ ...ok, id: 'not-a-uuid' }] }, 'Keyword not found'],
      [
        {
          keywords: Array.from({ length: KEYWORDS_PER_PROJECT_MAX + 1 }, (_, i) => ({
            ...ok,
            keyword: `k ${i}`,
          })),
        },
        '',
      ],
      [{ keywords: [ok], filters: { excluded_subreddits: ['not a subreddit'] } }, 'Invalid subreddit name'],
      [{ keywords: [ok], filters: { excluded_authors: ['x'] } }, 'Invalid Reddit user name'],
      [{ keywords: [ok], filters: { negative_keywords: ['bad\u0000'] } }, 'NUL'],
      [
        { keywords: [ok], filters: { negative_keywords: Array.from({ length: 201 }, (_, i) => `n ${i}`) } },
        '',
      ],
      [{ keywords: [ok], generate_subreddits: 'yes' }, ''],
    ];
    for (const [payload, detail] of cases) {
      const res = await approve(project, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(res.json().code).toBe('validation_error');
      expect(res.json().detail).toContain(detail);
    }
    expect((await list(project)).items).toEqual([{ id, keyword: 'kept', type: 'product', approved: true }]);
  });

  it('with generate_subreddits starts subreddit generation, or says one is running', async () => {
    const project = await projectWithStepOne();
    const payload = {
      keywords: [{ keyword: 'lead finder', type: 'product' as const, approved: true }],
      generate_subreddits: true,
    };
    const queued = queue.jobs.length;
    const first = await approve(project, payload);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().subreddit_generation).toBe('started');
    expect(queue.jobs.slice(queued)).toEqual([
      { name: 'generate-subreddits', data: { projectId: project.id }, options: { singletonKey: project.id } },
    ]);
    const status = await t.app.inject({
      url: url(project, 'subreddits/status'),
      headers: project.owner.auth,
    });
    expect(status.json().status).toBe('generating');

    const second = await approve(project, payload);
    expect(second.json().subreddit_generation).toBe('running');
    expect(queue.jobs).toHaveLength(queued + 1);
  });

  it('refuses generate_subreddits when step 3 is full, before saving anything', async () => {
    const project = await projectWithStepOne();
    await t.ctx.db.insert(subreddits).values(
      Array.from({ length: SUBREDDITS_PER_PROJECT_MAX }, (_, i) => ({
        projectId: project.id,
        name: `listed${i}`,
        source: 'generated',
      })),
    );
    const res = await approve(project, {
      keywords: [{ keyword: 'lead finder', type: 'product', approved: true }],
      generate_subreddits: true,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('too_many_subreddits');
    expect((await list(project)).total).toBe(0);
  });

  it('refuses generate_subreddits on a server without jobs before saving anything', async () => {
    const project = await projectWithStepOne();
    const saved = t.ctx.queue;
    t.ctx.queue = null;
    try {
      const res = await approve(project, {
        keywords: [{ keyword: 'lead finder', type: 'product', approved: true }],
        generate_subreddits: true,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('jobs_unavailable');
    } finally {
      t.ctx.queue = saved;
    }
    expect((await list(project)).total).toBe(0);
  });
});
