import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { SESSION_HINT_COOKIE } from '@threadreach/contract';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetSessionFlags } from '../lib/auth-session';
import { setPageLoader } from '../lib/navigation';
import { apiServer, takeApiProblems } from './api-mock.test-support';

// findBy and waitFor give the screen 5 s rather than 1: on two busy cores an answer can take longer.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these browser APIs that Mantine uses.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};

// Only the API answers a test gives exist; anything else is an error, never a real request.
beforeAll(() => apiServer.listen({ onUnhandledFrame: 'error' }));
// The toasts' container is loaded with the first toast (app-providers). Loaded here once, a toast shows
// within a test's fake-clock rounds, which do not wait for a module to load.
beforeAll(async () => {
  await import('../app/notifications-host');
});
afterAll(() => apiServer.close());

afterEach(async () => {
  cleanup();
  setPageLoader(null);
  resetSessionFlags();
  notifications.clean();
  window.localStorage.clear();
  document.cookie = `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  const problems = await takeApiProblems();
  if (problems.length > 0) throw new Error(`API mock problems:\n${problems.join('\n')}`);
});
