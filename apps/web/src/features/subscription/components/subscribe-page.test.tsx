import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  authEndpoints,
  billingEndpoints,
  projectsEndpoints,
  systemEndpoints,
  type THeldSubscription,
  type TSubscriptionPlan,
  type TUserSubscriptionResponse,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { buildUserSubscription } from '../../../test/subscription.test-support';
import { renderApp, testLocation } from '../../../test/render-app';
import { buildProject } from '../../../test/projects.test-support';
import { makeToken, mockMeAsToken } from '../../../test/tokens';
import { getToken, setToken } from '../../../lib/token-storage';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { DEMO_MODE_TEXT } from '../../../components/ui/demo-mode-badge';

let pageLoads: ReturnType<typeof recordPageLoads>;

const PLANS: TSubscriptionPlan[] = [
  {
    price_id: 'price_starter',
    product_name: 'Starter',
    amount: 2900,
    currency: 'usd',
    interval: 'month',
    interval_count: 1,
    profiles_limit: 1,
    description: 'For one brand',
  },
  {
    price_id: 'price_quarter',
    product_name: 'Quarterly',
    amount: 19900,
    currency: 'usd',
    interval: 'month',
    interval_count: 3,
    profiles_limit: 3,
    description: null,
  },
  {
    price_id: 'price_once',
    product_name: 'Lifetime',
    amount: 150000,
    currency: 'eur',
    interval: null,
    interval_count: 1,
    profiles_limit: 10,
    description: null,
  },
];

/** The answers the page needs; a test replaces the plans or adds a checkout afterwards. */
function mockPlansPage() {
  mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: true,
    main_app_url: null,
    support_chat_script_url: null,
    reddit_web_url: 'https://www.reddit.com',
    dm_expiry_days: 14,
  });
  mockEndpoint(authEndpoints.refreshWithToken, errorReply(401, 'No refresh token.', 'unauthorized'));
  mockEndpoint(projectsEndpoints.list, { items: [], total: 0, limit: 500, offset: 0 });
  return mockEndpoint(billingEndpoints.availablePlans, PLANS);
}

const SUBSCRIBER = '5d0c7a9e-4b21-4f3e-8c6a-2e9b1f0d7a34';

/** A plan the subscriber holds: active and running unless told otherwise. */
function held(
  priceId: string,
  status: THeldSubscription['status'] = 'active',
  more: Partial<THeldSubscription> = {},
): THeldSubscription {
  return {
    status,
    price_id: priceId,
    profiles_limit: 1,
    current_period_end: '2026-12-29T10:00:00.000Z',
    cancel_at_period_end: false,
    gives_access: true,
    ...more,
  };
}

const selectButtons = () => screen.queryAllByRole('button', { name: 'Select Plan' });

/** The subscriber's plan lookup: the plans they hold (none: no plan behind their limit). */
function mockSubscription(...subscriptions: THeldSubscription[]) {
  return mockEndpoint(
    billingEndpoints.userSubscription,
    buildUserSubscription({ user_id: SUBSCRIBER, subscription: subscriptions[0] ?? null, subscriptions }),
  );
}

