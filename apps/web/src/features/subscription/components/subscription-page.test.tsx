import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  authEndpoints,
  billingEndpoints,
  projectsEndpoints,
  systemEndpoints,
  type THeldSubscription,
  type TUserSubscriptionResponse,
} from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { buildUserSubscription } from '../../../test/subscription.test-support';
import { renderApp } from '../../../test/render-app';
import { makeToken, mockMeAsToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { DEMO_MODE_TEXT } from '../../../components/ui/demo-mode-badge';

let pageLoads: ReturnType<typeof recordPageLoads>;

const USER_ID = '0b6f1c52-2b0e-4c57-9a4e-7d1f3c2a9e10';
const GROWTH: THeldSubscription = {
  status: 'active',
  price_id: 'price_growth',
  profiles_limit: 3,
  current_period_end: '2026-12-29T10:00:00.000Z',
  cancel_at_period_end: false,
  gives_access: true,
};
/** The lookup's plans: `subscription` is the first of `subscriptions`. */
const holding = (...subscriptions: THeldSubscription[]) => ({
  subscription: subscriptions[0] ?? null,
  subscriptions,
});
const SUBSCRIBED: TUserSubscriptionResponse = buildUserSubscription({
  user_id: USER_ID,
  profiles_limit: 3,
  projects_limit: 3,
  projects_used: 1,
  accounts_used: 3,
  ...holding(GROWTH),
});

function mockPage(subscription: TUserSubscriptionResponse = SUBSCRIBED) {
  mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: true,
    main_app_url: null,
    support_chat_script_url: null,
    reddit_web_url: 'https://www.reddit.com',
    dm_expiry_days: 14,
  });
  mockEndpoint(authEndpoints.refreshWithToken, errorReply(401, 'No refresh token.', 'unauthorized'));
  mockEndpoint(projectsEndpoints.list, { items: [], total: 0, limit: 500, offset: 0 });
  mockEndpoint(billingEndpoints.availablePlans, [
    {
      price_id: 'price_growth',
      product_name: 'Growth',
      amount: 7900,
      currency: 'usd',
      interval: 'month',
      interval_count: 1,
      profiles_limit: 3,
      description: null,
    },
    {
      price_id: 'price_starter',
      product_name: 'Starter',
      amount: 2900,
      currency: 'usd',
      interval: 'month',
      interval_count: 1,
      profiles_limit: 1,
      description: null,
    },
  ]);
  mockEndpoint(billingEndpoints.userSubscription, subscription);
}

