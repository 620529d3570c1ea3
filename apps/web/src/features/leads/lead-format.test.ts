import { describe, expect, it } from 'vitest';
import { formatAccountAge, formatKarma, intentColor, redditUrl, timeAgo } from './lead-format';

describe('lead formatting', () => {
  it.each([
    [null, 'account age unknown'],
    [1, '1 day old'],
    [45, '45 days old'],
    [400, '13 months old'],
    [800, '2 years old'],
  ])('account age %s -> %s', (days, text) => {
    expect(formatAccountAge(days)).toBe(text);
  });

  it('formats karma', () => {
    expect(formatKarma(1520)).toBe('1,520 comment karma');
    expect(formatKarma(null)).toBe('karma unknown');
  });

  it('links to Reddit from a permalink path, and keeps full addresses', () => {
    expect(redditUrl('/r/a/comments/x/')).toBe('https://www.reddit.com/r/a/comments/x/');
    expect(redditUrl('r/a')).toBe('https://www.reddit.com/r/a');
    expect(redditUrl('https://old.reddit.com/r/a')).toBe('https://old.reddit.com/r/a');
    expect(redditUrl('/user/x', 'http://127.0.0.1:4100/')).toBe('http://127.0.0.1:4100/user/x');
  });

  it('says how long ago', () => {
    const now = Date.parse('2030-01-03T00:00:00Z');
    expect(timeAgo('2030-01-02T23:59:30Z', now)).toBe('just now');
    expect(timeAgo('2030-01-02T23:50:00Z', now)).toBe('10 min ago');
    expect(timeAgo('2030-01-02T00:00:00Z', now)).toBe('24 h ago');
    expect(timeAgo('2029-12-24T00:00:00Z', now)).toBe('10 days ago');
    expect(timeAgo('not a date', now)).toBe('');
  });

  it('colours intent by strength', () => {
    expect([intentColor(90), intentColor(50), intentColor(10)]).toEqual(['green', 'yellow', 'gray']);
  });
});
