import { describe, expect, it } from 'vitest';
import { parseRedditAnswer, REDDIT_ENDPOINTS, redditEndpointOf } from './reddit.endpoints';

describe('Reddit endpoints', () => {
  it('recognise recorded paths, with or without a trailing slash or .json', () => {
    const label = (method: string, path: string) => redditEndpointOf(method, path)?.label;
    expect(label('POST', '/api/v1/access_token')).toBe('POST /api/v1/access_token');
    expect(label('GET', '/r/%3CTEST_SUBREDDIT%3E/comments/')).toBe('GET /r/{subreddits}/comments');
    expect(label('GET', '/r/a+b+c/new.json')).toBe('GET /r/{subreddits}/new');
    expect(label('GET', '/r/all/search/')).toBe('GET /r/{subreddit}/search');
    expect(label('GET', '/search')).toBe('GET /search');
    expect(label('GET', '/user/spez/about/')).toBe('GET /user/{name}/about');
    expect(label('GET', '/message/unread/')).toBe('GET /message/unread');
    // Endpoints the product does not call.
    expect(label('GET', '/user/spez/overview')).toBeUndefined();
    expect(label('GET', '/message/messages/6i8om7/')).toBeUndefined();
    expect(label('POST', '/api/comment/')).toBeUndefined();
    expect(label('GET', '/api/compose')).toBeUndefined();
  });

  it('read an answer as data, as a Reddit error with its reason, or as something unreadable', () => {
    const about = REDDIT_ENDPOINTS.subredditAbout;
    expect(parseRedditAnswer(about, 403, '{"message":"Forbidden","error":403}')).toEqual({
      kind: 'error',
      status: 403,
      body: { message: 'Forbidden', error: 403 },
      reason: null,
    });
    expect(
      parseRedditAnswer(
        REDDIT_ENDPOINTS.userAbout,
        400,
        JSON.stringify({
          fields: ['id'],
          explanation: "that user doesn't exist",
          reason: 'USER_DOESNT_EXIST',
        }),
      ),
    ).toMatchObject({ kind: 'error', reason: 'USER_DOESNT_EXIST' });
    expect(parseRedditAnswer(about, 403, '<html>blocked</html>')).toMatchObject({
      kind: 'invalid',
      status: 403,
    });
    expect(parseRedditAnswer(about, 200, '{"kind":"t5","data":{"display_name":"x"}}')).toMatchObject({
      kind: 'invalid',
      problem: expect.stringContaining('data.id: Invalid input'),
    });
    expect(parseRedditAnswer(REDDIT_ENDPOINTS.accessToken, 200, '{"error":"invalid_grant"}')).toEqual({
      kind: 'data',
      value: { error: 'invalid_grant' },
    });
  });
});
