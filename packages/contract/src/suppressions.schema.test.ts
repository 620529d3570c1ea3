import { describe, expect, it } from 'vitest';
import { normalizeRedditUsername, ZAddDoNotContactRequest, ZRedditUsername } from './suppressions.schema';

describe('Reddit user names as people paste them', () => {
  it.each([
    ['pixel_pat', 'pixel_pat'],
    ['  u/pixel_pat ', 'pixel_pat'],
    ['/u/pixel_pat', 'pixel_pat'],
    ['/user/Pixel-Pat', 'Pixel-Pat'],
    ['https://www.reddit.com/user/pixel_pat/', 'pixel_pat'],
    ['https://old.reddit.com/u/pixel_pat?utm=x', 'pixel_pat'],
    ['@pixel_pat', 'pixel_pat'],
  ])('%j is %j', (raw, name) => {
    expect(normalizeRedditUsername(raw)).toBe(name);
    expect(ZRedditUsername.parse(raw)).toBe(name);
  });

  it.each(['ab', 'a'.repeat(21), 'pixel pat', 'r/freelance', 'pixel.pat', ''])('refuses %j', (raw) => {
    expect(ZRedditUsername.safeParse(raw).success).toBe(false);
  });

  it('needs at least one name to add', () => {
    expect(ZAddDoNotContactRequest.safeParse({ usernames: [] }).success).toBe(false);
    expect(ZAddDoNotContactRequest.parse({ usernames: ['u/pixel_pat'], note: ' met at a meetup ' })).toEqual({
      usernames: ['pixel_pat'],
      note: 'met at a meetup',
    });
  });
});
