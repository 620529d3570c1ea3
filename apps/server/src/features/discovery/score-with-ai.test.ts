import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { MatchedItems } from './match-items';
import { scoreWithAi } from './score-with-ai';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function matched(projectId: string): MatchedItems {
  const now = new Date('2026-01-01T00:00:00Z');
  const lead = (itemName: string, kind: 'post' | 'comment') => ({
    projectId,
    itemName,
    kind,
    author: 'someone',
    subreddit: 'SaaS',
    matchedKeywords: ['crm'],
    matches: [{ keyword: 'crm', field: 'body' as const, start: 0, end: 3 }],
    intentScore: 10,
    intentReasons: ['rules'],
    itemCreatedAt: now,
    foundAt: now,
  });
  const item = (name: string, kind: 't3' | 't1') => ({
    name,
    kind,
    subreddit: 'SaaS',
    author: 'someone',
    title: 'Which CRM?',
    body: 'crm for two people',
    permalink: `/r/SaaS/${name}`,
    createdAt: now,
    fetchedAt: now,
  });
  return {
    items: [item('t3_a', 't3'), item('t1_b', 't1')],
    leads: [lead('t3_a', 'post'), lead('t1_b', 'comment')],
  };
}

describe('intent scores from the AI engine', () => {
  it('keeps the rules when the offline engine runs, asking nothing', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const input = matched(project.id);
    expect(t.ctx.ai.provider).toBe('offline');
    expect(await scoreWithAi(t.ctx, input)).toBe(input);
  });

  it("takes the model's scores per project, with the project's product and the comment's own text", async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}/product-info`,
      headers: project.owner.auth,
      payload: validProductInfo(),
    });
    const asked: unknown[] = [];
    const ctx: AppContext = {
      ...t.ctx,
      ai: {
        ...t.ctx.ai,
        provider: 'llm',
        async scoreIntents(request) {
          asked.push(request);
          return request.items.map((_, i) => ({ score: 90 - i, reasons: ['asks for a CRM'] }));
        },
      },
    };
    const out = await scoreWithAi(ctx, matched(project.id));
    expect(out.leads.map((l) => [l.itemName, l.intentScore, l.intentReasons])).toEqual([
      ['t3_a', 90, ['asks for a CRM']],
      ['t1_b', 89, ['asks for a CRM']],
    ]);
    expect(asked).toEqual([
      {
        product: validProductInfo(),
        items: [
          { id: 't3_a', title: 'Which CRM?', body: 'crm for two people', matches: expect.any(Array) },
          { id: 't1_b', title: '', body: 'crm for two people', matches: expect.any(Array) },
        ],
      },
    ]);
  });
});
