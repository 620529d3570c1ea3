import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from './http';
import { type TestSim, startTestSim } from './test-support';
import type { RedditComment, RedditListing, RedditPost } from './types';

let t: TestSim;
let token: string;
beforeAll(async () => {
  t = await startTestSim();
  token = (await t.userToken()).access_token;
});
afterAll(async () => {
  await t.sim.close();
});

async function listing<T>(path: string): Promise<T[]> {
  const res = await t.get(path, token);
  return ((await res.json()) as RedditListing<T>).data.children.map((c) => c.data);
}

/** What a browser gets at a path: no token, as from a link. */
async function open(path: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await t.get(path);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('www pages behind permalinks', () => {
  it('shows a post at its permalink, saying it is simulated', async () => {
    const [post] = await listing<RedditPost>('/r/SaaS/new?limit=1');
    const page = await open(post!.permalink);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.body).toContain('Simulated Reddit');
    expect(page.body).toContain(escapeHtml(post!.title));
    expect(page.body).toContain(`href="/user/${post!.author}"`);
    // Without the slug or the trailing slash, as Reddit also answers.
    expect((await open(`/r/SaaS/comments/${post!.id}`)).status).toBe(200);
  });

  it('shows a comment under its post at the comment permalink', async () => {
    const [comment] = await listing<RedditComment>('/r/SaaS/comments?limit=1');
    const page = await open(comment!.permalink!);
    expect(page.status).toBe(200);
    expect(page.body).toContain(escapeHtml(comment!.link_title!));
    expect(page.body).toContain(escapeHtml(comment!.body));
    expect(page.body).toContain(`Comment by u/${comment!.author}`);
  });

  it('answers 404 for a post that does not exist, is in another subreddit, or a comment of another post', async () => {
    const [post] = await listing<RedditPost>('/r/SaaS/new?limit=1');
    const [comment] = await listing<RedditComment>('/r/startups/comments?limit=1');
    expect((await open('/r/SaaS/comments/zzzzzzzzz/nothing/')).status).toBe(404);
    expect((await open(`/r/startups/comments/${post!.id}/x/`)).status).toBe(404);
    expect((await open(`${post!.permalink}${comment!.id}/`)).status).toBe(404);
  });

  it("shows a user's profile with what they wrote, and 404 for nobody", async () => {
    const [post] = await listing<RedditPost>('/r/SaaS/new?limit=1');
    const page = await open(`/user/${post!.author}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`u/${post!.author}`);
    expect(page.body).toContain(`href="${post!.permalink}"`);
    expect((await open('/user/nobody_here_at_all_123')).status).toBe(404);
  });

  it('leaves the API answers as they were', async () => {
    const res = await t.get('/r/SaaS/comments?limit=1', token);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect((await t.get('/user/demo_founder/about')).status).toBe(401);
  });
});
