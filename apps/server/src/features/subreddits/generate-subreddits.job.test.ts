import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerJobs, startQueue } from '../../jobs/queue';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { generateSubredditsJob } from './generate-subreddits.job';
import { addSearchCredential } from './subreddits.test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ reddit: true, queue: startQueue });
  await registerJobs(t.ctx, t.ctx.queue!, [generateSubredditsJob]);
  await addSearchCredential(t.ctx);
});
afterAll(() => t.close());

describe('generate-subreddits on the job queue', () => {
  it('runs from "Approve & Continue" in step 2 to suggestions listed in step 3', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const headers = project.owner.auth;
    const base = `/api/v1/projects/${project.id}`;
    const saved = await t.app.inject({
      method: 'POST',
      url: `${base}/product-info`,
      headers,
      payload: validProductInfo(),
    });
    expect(saved.json()).toMatchObject({ keywords_generated: true, keywords_error: null });
    const keywords = (await t.app.inject({ url: `${base}/keywords`, headers })).json().items;
    const approved = await t.app.inject({
      method: 'POST',
      url: `${base}/approve-keywords`,
      headers,
      payload: {
        keywords: keywords.map((k: { approved: boolean }) => ({ ...k, approved: true })),
        generate_subreddits: true,
      },
    });
    expect(approved.json().subreddit_generation).toBe('started');

    await vi.waitFor(
      async () => {
        const status = (await t.app.inject({ url: `${base}/subreddits/status`, headers })).json();
        expect(status.status).toBe('completed');
      },
      { timeout: 20_000, interval: 200 },
    );
    const listed = (await t.app.inject({ url: `${base}/subreddits`, headers })).json();
    expect(listed.total).toBeGreaterThan(0);
    expect(listed.items.every((s: { approved: boolean }) => !s.approved)).toBe(true);
  });
});
