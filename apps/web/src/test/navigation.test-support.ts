import { vi } from 'vitest';
import { setPageLoader } from '../lib/navigation';

/**
 * Records the page loads the app asks for instead of making them: jsdom can neither leave nor reload a
 * page. `left` holds the addresses the page was sent to, in order, with or without a history entry.
 * In-app paths still go through the router when one is mounted. The setup file undoes this after each test.
 */
export function recordPageLoads() {
  const left: string[] = [];
  const loader = {
    left,
    assign: vi.fn((url: string) => void left.push(url)),
    replace: vi.fn((url: string) => void left.push(url)),
    reload: vi.fn(),
  };
  setPageLoader(loader);
  return loader;
}
