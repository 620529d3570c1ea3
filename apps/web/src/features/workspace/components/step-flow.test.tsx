import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  dmsEndpoints,
  historyEndpoints,
  accountsEndpoints,
  keywordsEndpoints,
  leadsEndpoints,
  productInfoEndpoints,
  projectsEndpoints,
  searchEndpoints,
  sendingEndpoints,
  subredditsEndpoints,
  systemEndpoints,
  usersEndpoints,
  type TProductInfo,
} from '@threadreach/contract';
import { mockEndpoint } from '../../../test/api-mock.test-support';
import { mockAgentAtRest } from '../../../test/agent.test-support';
import {
  buildKeyword,
  buildProject,
  buildSubreddit,
  dmGenerationStatus,
  generationStatus,
  keywordList,
  dmPage,
  page,
  PROJECT_ID,
  searchStatus,
  sendingStatus,
  subredditList,
} from '../../../test/discovery.test-support';
import { buildCampaignStatistics } from '../../history/history.test-support';
import { accountList } from '../../../test/accounts.test-support';
import { renderApp } from '../../../test/render-app';
import { createQueryClient } from '../../../app/query-client';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';

const user = userEvent.setup({ delay: null });

async function expectHeadingFocused(name: string) {
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name })));
}

const INFO: TProductInfo = {
  project_id: PROJECT_ID,
  product_description:
    'A bookkeeping app for freelance designers that turns invoices into tax-ready reports.',
  ideal_client_profile: 'Freelance designers in the US who do their own taxes.',
  call_to_action: 'Try it free for 30 days.',
  writing_style: 'Friendly and brief.',
  updated_at: '2030-01-01T00:00:00Z',
};

function signedInWithProject() {
  setToken(makeToken());
  mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: false,
    main_app_url: null,
    support_chat_script_url: null,
    reddit_web_url: 'https://www.reddit.com',
    dm_expiry_days: 14,
  });
  mockEndpoint(usersEndpoints.me, {
    user_id: 'user-1',
    email: 'user@example.com',
    roles: ['USER'],
    profiles_limit: 3,
    projects_used: 1,
  });
  mockEndpoint(projectsEndpoints.list, { items: [buildProject()], total: 1, limit: 500, offset: 0 });
  mockEndpoint(productInfoEndpoints.get, INFO);
  mockEndpoint(accountsEndpoints.list, accountList([]));
  mockAgentAtRest();
}

/** Step 4's reads, all empty. */
function resultsMocked() {
  mockEndpoint(leadsEndpoints.posts, page([]));
  mockEndpoint(leadsEndpoints.comments, page([]));
  mockEndpoint(leadsEndpoints.profiles, page([]));
  mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
  mockEndpoint(searchEndpoints.enhancedStatus, searchStatus());
  mockEndpoint(dmsEndpoints.list, dmPage([]));
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  mockEndpoint(sendingEndpoints.status, sendingStatus());
}

