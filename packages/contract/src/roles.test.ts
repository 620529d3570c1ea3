import { describe, expect, it } from 'vitest';
import { hasRank, highestRank, isModerator, isReadOnly, normalizeRoles } from './roles';

describe('roles', () => {
  it('ranks ADMIN 4, MODERATOR 3, USER 2, READONLY 1, unknown 0', () => {
    expect(highestRank(['ADMIN'])).toBe(4);
    expect(highestRank(['MODERATOR'])).toBe(3);
    expect(highestRank(['USER'])).toBe(2);
    expect(highestRank(['READONLY'])).toBe(1);
    expect(highestRank(['SOMETHING'])).toBe(0);
    expect(highestRank(['READONLY', 'ADMIN'])).toBe(4);
  });

  it('treats a single string as a one-item list and anything else as no roles', () => {
    expect(normalizeRoles('ADMIN')).toEqual(['ADMIN']);
    expect(normalizeRoles(undefined)).toEqual([]);
    expect(normalizeRoles({ ADMIN: true })).toEqual([]);
    expect(hasRank(undefined, 0)).toBe(false);
    expect(hasRank(42, 1)).toBe(false);
  });

  it('calls moderator-level rank 3 or more', () => {
    expect(isModerator('MODERATOR')).toBe(true);
    expect(isModerator(['USER'])).toBe(false);
  });

  it('is read-only with READONLY and nothing at USER or above', () => {
    expect(isReadOnly(['READONLY'])).toBe(true);
    expect(isReadOnly(['READONLY', 'USER'])).toBe(false);
    expect(isReadOnly(['USER'])).toBe(false);
  });
});
