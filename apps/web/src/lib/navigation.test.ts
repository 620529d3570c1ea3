import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './navigation';

describe('safeRedirectPath', () => {
  it.each(['/', '/logs', '/stats?from=1#top', '/subscribe/success'])('keeps the in-app path %s', (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    'https://evil.test/',
    '//evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    '/\\evil.test',
    '\\\\evil.test',
    'evil.test',
    '',
    null,
    undefined,
  ])('turns %j into /', (target) => {
    expect(safeRedirectPath(target)).toBe('/');
  });
});
