import { vi } from 'vitest';
import type * as NavigationModule from '../lib/navigation';

/** Addresses of other sites the page sent the browser to, in order: jsdom cannot leave the page. */
export const externalNavigation = { assigned: [] as string[] };

/**
 * lib/navigation with the way to another site (a checkout, a billing page) recorded in
 * `externalNavigation` instead of taken, in-app paths still through the router, and no reload. For
 * `vi.mock('…/lib/navigation', async (original) => (await import('…/test/navigation.test-support'))
 * .recordingNavigation(original))`.
 */
export async function recordingNavigation(
  importOriginal: () => Promise<unknown>,
): Promise<typeof NavigationModule> {
  const real = (await importOriginal()) as typeof NavigationModule;
  return {
    ...real,
    navigateTo: (to: string, options?: { replace?: boolean }) => {
      if (to.startsWith('/') && !to.startsWith('//')) real.navigateTo(to, options);
      else externalNavigation.assigned.push(to);
    },
    reloadPage: vi.fn(),
  };
}
