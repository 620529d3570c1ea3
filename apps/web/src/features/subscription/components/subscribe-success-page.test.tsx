import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/app-providers';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { testQueryClient } from '../../../test/render-app';
import { HttpResponse } from 'msw';
import { authEndpoints, type TRefreshResponse } from '@threadreach/contract';
import { errorReply, mockEndpoint, type TMockHandler } from '../../../test/api-mock.test-support';
import { makeToken } from '../../../test/tokens';
import { getToken, setToken } from '../../../lib/token-storage';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { AUTO_REFRESH_DELAY_MS, SUCCESS_REDIRECT_DELAY_MS } from '../hooks/use-access-refresh';
import { SubscribeSuccessPage } from './subscribe-success-page';

let pageLoads: ReturnType<typeof recordPageLoads>;
beforeEach(() => {
  pageLoads = recordPageLoads();
});

type TRefreshHandler = TMockHandler<typeof authEndpoints.refreshAfterSubscription>;

function refreshAnswer(limit: number, token = makeToken({ profiles_limit: limit })): TRefreshResponse {
  return {
    token,
    refresh_token: null,
    user: { user_id: 'user-1', email: 'user@example.com', profiles_limit: limit },
    expires_at: '2030-01-01T00:00:00Z',
    refresh_expires_at: '2030-02-01T00:00:00Z',
    redirect_url: limit > 0 ? '/' : '/subscribe',
    requires_subscription: limit <= 0,
    subscribe_url: '/subscribe',
  };
}

function renderSuccessPage(handler: TRefreshHandler) {
  const refresh = mockEndpoint(authEndpoints.refreshAfterSubscription, handler);
  const view = render(
    <AppProviders queryClient={testQueryClient()}>
      <MemoryRouter initialEntries={['/subscribe/success?session_id=cs_1']}>
        <Routes>
          <Route path="/subscribe/success" element={<SubscribeSuccessPage />} />
          <Route path="/" element={<p>Dashboard</p>} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
  return { refresh, view };
}

/** Moves the fake clock and lets the promises it released settle. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  mockPublicConfig();
  vi.useFakeTimers();
  window.sessionStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
});

describe('/subscribe/success', () => {
  it('refreshes the token 1 s after load, shows success, and goes to the dashboard 1.5 s later', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    let release!: () => void;
    const { refresh } = renderSuccessPage(
      () => new Promise((resolve) => (release = () => resolve(refreshAnswer(3)))),
    );
    expect(screen.getByRole('heading', { name: 'Payment successful' })).toBeTruthy();
    await advance(AUTO_REFRESH_DELAY_MS - 1);
    expect(refresh.calls).toHaveLength(0);

    await advance(1);
    expect(refresh.calls).toHaveLength(1);
    expect(screen.getByText('Verifying your subscription and updating access...')).toBeTruthy();

    release();
    await advance(0);
    expect(screen.getByText('Access updated successfully! Redirecting to your dashboard...')).toBeTruthy();
    expect(JSON.parse(atob(getToken()!.split('.')[1]!)).profiles_limit).toBe(3);

    await advance(SUCCESS_REDIRECT_DELAY_MS - 1);
    expect(screen.queryByText('Dashboard')).toBeNull();
    await advance(1);
    expect(screen.getByText('Dashboard')).toBeTruthy();
  });

  it('fails when the new token still has no limit, counts attempts across Try Again, and suggests logging out from attempt 2', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    const first = renderSuccessPage(() => refreshAnswer(0));
    await advance(AUTO_REFRESH_DELAY_MS);
    expect(
      screen.getByText('Subscription activated but access update is delayed. Please refresh in a moment.'),
    ).toBeTruthy();
    expect(screen.getByText('Attempt 1 failed. Your payment was successful.')).toBeTruthy();
    expect(screen.queryByText(/log out and log back in/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue to Dashboard' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Try Again' }).click());
    expect(pageLoads.reload).toHaveBeenCalledTimes(1);

    // The reload: the page starts over and counts on.
    first.view.unmount();
    renderSuccessPage(() => refreshAnswer(0));
    await advance(AUTO_REFRESH_DELAY_MS);
    expect(screen.getByText('Attempt 2 failed. Your payment was successful.')).toBeTruthy();
    expect(screen.getByText(/log out and log back in/)).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Continue to Dashboard' }).click());
    expect(screen.getByText('Dashboard')).toBeTruthy();
  });

  it.each<[string, () => void, TRefreshHandler, string]>([
    [
      'a network failure',
      () => setToken(makeToken()),
      () => HttpResponse.error(),
      'Network error while updating access. Please check your connection.',
    ],
    [
      'an answer without a token',
      () => setToken(makeToken()),
      () => refreshAnswer(3, ''),
      'No JWT token received from refresh.',
    ],
    [
      'an answer with a malformed token',
      () => setToken(makeToken()),
      () => refreshAnswer(3, 'not-a-jwt'),
      'Received invalid access token. Please contact support.',
    ],
    [
      'a server error',
      () => setToken(makeToken()),
      () => errorReply(500, 'boom', 'internal'),
      'An error occurred while updating your access.',
    ],
    ['no stored token', () => undefined, () => refreshAnswer(3), 'Authentication required.'],
    [
      'a stored token of the wrong shape',
      () => window.localStorage.setItem('authToken', 'abc'),
      () => refreshAnswer(3),
      'Invalid token format.',
    ],
  ])('shows the error view for %s', async (_name, arrange, handler, message) => {
    arrange();
    renderSuccessPage(handler);
    await advance(AUTO_REFRESH_DELAY_MS);
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(screen.getByText('Attempt 1 failed. Your payment was successful.')).toBeTruthy();
  });

  it('reports a token the browser could not store', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    renderSuccessPage(() => refreshAnswer(3));
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation((key) => {
      if (key === 'authToken') throw new Error('QuotaExceededError');
    });
    await advance(AUTO_REFRESH_DELAY_MS);
    setItem.mockRestore();
    expect(screen.getByRole('alert').textContent).toBe(
      'Failed to save updated access token. Your browser may have storage restrictions.',
    );
  });
});