describe('workflow transitions', { timeout: 20_000 }, () => {
  it('step 1 with generation -> step 2 -> Approve & Continue -> step 3 with progress -> step 4', async () => {
    signedInWithProject();
    const keyword = buildKeyword({ keyword: 'invoice software', approved: true });
    const subreddit = buildSubreddit({ subreddit_name: 'freelance', approved: true });
    mockEndpoint(productInfoEndpoints.saveAndRegenerate, {
      product_info: INFO,
      regenerate_keywords: true,
      keywords_generated: false,
      keywords_error: 'The AI engine did not answer in time',
    });
    mockEndpoint(keywordsEndpoints.list, keywordList([keyword]));
    mockEndpoint(keywordsEndpoints.approve, ({ body }) => {
      // Approving with generation starts it; the status says so from now on.
      mockEndpoint(
        subredditsEndpoints.status,
        generationStatus({
          status: 'generating',
          duration_seconds: 2,
          progress: { phase: 'suggesting', items_read: 0, leads_found: 0 },
        }),
      );
      return {
        keywords: [keyword],
        approved_count: 1,
        filters: { negative_keywords: [], excluded_subreddits: [], excluded_authors: [] },
        subreddit_generation: body.generate_subreddits ? ('started' as const) : ('not_requested' as const),
      };
    });
    mockEndpoint(subredditsEndpoints.list, subredditList([subreddit]));
    const approveSubreddits = mockEndpoint(subredditsEndpoints.approve, {
      approved_count: 1,
      subreddits: [subreddit],
    });

    resultsMocked();

    // This browser was on step 1 of the project.
    localStorage.setItem(`projectStep:${PROJECT_ID}`, '1');
    renderApp('/');
    const form = await screen.findByRole('form', { name: 'Product Information' });
    await user.click(within(form).getByRole('button', { name: 'Save & Generate Keywords' }));
    expect(await screen.findByText('Keyword generation failed - you can retry in Step 2.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Keywords' })).toBeTruthy();
    await expectHeadingFocused('Keywords');
    expect(localStorage.getItem(`projectStep:${PROJECT_ID}`)).toBe('2');

    await user.click(await screen.findByRole('button', { name: 'Approve & Continue' }));
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
    await expectHeadingFocused('Subreddits');
    const progress = await screen.findByRole('status', { name: 'Generating subreddits...' });
    expect(progress.textContent).toContain('Phase: suggesting · 2 s');
    expect(localStorage.getItem(`projectStep:${PROJECT_ID}`)).toBe('3');

    await user.click(await screen.findByRole('button', { name: 'Approve & Continue' }));
    await waitFor(() => expect(approveSubreddits.calls).toHaveLength(1));
    expect(await screen.findByRole('heading', { name: 'Posts & Messages' })).toBeTruthy();
    await expectHeadingFocused('Posts & Messages');
    expect(localStorage.getItem(`projectStep:${PROJECT_ID}`)).toBe('4');
  });

  it('shows the keywords Save & Generate Keywords wrote when step 2 opens again, not those it showed before', async () => {
    signedInWithProject();
    localStorage.setItem(`projectStep:${PROJECT_ID}`, '2');
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ keyword: 'invoice software' })]));
    // The app's own cache, whose answers stay fresh for 30 s.
    renderApp('/', createQueryClient());
    expect(await screen.findByRole('checkbox', { name: /invoice software/ })).toBeTruthy();

    const nav = screen.getByRole('navigation', { name: 'Workflow steps' });
    await user.click(within(nav).getByRole('button', { name: /Product Information/ }));
    const form = await screen.findByRole('form', { name: 'Product Information' });
    mockEndpoint(productInfoEndpoints.saveAndRegenerate, {
      product_info: INFO,
      regenerate_keywords: true,
      keywords_generated: true,
      keywords_error: null,
    });
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ keyword: 'dog grooming' })]));
    await user.click(within(form).getByRole('button', { name: 'Save & Generate Keywords' }));
    expect(await screen.findByRole('checkbox', { name: /dog grooming/ })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /invoice software/ })).toBeNull();
  });

  it("lands keyboard focus on the new step's heading after Back and Skip, not on the page", async () => {
    signedInWithProject();
    localStorage.setItem(`projectStep:${PROJECT_ID}`, '2');
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ keyword: 'invoice software' })]));
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    mockEndpoint(subredditsEndpoints.status, generationStatus());
    renderApp('/');
    const keywords = await screen.findByRole('heading', { name: 'Keywords' });
    // Opening the workspace leaves focus where the browser put it.
    expect(document.activeElement).not.toBe(keywords);

    await user.click(await screen.findByRole('button', { name: 'Skip to Subreddits' }));
    await expectHeadingFocused('Subreddits');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await expectHeadingFocused('Keywords');
    expect(screen.getByRole('heading', { name: 'Keywords' }).getAttribute('tabindex')).toBe('-1');

    // A step chosen in the sidebar keeps focus on its button there.
    const nav = screen.getByRole('navigation', { name: 'Workflow steps' });
    const product = within(nav).getByRole('button', { name: /Product Information/ });
    await user.click(product);
    expect(await screen.findByRole('form', { name: 'Product Information' })).toBeTruthy();
    expect(document.activeElement).toBe(product);
  });

  it('shows the step open as a region named after it, so its landmark leads to it', async () => {
    signedInWithProject();
    localStorage.setItem(`projectStep:${PROJECT_ID}`, '2');
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ keyword: 'invoice software' })]));
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    mockEndpoint(subredditsEndpoints.status, generationStatus());
    renderApp('/');
    const step2 = await screen.findByRole('region', { name: 'Keywords' });
    expect(await within(step2).findByRole('heading', { name: 'Keywords' })).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Skip to Subreddits' }));
    const step3 = await screen.findByRole('region', { name: 'Subreddits' });
    expect(await within(step3).findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Keywords' })).toBeNull();
  });
});

describe('the step a project opens on', { timeout: 20_000 }, () => {
  it('opens a project set up earlier on its results where this browser keeps no step (another browser, or after logout)', async () => {
    signedInWithProject();
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ approved: true })]));
    mockEndpoint(subredditsEndpoints.list, subredditList([buildSubreddit({ approved: true })]));
    resultsMocked();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Posts & Messages' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Product Information' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Workflow steps' });
    expect(
      within(nav)
        .getByRole('button', { name: /Posts & Messages/ })
        .getAttribute('aria-current'),
    ).toBe('step');
    expect(localStorage.getItem(`projectStep:${PROJECT_ID}`)).toBe('4');
    // Opening is no change of step: focus stays where the browser put it.
    expect(document.activeElement).not.toBe(screen.getByRole('heading', { name: 'Posts & Messages' }));
  });

  it('opens on the first step not done yet: keywords not approved, then subreddits', async () => {
    signedInWithProject();
    const keywords = mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ approved: false })]));
    mockEndpoint(subredditsEndpoints.list, subredditList([buildSubreddit({ approved: true })]));
    mockEndpoint(subredditsEndpoints.status, generationStatus());
    const first = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Keywords' })).toBeTruthy();
    expect(keywords.calls.length).toBeGreaterThan(0);
    first.unmount();

    localStorage.removeItem(`projectStep:${PROJECT_ID}`);
    mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ approved: true })]));
    mockEndpoint(subredditsEndpoints.list, subredditList([buildSubreddit({ approved: false })]));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
  });

  it('keeps the step this browser was on, without reading what is done', async () => {
    signedInWithProject();
    localStorage.setItem(`projectStep:${PROJECT_ID}`, '1');
    const keywords = mockEndpoint(keywordsEndpoints.list, keywordList([buildKeyword({ approved: true })]));
    renderApp('/');
    expect(await screen.findByRole('form', { name: 'Product Information' })).toBeTruthy();
    expect(keywords.calls).toHaveLength(0);
  });
});