beforeEach(() => {
  pageLoads = recordPageLoads();
  mockMeAsToken();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('/subscribe', () => {
  it('shows a card per plan with price, interval, profiles and description, without a bearer token', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    const plans = mockPlansPage();
    renderApp('/subscribe');
    const starter = await screen.findByRole('region', { name: 'Starter' });
    expect(within(starter).getByText('$29.00')).toBeTruthy();
    expect(within(starter).getByText('per month')).toBeTruthy();
    expect(within(starter).getByText('Up to 1 profile')).toBeTruthy();
    expect(within(starter).getByText('For one brand')).toBeTruthy();
    const quarterly = screen.getByRole('region', { name: 'Quarterly' });
    expect(within(quarterly).getByText('$199.00')).toBeTruthy();
    expect(within(quarterly).getByText('every 3 months')).toBeTruthy();
    const lifetime = screen.getByRole('region', { name: 'Lifetime' });
    expect(within(lifetime).getByText('€1,500.00')).toBeTruthy();
    expect(within(lifetime).getByText('one-time')).toBeTruthy();
    expect(within(lifetime).getByText('Up to 10 profiles')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Select Plan' })).toHaveLength(3);
    expect(screen.getByText(/card payment provider.*cancel anytime/)).toBeTruthy();
    expect(plans.calls[0]!.headers.get('Authorization')).toBeNull();
  });

  it('shows the demo-mode badge as the other pages do, and none outside the demo', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    mockPlansPage();
    const demo = renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(screen.getByText(DEMO_MODE_TEXT)).toBeTruthy();
    demo.unmount();

    mockEndpoint(systemEndpoints.publicConfig, {
      demo_mode: false,
      main_app_url: null,
      support_chat_script_url: null,
      reddit_web_url: 'https://www.reddit.com',
      dm_expiry_days: 14,
    });
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(screen.queryByText(DEMO_MODE_TEXT)).toBeNull();
  });

  it("starts checkout: the chosen card shows 'Loading...' and the browser goes to the checkout page", async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    mockPlansPage();
    const checkout = mockEndpoint(billingEndpoints.createCheckoutSession, {
      session_id: 'cs_1',
      customer_id: 'cus_1',
      checkout_url: 'https://checkout.example/cs_1',
      profiles_limit: 3,
    });
    renderApp('/subscribe');
    const quarterly = await screen.findByRole('region', { name: 'Quarterly' });
    await userEvent.click(within(quarterly).getByRole('button', { name: 'Select Plan' }));
    await waitFor(() => expect(pageLoads.left).toEqual(['https://checkout.example/cs_1']));
    expect(within(quarterly).getByRole('button', { name: 'Loading...' })).toBeTruthy();
    const starter = screen.getByRole('region', { name: 'Starter' });
    expect(within(starter).getByRole('button', { name: 'Select Plan' }).hasAttribute('disabled')).toBe(true);
    const sent = checkout.calls[0]!;
    expect(sent.rawBody).toEqual({ price_id: 'price_quarter' });
    expect(sent.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it("says 'No subscription plans available.' when there are none", async () => {
    mockPlansPage();
    mockEndpoint(billingEndpoints.availablePlans, []);
    renderApp('/subscribe');
    expect(await screen.findByText('No subscription plans available.')).toBeTruthy();
  });

  it("shows a failed plan load with 'Try Again' and 'Sign In First'", async () => {
    let fail = true;
    mockPlansPage();
    const plans = mockEndpoint(billingEndpoints.availablePlans, () =>
      fail ? errorReply(500, 'x', 'internal') : PLANS,
    );
    renderApp('/subscribe');
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('Failed to load subscription options. Please try again later.'),
    ).toBeTruthy();
    expect(within(alert).getByText('Failed to fetch available plans: 500')).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Starter' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(plans.calls).toHaveLength(2);
  });

  it("'Sign In First' goes to the login page and back to /subscribe afterwards", async () => {
    mockPlansPage();
    mockEndpoint(billingEndpoints.availablePlans, errorReply(503, 'down', 'x'));
    renderApp('/subscribe');
    const alert = await screen.findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Sign In First' }));
    await waitFor(() => expect(testLocation()).toBe('/login?redirect=%2Fsubscribe'));
    expect(await screen.findByText('Authentication Required')).toBeTruthy();
  });

  it('asks to log in first when nobody is signed in, without calling the server', async () => {
    mockPlansPage();
    renderApp('/subscribe');
    const starter = await screen.findByRole('region', { name: 'Starter' });
    await userEvent.click(within(starter).getByRole('button', { name: 'Select Plan' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Authentication required. Please log in first.')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Sign In First' })).toBeTruthy();
    const checkoutPath = billingEndpoints.createCheckoutSession.path;
    expect(sentRequests().filter((r) => r.url.pathname === checkoutPath)).toHaveLength(0);
    expect(within(starter).getByRole('button', { name: 'Select Plan' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows a failed checkout with its status', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    mockPlansPage();
    mockEndpoint(
      billingEndpoints.createCheckoutSession,
      errorReply(502, 'Stripe down', 'payment_provider_unavailable'),
    );
    renderApp('/subscribe');
    const starter = await screen.findByRole('region', { name: 'Starter' });
    await userEvent.click(within(starter).getByRole('button', { name: 'Select Plan' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to start checkout process. Please try again.')).toBeTruthy();
    expect(within(alert).getByText('Failed to create checkout session: 502')).toBeTruthy();
    expect(pageLoads.left).toEqual([]);
  });
});

describe('/subscribe account bar', () => {
  const accountBar = () => screen.getByRole('navigation', { name: 'Account' });

  it('lets a customer without a subscription log out, ending on the sign-in screen', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    localStorage.setItem('selectedProjectId', '11111111-1111-4111-8111-111111111111');
    mockPlansPage();
    const logout = mockEndpoint(authEndpoints.logout, undefined);
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(within(accountBar()).queryByRole('link', { name: 'Go to Dashboard' })).toBeNull();
    await userEvent.click(within(accountBar()).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Authentication Required')).toBeTruthy();
    expect(testLocation()).toBe('/');
    expect(getToken()).toBeNull();
    expect(logout.calls).toHaveLength(1);
    expect(localStorage.getItem('selectedProjectId')).toBeNull();
  });

  it('offers subscribers a link back to the dashboard, and marks their plan instead of selling it again', async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 1 }));
    mockPlansPage();
    mockSubscription(held('price_starter'));
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    const link = within(accountBar()).getByRole('link', { name: 'Go to Dashboard' });
    expect(link.getAttribute('href')).toBe('/');
    expect(within(accountBar()).getByRole('button', { name: 'Logout' })).toBeTruthy();

    const starter = screen.getByRole('region', { name: 'Starter' });
    expect(await within(starter).findByText('Your plan')).toBeTruthy();
    expect(within(starter).getByRole('button', { name: 'Current Plan' }).hasAttribute('disabled')).toBe(true);
    // No second plan is offered beside it.
    const quarterly = screen.getByRole('region', { name: 'Quarterly' });
    expect(within(quarterly).queryByRole('button')).toBeNull();
    expect(selectButtons()).toHaveLength(0);
    expect(screen.getByText('You have the Starter plan')).toBeTruthy();
    expect(
      screen.getByText(/No second plan is sold while yours runs\. To change or cancel yours, open/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Subscription' }).getAttribute('href')).toBe('/subscription');
  });

  it("offers no plan for sale before the subscriber's plans are known", async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 1 }));
    mockPlansPage();
    let answer: ((value: TUserSubscriptionResponse) => void) | null = null;
    mockEndpoint(
      billingEndpoints.userSubscription,
      () => new Promise<TUserSubscriptionResponse>((resolve) => (answer = resolve)),
    );
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(selectButtons()).toHaveLength(0);
    await waitFor(() => expect(answer).not.toBeNull());
    answer!(buildUserSubscription({ user_id: SUBSCRIBER }));
    // Profiles given by an administrator, no plan behind them: any plan is for sale.
    await waitFor(() => expect(selectButtons()).toHaveLength(3));
  });

  it.each([
    ['canceled in the demo billing page', held('price_starter', 'canceled')],
    [
      'set to cancel at the period end in Stripe',
      held('price_starter', 'active', { cancel_at_period_end: true }),
    ],
  ])('says a plan %s still runs until its end, and sells none beside it', async (_how, plan) => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 1 }));
    mockPlansPage();
    mockSubscription(plan);
    const checkout = mockEndpoint(billingEndpoints.createCheckoutSession, errorReply(500, 'x', 'internal'));
    renderApp('/subscribe');
    const notice = await screen.findByText('Your Starter plan runs until Dec 29, 2026');
    const alert = notice.closest<HTMLElement>('.mantine-Alert-root')!;
    expect(
      within(alert).getByText(
        /It was canceled and keeps its profiles until then\. You can choose a plan again once it has ended; to resume or manage it, open/,
      ),
    ).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Subscription' }).getAttribute('href')).toBe(
      '/subscription',
    );
    const starter = screen.getByRole('region', { name: 'Starter' });
    expect(within(starter).getByText('Your plan')).toBeTruthy();
    expect(within(starter).getByRole('button', { name: 'Current Plan' }).hasAttribute('disabled')).toBe(true);
    expect(selectButtons()).toHaveLength(0);
    expect(checkout.calls).toHaveLength(0);
  });

  it('sells a plan again once the last one has ended, though the token still says otherwise', async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 1 }));
    mockPlansPage();
    mockSubscription(
      held('price_starter', 'canceled', {
        current_period_end: '2025-11-29T10:00:00.000Z',
        gives_access: false,
      }),
    );
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    await waitFor(() => expect(selectButtons()).toHaveLength(3));
    expect(screen.queryByText('Your plan')).toBeNull();
    expect(screen.queryByText(/runs until/)).toBeNull();
  });

  it('marks every plan the customer holds that still runs, and sells none beside them', async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 3 }));
    mockPlansPage();
    // Held from before one plan at a time: Quarterly twice (one canceled, still running) and Starter.
    mockSubscription(held('price_quarter'), held('price_quarter', 'canceled'), held('price_starter'));
    const checkout = mockEndpoint(billingEndpoints.createCheckoutSession, errorReply(500, 'x', 'internal'));
    renderApp('/subscribe');
    expect(await screen.findByText('You have the Starter and Quarterly plans')).toBeTruthy();
    for (const name of ['Starter', 'Quarterly']) {
      const card = screen.getByRole('region', { name });
      expect(within(card).getByText('Your plan')).toBeTruthy();
      expect(within(card).getByRole('button', { name: 'Current Plan' }).hasAttribute('disabled')).toBe(true);
    }
    const lifetime = screen.getByRole('region', { name: 'Lifetime' });
    expect(within(lifetime).queryByText('Your plan')).toBeNull();
    expect(within(lifetime).queryByRole('button')).toBeNull();
    expect(checkout.calls).toHaveLength(0);
  });

  it('shows why the server sold no plan beside one bought meanwhile, without offering to retry or sign in', async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 3 }));
    mockPlansPage();
    // Bought in another tab since this page loaded: the first lookup does not know it yet.
    let plans: THeldSubscription[] = [];
    const lookup = mockEndpoint(billingEndpoints.userSubscription, () => ({
      user_id: SUBSCRIBER,
      user_email: 'user@example.com',
      profiles_limit: 3,
      projects_limit: 3,
      projects_used: 0,
      accounts_used: 0,
      unlimited: false,
      has_active_subscription: true,
      subscription: plans[0] ?? null,
      subscriptions: plans,
    }));
    mockEndpoint(
      billingEndpoints.createCheckoutSession,
      errorReply(
        409,
        'You already have the Quarterly plan. Change or cancel it under Subscription.',
        'already_subscribed',
      ),
    );
    renderApp('/subscribe');
    const starter = await screen.findByRole('region', { name: 'Starter' });
    await waitFor(() => expect(selectButtons()).toHaveLength(3));
    plans = [held('price_quarter')];
    await userEvent.click(within(starter).getByRole('button', { name: 'Select Plan' }));

    const alert = await screen.findByRole('alert', {
      name: 'You already have the Quarterly plan. Change or cancel it under Subscription.',
    });
    expect(within(alert).getByRole('link', { name: 'Subscription' }).getAttribute('href')).toBe(
      '/subscription',
    );
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(screen.queryByText('Failed to start checkout process. Please try again.')).toBeNull();
    expect(screen.queryByText(/Failed to create checkout session/)).toBeNull();
    // The page asks again, marks the plan as the customer's and sells none beside it.
    expect(await screen.findByText('You have the Quarterly plan')).toBeTruthy();
    const quarterly = screen.getByRole('region', { name: 'Quarterly' });
    expect(within(quarterly).getByRole('button', { name: 'Current Plan' })).toBeTruthy();
    expect(selectButtons()).toHaveLength(0);
    expect(lookup.calls.length).toBeGreaterThan(1);
    expect(pageLoads.left).toEqual([]);
  });

  it.each([['MODERATOR'], ['ADMIN']])(
    'tells a %s they need no plan, with the dashboard link and no plan for sale',
    async (role) => {
      setToken(makeToken({ roles: [role], profiles_limit: 0 }));
      mockPlansPage();
      const lookup = mockEndpoint(billingEndpoints.userSubscription, errorReply(500, 'x', 'internal'));
      renderApp('/subscribe');
      await screen.findByRole('region', { name: 'Starter' });
      expect(within(accountBar()).getByRole('link', { name: 'Go to Dashboard' })).toBeTruthy();
      expect(screen.getByText('You need no plan')).toBeTruthy();
      // Nothing to choose: the page lists the plans under a plain title.
      expect(screen.getByRole('heading', { name: 'Plans' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Choose a plan' })).toBeNull();
      expect(
        screen.getByText('Moderators and admins work without a plan: your profiles have no limit.'),
      ).toBeTruthy();
      expect(screen.queryAllByRole('button', { name: /Select Plan|Current Plan/ })).toHaveLength(0);
      expect(screen.queryByRole('region', { name: 'Your projects' })).toBeNull();
      expect(lookup.calls).toHaveLength(0);
    },
  );

  it.each([[0], [3]])(
    "shows a read-only account (profiles_limit %i) the plans with no Select Plan, saying why in the spec's words",
    async (limit) => {
      setToken(makeToken({ sub: SUBSCRIBER, roles: ['READONLY'], profiles_limit: limit }));
      mockPlansPage();
      mockSubscription();
      const checkout = mockEndpoint(
        billingEndpoints.createCheckoutSession,
        errorReply(403, 'READONLY cannot save', 'forbidden'),
      );
      renderApp('/subscribe');
      const starter = await screen.findByRole('region', { name: 'Starter' });
      expect(within(starter).getByText('$29.00')).toBeTruthy();
      // The server refuses READONLY a checkout (403), so none is offered.
      expect(screen.queryAllByRole('button', { name: /Select Plan|Current Plan/ })).toHaveLength(0);
      expect(
        screen.getByText('Your account has read-only access. Contact your administrator to modify data.'),
      ).toBeTruthy();
      expect(
        screen.getByText(
          'Plans for this account are chosen by your administrator, so none can be selected here.',
        ),
      ).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Plans' })).toBeTruthy();
      expect(checkout.calls).toHaveLength(0);
    },
  );

  it("shows the server's word when it sells no plan to a moderator the page took for a customer", async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    mockPlansPage();
    const detail =
      'Moderators and admins need no plan: their profiles have no limit, so there is nothing to buy.';
    mockEndpoint(billingEndpoints.createCheckoutSession, errorReply(403, detail, 'no_plan_needed'));
    renderApp('/subscribe');
    const starter = await screen.findByRole('region', { name: 'Starter' });
    await userEvent.click(within(starter).getByRole('button', { name: 'Select Plan' }));
    const alert = await screen.findByRole('alert', { name: detail });
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(screen.queryByText(/You don't have permission/)).toBeNull();
    expect(pageLoads.left).toEqual([]);
  });

  it('shows neither to a visitor who is not signed in', async () => {
    mockPlansPage();
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(screen.queryByRole('navigation', { name: 'Account' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });
});

describe('/subscribe for a customer whose plan has ended', () => {
  const P1 = '11111111-1111-4111-8111-111111111111';
  const P2 = '22222222-2222-4222-8222-222222222222';
  const project = buildProject;

  it('lists their projects, and deletes one after a second click that names it', async () => {
    setToken(makeToken({ sub: 'user-1', profiles_limit: 0 }));
    mockPlansPage();
    let list = [project(P1, 'Spring campaign'), project(P2, 'Old test')];
    mockEndpoint(projectsEndpoints.list, () => ({ items: list, total: list.length, limit: 500, offset: 0 }));
    const remove = mockEndpoint(projectsEndpoints.delete, ({ params }) => {
      list = list.filter((p) => p.id !== params.projectId);
      return undefined;
    });
    renderApp('/subscribe');
    const card = await screen.findByRole('region', { name: 'Your projects' });
    expect(within(card).getByText('Spring campaign')).toBeTruthy();
    // What stopped with the plan, and the way back, are told on /subscription.
    expect(within(card).getByRole('link', { name: 'Subscription' }).getAttribute('href')).toBe(
      '/subscription',
    );
    const row = within(card).getByText('Old test').parentElement!;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete Project' }));
    expect(within(row).getByText('Delete "Old test"? This cannot be undone.')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('✅ Project deleted successfully')).toBeTruthy();
    await waitFor(() => expect(within(card).queryByText('Old test')).toBeNull());
    expect(remove.calls.map((c) => c.params.projectId)).toEqual([P2]);
    expect(within(card).getByText('Spring campaign')).toBeTruthy();
  });

  it('shows no project list to subscribers, or to a customer without projects', async () => {
    setToken(makeToken({ sub: SUBSCRIBER, profiles_limit: 3 }));
    mockPlansPage();
    mockSubscription();
    mockEndpoint(projectsEndpoints.list, { items: [project(P1, 'A')], total: 1, limit: 500, offset: 0 });
    const first = renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    expect(screen.queryByRole('region', { name: 'Your projects' })).toBeNull();
    first.unmount();

    setToken(makeToken({ sub: 'user-1', profiles_limit: 0 }));
    mockPlansPage();
    const list = mockEndpoint(projectsEndpoints.list, { items: [], total: 0, limit: 500, offset: 0 });
    renderApp('/subscribe');
    await screen.findByRole('region', { name: 'Starter' });
    await waitFor(() => expect(list.calls.length).toBeGreaterThan(0));
    expect(screen.queryByRole('region', { name: 'Your projects' })).toBeNull();
  });
});
