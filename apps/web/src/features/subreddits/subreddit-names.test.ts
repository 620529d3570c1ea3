import { describe, expect, it } from 'vitest';
import { formatMembers, formatRelevance } from './subreddit-names';

describe('subreddit formatting', () => {
  it('formats members and relevance', () => {
    expect(formatMembers(1234567)).toBe('1,234,567 members');
    expect(formatMembers(1)).toBe('1 member');
    expect(formatRelevance(0.826)).toBe('Relevance 83%');
  });
});
