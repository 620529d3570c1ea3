import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRedditConformance, formatConformance } from './reddit.conformance';

/** Recorded Reddit traffic, beside the repository (never copied into it). */
const RECORDINGS =
  process.env.REDDIT_RECORDINGS_DIR ??
  fileURLToPath(new URL('../../../../../../shared/fixtures/reddit-real/', import.meta.url));
const hasRecordings = existsSync(RECORDINGS);

/** Answers of the product's endpoints in the recordings when this was written; more is fine. */
const RECORDED_ANSWERS_FLOOR = 50;

describe('conformance with real Reddit answers', () => {
  it.skipIf(!hasRecordings)(
    `parses every recorded answer of an endpoint the product calls${hasRecordings ? '' : ` (skipped: no recordings at ${RECORDINGS})`}`,
    async () => {
      const report = await checkRedditConformance(RECORDINGS);
      expect(report.files.flatMap((f) => f.failures)).toEqual([]);
      expect(report.failed).toBe(0);
      expect(report.passed).toBeGreaterThanOrEqual(RECORDED_ANSWERS_FLOOR);
      expect(Object.keys(report.byEndpoint)).toEqual(
        expect.arrayContaining([
          'POST /api/v1/access_token',
          'GET /api/v1/me',
          'GET /r/{subreddits}/new',
          'GET /r/{subreddits}/comments',
          'GET /r/{subreddit}/search',
          'GET /subreddits/search',
          'GET /r/{subreddit}/about',
          'GET /user/{name}/about',
          'GET /message/unread',
          'GET /message/messages',
          'GET /message/sent',
          'POST /api/compose',
        ]),
      );
      expect(formatConformance(report).at(-1)).toBe(`${report.passed} passed, 0 failed`);
    },
  );

  it('counts an answer the product could not read, and a file that is not a cassette', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reddit-cassettes-'));
    const interaction = (url: string, status: number, body: unknown) => ({
      request: { method: 'GET', url, body: null },
      response: { status, headers: {}, body: JSON.stringify(body) },
    });
    const listing = (data: Record<string, unknown>) => ({
      kind: 'Listing',
      data: { after: null, before: null, children: [{ kind: 't3', data }] },
    });
    const post = {
      id: 'abc',
      name: 't3_abc',
      title: 'Looking for a CRM',
      selftext: '',
      author: 'someone',
      subreddit: 'startups',
      created_utc: 1_700_000_000,
      score: 3,
      num_comments: 1,
      permalink: '/r/startups/comments/abc/x/',
      url: 'https://www.reddit.com/r/startups/comments/abc/x/',
      over_18: false,
      stickied: false,
    };
    await writeFile(
      path.join(dir, 'a.json'),
      JSON.stringify({
        interactions: [
          interaction('https://oauth.reddit.com/r/startups/new/?limit=1', 200, listing(post)),
          interaction(
            'https://oauth.reddit.com/r/startups/new/?limit=1',
            200,
            listing({ ...post, title: null }),
          ),
          interaction('https://oauth.reddit.com/r/startups/hot/', 200, {}),
          interaction('https://oauth.reddit.com/r/startups/new/', 503, '<html>'),
          interaction('https://oauth.reddit.com/r/secret/new/', 403, { message: 'Forbidden', error: 403 }),
        ],
      }),
    );
    await writeFile(path.join(dir, 'b.json'), '{"not":"a cassette"}');

    const report = await checkRedditConformance(dir);
    expect(report).toMatchObject({ passed: 2, failed: 2 });
    expect(formatConformance(report)).toEqual([
      'a.json: 2 parsed, 1 failed, 1 skipped (endpoints not used), 1 not read by the client (5xx, 429)',
      '  GET /r/startups/new/ 200: data.children.0.data.title: Invalid input: expected string, received null',
      'b.json: 0 parsed, 1 failed, 0 skipped (endpoints not used)',
      '  (file) 0: not a cassette: interactions: Invalid input: expected array, received undefined',
      '2 passed, 2 failed',
    ]);
  });
});
