import { describe, expect, it } from 'vitest';
import {
  readRedditRateLimit,
  redditErrorReason,
  ZRedditAccessTokenResponse,
  ZRedditErrorBody,
  ZRedditJsonResponse,
  ZRedditMessageListing,
  ZRedditSubreddit,
  ZRedditUser,
} from './index';

// Small bodies in the shapes the recordings in shared/fixtures/reddit-real show.
describe('Reddit wire schemas', () => {
  it('read the rate-limit headers Reddit sends as float strings', () => {
    expect(
      readRedditRateLimit({
        'x-ratelimit-remaining': '544.0',
        'x-ratelimit-used': '456',
        'x-ratelimit-reset': '486',
      }),
    ).toEqual({ used: 456, remaining: 544, resetSeconds: 486, retryAfterSeconds: null });
    expect(readRedditRateLimit({ 'x-ratelimit-remaining': ['0.0'], 'retry-after': 'soon' })).toEqual({
      used: null,
      remaining: 0,
      resetSeconds: null,
      retryAfterSeconds: null,
    });
  });

  it('know the error bodies and their reasons', () => {
    const bodies = [
      [{ message: 'Forbidden', error: 403 }, null],
      [{ reason: 'quarantined', message: 'Forbidden', error: 403, quarantine_message: '...' }, 'quarantined'],
      [
        {
          fields: ['id'],
          explanation: "that user doesn't exist",
          message: 'Bad Request',
          reason: 'USER_DOESNT_EXIST',
        },
        'USER_DOESNT_EXIST',
      ],
      [{ error: 'invalid_grant' }, 'invalid_grant'],
    ] as const;
    for (const [body, reason] of bodies) expect(redditErrorReason(ZRedditErrorBody.parse(body))).toBe(reason);
    expect(ZRedditErrorBody.safeParse({ status: 'nope' }).success).toBe(false);
  });

  it('take json.errors as [CODE, message, field] with a field that may be null', () => {
    const parsed = ZRedditJsonResponse.parse({
      json: { errors: [['USER_REQUIRED', 'Please log in to do that.', null]] },
    });
    expect(parsed.json.errors[0]).toEqual(['USER_REQUIRED', 'Please log in to do that.', null]);
    expect(ZRedditJsonResponse.parse({ json: { errors: [] } }).json.errors).toEqual([]);
    expect(ZRedditJsonResponse.safeParse({ json: { errors: [['ONLY_A_CODE']] } }).success).toBe(false);
  });

  it('tell a granted token from a refused grant', () => {
    const granted = ZRedditAccessTokenResponse.parse({
      access_token: 't',
      token_type: 'bearer',
      expires_in: 86400,
      scope: '*',
    });
    expect(granted.expires_in).toBe(86400);
    expect(ZRedditAccessTokenResponse.parse({ error: 'invalid_grant' })).toEqual({ error: 'invalid_grant' });
    expect(ZRedditAccessTokenResponse.safeParse({ access_token: '', expires_in: 3600 }).success).toBe(false);
  });

  it('accept active and suspended accounts, and private subreddits without member counts', () => {
    expect(ZRedditUser.parse({ name: 'gone', is_suspended: true })).toEqual({
      name: 'gone',
      is_suspended: true,
    });
    const active = {
      id: '59b2c',
      name: 'subreddit_stats',
      created_utc: 1305830279,
      link_karma: 1,
      comment_karma: 15,
    };
    expect(ZRedditUser.parse(active)).toEqual(active);
    expect(ZRedditUser.safeParse({ name: 'half', created_utc: 1 }).success).toBe(false);
    const privateSub = {
      id: 'x',
      name: 't5_x',
      display_name: 'PRAW',
      title: 'PRAW',
      public_description: '',
      subscribers: null,
      over18: null,
      subreddit_type: 'private',
      created_utc: 1,
      url: '/r/PRAW/',
    };
    expect(ZRedditSubreddit.parse(privateSub).subscribers).toBeNull();
  });

  it('read a chat conversation with its replies nested under the first message', () => {
    const message = (name: string, extra: Record<string, unknown> = {}) => ({
      id: name.slice(3),
      name,
      author: 'someone',
      dest: 'us',
      subject: '[direct chat room]',
      body: 'hi',
      created_utc: 1759948312,
      first_message_name: null,
      parent_id: null,
      new: false,
      was_comment: false,
      distinguished: null,
      type: 'unknown',
      replies: '',
      ...extra,
    });
    const listing = (children: unknown[]) => ({
      kind: 'Listing',
      data: { after: null, before: null, children },
    });
    const reply = message('t4_2', { first_message_name: 't4_1', parent_id: 't4_1', author: null });
    const thread = listing([
      { kind: 't4', data: message('t4_1', { replies: listing([{ kind: 't4', data: reply }]) }) },
    ]);
    const parsed = ZRedditMessageListing.parse(thread);
    const root = parsed.data.children[0]!.data;
    expect(root.replies === '' ? null : root.replies.data.children[0]!.data.first_message_name).toBe('t4_1');
    const broken = listing([
      {
        kind: 't4',
        data: message('t4_1', { replies: listing([{ kind: 't4', data: { ...reply, new: 'yes' } }]) }),
      },
    ]);
    expect(ZRedditMessageListing.safeParse(broken).success).toBe(false);
  });
});