beforeEach(() => {
  pageLoads = recordPageLoads();
  mockMeAsToken();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('/subscription', () => {
  it("shows the plan and opens the provider's page to change or cancel it", async () => {
    setToken(makeToken({ sub: USER_ID }));
    mockPage();
    const portal = mockEndpoint(billingEndpoints.createPortalSession, {
      portal_url: 'https://billing.example/session/bps_1',
    });
    renderApp('/subscription');
    expect(await screen.findByText('Plan: Growth')).toBeTruthy();
    expect(screen.getByText('Status: active')).toBeTruthy();
    expect(screen.getByText('Renews Dec 29, 2026')).toBeTruthy();
    // The limit counts projects and connected Reddit accounts alike: both are shown against it.
    expect(screen.getByText('Profiles: up to 3')).toBeTruthy();
    expect(screen.getByText('Projects: 1/3 used')).toBeTruthy();
    expect(screen.getByText('Reddit accounts: 3/3 connected')).toBeTruthy();
    // The billing page it opens in the demo charges no card.
    expect(screen.getByText(DEMO_MODE_TEXT)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => expect(pageLoads.left).toEqual(['https://billing.example/session/bps_1']));
    expect(portal.calls).toHaveLength(1);
    expect(portal.calls[0]!.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('lists every plan the customer holds: a second plan beside the first, and one canceled', async () => {
    setToken(makeToken({ sub: USER_ID }));
    mockPage({
      ...SUBSCRIBED,
      ...holding(
        GROWTH,
        { ...GROWTH, status: 'canceled', current_period_end: '2026-12-01T10:00:00.000Z' },
        {
          ...GROWTH,
          price_id: 'price_starter',
          profiles_limit: 1,
          current_period_end: '2027-01-05T10:00:00.000Z',
        },
      ),
    });
    renderApp('/subscription');
    const plans = await screen.findByRole('list', { name: 'Your plans' });
    const items = within(plans).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Plan: GrowthStatus: activeRenews Dec 29, 2026',
      'Plan: GrowthStatus: canceledAccess ends Dec 1, 2026',
      'Plan: StarterStatus: activeRenews Jan 5, 2027',
    ]);
    expect(screen.getByText('You hold 3 plans; the highest limit applies.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Manage subscription' })).toHaveLength(1);
  });

  it("says why the billing page did not open, and a canceled plan's last day", async () => {
    setToken(makeToken({ sub: USER_ID }));
    mockPage({ ...SUBSCRIBED, ...holding({ ...GROWTH, status: 'canceled' }) });
    mockEndpoint(
      billingEndpoints.createPortalSession,
      errorReply(502, 'The payment provider could not be reached. Please try again.', 'x'),
    );
    renderApp('/subscription');
    expect(await screen.findByText('Access ends Dec 29, 2026')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not open the billing page. Please try again.',
    );
    expect(pageLoads.left).toEqual([]);
  });

  it('says plainly that access ended, what stopped with it, and offers the plans instead of the dashboard', async () => {
    setToken(makeToken({ sub: USER_ID, profiles_limit: 0 }));
    // Canceled, and its paid period over: the expiry job has lowered the limit to 0.
    const ended = {
      ...GROWTH,
      status: 'canceled' as const,
      current_period_end: '2025-11-29T10:00:00.000Z',
      gives_access: false,
    };
    const lapsed = { ...SUBSCRIBED, profiles_limit: 0, projects_limit: 0, has_active_subscription: false };
    mockPage({ ...lapsed, projects_used: 1, accounts_used: 1, ...holding(ended) });
    const { unmount } = renderApp('/subscription');
    expect(
      await screen.findByText('Your Growth plan ended on Nov 29, 2025. You no longer have access.'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'DMs still queued when it ended were taken back to your unsent DMs, and your agents were paused. Your projects, Reddit accounts and DMs are kept.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'After you subscribe again, Send All queues those DMs again, and completing learning again restarts an agent.',
      ),
    ).toBeTruthy();
    // No limit of 0 to count against, no billing page for a plan that is over, no dashboard to go back to.
    expect(screen.queryByText(/^Status:|^Access ends|^Profiles:|^Projects:|^Reddit accounts:/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to dashboard' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/subscribe');
    unmount();

    // Ended early (a payment Stripe gave up on): the period it names has not run out, so no date.
    mockPage({ ...lapsed, ...holding({ ...ended, current_period_end: '2099-01-01T10:00:00.000Z' }) });
    renderApp('/subscription');
    expect(await screen.findByText('Your Growth plan has ended. You no longer have access.')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Choose a plan' }));
    expect(await screen.findByText('Starter')).toBeTruthy();
  });

  it('offers no billing page to a READONLY account or to a user without a plan', async () => {
    setToken(makeToken({ sub: USER_ID, roles: ['READONLY'] }));
    mockPage();
    const { unmount } = renderApp('/subscription');
    expect(await screen.findByText('Status: active')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    unmount();

    setToken(makeToken({ sub: USER_ID, profiles_limit: 0 }));
    mockPage({ ...SUBSCRIBED, profiles_limit: 0, has_active_subscription: false, ...holding() });
    const { unmount: unmount2 } = renderApp('/subscription');
    expect(await screen.findByText('No subscription yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toBeTruthy();
    unmount2();

    // Demo and hand-made accounts: a limit with no plan behind it.
    setToken(makeToken({ sub: USER_ID }));
    mockPage({ ...SUBSCRIBED, ...holding() });
    renderApp('/subscription');
    expect(
      await screen.findByText('Your profiles were given by an administrator: there is no plan to manage.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
  });
});
