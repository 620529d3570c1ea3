import { describe, expect, it } from 'vitest';
import { formatMembers, formatRelevance, parseSubredditNames } from './subreddit-names';

describe('parseSubredditNames', () => {
  it('splits on commas and new lines, strips r/ and drops blanks and repeats', () => {
    expect(parseSubredditNames('r/freelance, smallbusiness\n\n /r/Design ,,\r\nFreelance\n  ')).toEqual([
      'freelance',
      'smallbusiness',
      'Design',
    ]);
  });

  it('gives nothing for blank input', () => {
    expect(parseSubredditNames(' , \n r/ \n')).toEqual([]);
  });
});

describe('subreddit formatting', () => {
  it('formats members and relevance', () => {
    expect(formatMembers(1234567)).toBe('1,234,567 members');
    expect(formatMembers(1)).toBe('1 member');
    expect(formatRelevance(0.826)).toBe('Relevance 83%');
  });
});
