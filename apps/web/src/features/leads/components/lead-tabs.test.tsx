import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  COMMENT_PREVIEW_LENGTH,
  dmsEndpoints,
  leadsEndpoints,
  POST_PREVIEW_LENGTH,
  type TComment,
  type TPost,
  type TProfile,
} from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import {
  buildComment,
  buildDm,
  buildPost,
  buildProfile,
  advance,
  page,
  PROJECT_ID,
  renderScreen,
  withoutAiSubscription,
} from '../../../test/discovery.test-support';
import { EMPTY_LEADS_REFRESH_MS } from '../hooks/use-leads';
import { LeadTabs, scoreHint, SEARCH_HINT } from './lead-tabs';

const user = userEvent.setup({ delay: null });

const TITLE = 'Looking for a bookkeeping app that does invoices';
const BODY =
  'I am a freelance designer. Any invoice software that exports tax reports? My accountant wants CSV.';
const POST = buildPost({
  title: TITLE,
  content: BODY,
  author: 'pixel_pat',
  subreddit: 'freelance',
  permalink: '/r/freelance/comments/abc123/looking_for/',
  account_age_days: 800,
  comment_karma: 1520,
  matched_keywords: [
    'bookkeeping app',
    'invoice software',
    'tax reports',
    'invoices',
    'csv',
    'accountant',
    'freelance',
  ],
  matches: [
    { keyword: 'bookkeeping app', field: 'title', start: 14, end: 29 },
    { keyword: 'invoices', field: 'title', start: 40, end: 48 },
    { keyword: 'invoice software', field: 'body', start: 31, end: 47 },
    { keyword: 'tax reports', field: 'body', start: 61, end: 72 },
  ],
  intent_score: 84,
  intent_reasons: ['Asks for a tool', 'Complains about a problem'],
});

function mockLists(lists: { posts?: TPost[]; comments?: TComment[]; profiles?: TProfile[] } = {}) {
  return {
    posts: mockEndpoint(leadsEndpoints.posts, page(lists.posts ?? [])),
    comments: mockEndpoint(leadsEndpoints.comments, page(lists.comments ?? [])),
    profiles: mockEndpoint(leadsEndpoints.profiles, page(lists.profiles ?? [])),
  };
}

function renderTabs(readOnly = false, onDmGenerated?: () => void, aiBlocked = false) {
  mockPublicConfig();
  const tabs = <LeadTabs projectId={PROJECT_ID} readOnly={readOnly} onDmGenerated={onDmGenerated} />;
  return renderScreen(aiBlocked ? withoutAiSubscription(tabs) : tabs);
}

const marks = (element: HTMLElement) => [...element.querySelectorAll('mark')].map((m) => m.textContent);

describe('Step 4 results', { timeout: 15_000 }, () => {
  it('shows a post with its matched keywords highlighted from the offsets', async () => {
    mockLists({ posts: [POST] });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    const [title, body] = [...row.querySelectorAll('p')] as HTMLElement[];
    expect(title!.textContent).toBe(TITLE);
    expect(marks(title!)).toEqual(['bookkeeping app', 'invoices']);
    expect(body!.textContent).toBe(BODY);
    expect(marks(body!)).toEqual(['invoice software', 'tax reports']);
  });

  it('shows at most 5 matched keywords, the intent score and the author', async () => {
    mockLists({ posts: [POST] });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    const badges = within(row).getByLabelText('Matched keywords');
    expect(
      within(badges)
        .getAllByText(/./)
        .map((b) => b.textContent),
    ).toEqual(['bookkeeping app', 'invoice software', 'tax reports', 'invoices', 'csv', '+2 more']);
    expect(within(row).getByLabelText('Intent score 84').textContent).toBe('Intent 84');
    expect(within(row).getByText('u/pixel_pat')).toBeTruthy();
    expect(within(row).getByText('2 years old')).toBeTruthy();
    expect(within(row).getByText('1,520 comment karma')).toBeTruthy();
    expect(within(row).getByText('r/freelance')).toBeTruthy();
    const link = within(row).getByRole('link', { name: 'View on Reddit' });
    // The deployment's Reddit: the simulator's pages in the demo.
    await waitFor(() =>
      expect(link.getAttribute('href')).toBe(
        'http://127.0.0.1:4100/r/freelance/comments/abc123/looking_for/',
      ),
    );
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('says why it matched on hover', async () => {
    mockLists({ posts: [POST] });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    await user.hover(within(row).getByLabelText('Intent score 84'));
    const tooltip = (await screen.findByText('Why it matched')).closest('[role="tooltip"]') as HTMLElement;
    expect(tooltip.textContent).toContain('Why it matched');
    expect(tooltip.textContent).toContain('Asks for a tool');
    expect(tooltip.textContent).toContain('Complains about a problem');
    expect(tooltip.textContent).toContain(
      'Keywords: “bookkeeping app” in title, “invoices” in title, “invoice software” in body, “tax reports” in body',
    );
  });

  it(`cuts previews at ${POST_PREVIEW_LENGTH} characters for posts and ${COMMENT_PREVIEW_LENGTH} for comments`, async () => {
    const long = 'word '.repeat(100);
    mockLists({
      posts: [buildPost({ title: 'Long post', content: long })],
      comments: [buildComment({ author: 'long_commenter', content: long })],
    });
    renderTabs();
    const post = await screen.findByRole('article', { name: 'Long post' });
    expect(post.querySelectorAll('p')[1]!.textContent).toBe(`${long.slice(0, POST_PREVIEW_LENGTH)}…`);
    await user.click(screen.getByRole('tab', { name: /Comments/ }));
    const comment = await screen.findByRole('article', { name: 'Comment by u/long_commenter' });
    expect(comment.querySelector('p')!.textContent).toBe(`${long.slice(0, COMMENT_PREVIEW_LENGTH)}…`);
  });

  it('lists comments with their highlights and users with their profile, with counts on the tabs', async () => {
    const comment = buildComment({
      author: 'ana_designs',
      content: 'We switched to an invoice tool last year.',
      post_title: 'What do you use for invoicing?',
      matched_keywords: ['invoice tool'],
      matches: [{ keyword: 'invoice tool', field: 'body', start: 18, end: 30 }],
    });
    const profile = buildProfile({ reddit_username: 'ana_designs', lead_count: 3, account_age_days: 20 });
    mockLists({ posts: [POST], comments: [comment], profiles: [profile] });
    renderTabs();
    expect(await screen.findByRole('tab', { name: 'Posts (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Comments (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Users (1)' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Comments (1)' }));
    const row = await screen.findByRole('article', { name: 'Comment by u/ana_designs' });
    expect(marks(row)).toEqual(['invoice tool']);
    expect(within(row).getByText('On: What do you use for invoicing?')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Users (1)' }));
    const user1 = await screen.findByRole('article', { name: 'u/ana_designs' });
    expect(within(user1).getByText('3 matching posts and comments')).toBeTruthy();
    expect(within(user1).getByText('20 days old')).toBeTruthy();
    expect(within(user1).getByRole('link', { name: 'View on Reddit' }).getAttribute('href')).toBe(
      'http://127.0.0.1:4100/user/ana_designs',
    );
  });

  it('remembers the tab per project', async () => {
    mockLists();
    const first = renderTabs();
    await user.click(await screen.findByRole('tab', { name: /Comments/ }));
    expect(localStorage.getItem(`projectTab:${PROJECT_ID}`)).toBe('comments');
    first.unmount();
    mockLists();
    renderTabs();
    expect((await screen.findByRole('tab', { name: /Comments/ })).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('No comments found yet.')).toBeTruthy();
  });

  it('shows the leads discovery finds while the list is empty, without a press', async () => {
    vi.useFakeTimers();
    try {
      mockLists();
      renderTabs();
      await advance();
      expect(screen.getByText('No posts found yet.')).toBeTruthy();
      // The minute's discovery cycle found one.
      mockLists({ posts: [POST] });
      await advance(EMPTY_LEADS_REFRESH_MS);
      expect(screen.getByRole('article', { name: TITLE })).toBeTruthy();
      expect(screen.getByRole('tab', { name: 'Posts (1)' })).toBeTruthy();
      // A list with rows stays as it is until the customer asks.
      const lists = mockLists({ posts: [POST, buildPost({ title: 'Another one' })] });
      await advance(EMPTY_LEADS_REFRESH_MS * 4);
      expect(lists.posts.calls).toHaveLength(0);
      expect(screen.queryByText('Another one')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says how leads get to an empty list, or that the score filter hides them', async () => {
    mockLists();
    renderTabs();
    expect(await screen.findByText('No posts found yet.')).toBeTruthy();
    expect(screen.getByText(SEARCH_HINT)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: '75+' }));
    expect(await screen.findByText(scoreHint(75))).toBeTruthy();
    expect(screen.queryByText(SEARCH_HINT)).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Any' }));
    await user.click(screen.getByRole('tab', { name: /Users/ }));
    expect(await screen.findByText('No users found yet.')).toBeTruthy();
    expect(screen.queryByText(SEARCH_HINT)).toBeNull();
  });

  it('filters by minimum intent score and pages newest first', async () => {
    const lists = mockLists();
    mockEndpoint(leadsEndpoints.posts, ({ query }) =>
      page([buildPost({ title: `Post at ${query.offset}` })], 45, query.limit, query.offset),
    );
    renderTabs();
    expect(await screen.findByRole('article', { name: 'Post at 0' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('article', { name: 'Post at 40' })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: '50+' }));
    expect(await screen.findByRole('article', { name: 'Post at 0' })).toBeTruthy();
    await waitFor(() => expect(lists.comments.calls.at(-1)!.query.min_score).toBe(50));
    expect(lists.profiles.calls.at(-1)!.query.min_score).toBe(50);
    expect(lists.posts.calls).toHaveLength(0);
  });

  it('sorts every list by highest intent first, from page 1', async () => {
    const lists = mockLists();
    const posts = mockEndpoint(leadsEndpoints.posts, ({ query }) =>
      page([buildPost({ title: `Post at ${query.offset}, ${query.sort}` })], 45, query.limit, query.offset),
    );
    renderTabs();
    const sortBy = await screen.findByRole('combobox', { name: 'Sort by' });
    expect(await screen.findByRole('article', { name: 'Post at 0, newest' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('article', { name: 'Post at 40, newest' })).toBeTruthy();

    await user.selectOptions(sortBy, 'Highest intent first');
    expect(await screen.findByRole('article', { name: 'Post at 0, intent' })).toBeTruthy();
    expect(posts.calls.at(-1)!.url.searchParams.get('sort')).toBe('intent');
    expect(posts.calls.at(-1)!.query).toMatchObject({ offset: 0, min_score: 0 });
    await waitFor(() => expect(lists.comments.calls.at(-1)!.url.searchParams.get('sort')).toBe('intent'));
    expect(lists.profiles.calls.at(-1)!.url.searchParams.get('sort')).toBe('intent');
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('data-active')).toBe('true');
  });

  it('remembers the order per project', async () => {
    mockLists();
    const first = renderTabs();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Sort by' }),
      'Highest intent first',
    );
    expect(localStorage.getItem(`projectSort:${PROJECT_ID}`)).toBe('intent');
    first.unmount();
    const lists = mockLists();
    renderTabs();
    const sortBy = await screen.findByRole('combobox', { name: 'Sort by' });
    expect((sortBy as HTMLSelectElement).value).toBe('intent');
    await waitFor(() => expect(lists.posts.calls.at(-1)!.url.searchParams.get('sort')).toBe('intent'));
  });

  it('remembers the minimum intent score per project', async () => {
    mockLists();
    const first = renderTabs();
    await user.click(await screen.findByRole('radio', { name: '50+' }));
    expect(localStorage.getItem(`projectMinScore:${PROJECT_ID}`)).toBe('50');
    first.unmount();
    const lists = mockLists();
    renderTabs();
    expect((await screen.findByRole('radio', { name: '50+' })).hasAttribute('checked')).toBe(true);
    await waitFor(() => expect(lists.posts.calls.at(-1)!.url.searchParams.get('min_score')).toBe('50'));
  });

  it.each([
    ['Posts', 'Post', 'Delete me', 'Delete the post "Delete me"? It is not found again.'],
    [
      'Comments',
      'Comment',
      'Comment by u/delete_me',
      'Delete the comment by u/delete_me? It is not found again.',
    ],
    ['Users', 'Profile', 'u/delete_me', 'Delete the profile of u/delete_me? It is not found again.'],
  ] as const)('deletes a lead from %s after asking, and says so', async (tab, item, label, question) => {
    const post = buildPost({ title: 'Delete me' });
    const comment = buildComment({ author: 'delete_me' });
    const profile = buildProfile({ reddit_username: 'delete_me' });
    const deleted = new Set<string>();
    const live = <T extends { id: string }>(items: T[]) => page(items.filter((i) => !deleted.has(i.id)));
    mockEndpoint(leadsEndpoints.posts, () => live([post]));
    mockEndpoint(leadsEndpoints.comments, () => live([comment]));
    mockEndpoint(leadsEndpoints.profiles, () => live([profile]));
    const removals = [
      mockEndpoint(leadsEndpoints.deletePost, ({ params }) => void deleted.add(params.postId)),
      mockEndpoint(leadsEndpoints.deleteComment, ({ params }) => void deleted.add(params.commentId)),
      mockEndpoint(leadsEndpoints.deleteProfile, ({ params }) => void deleted.add(params.profileId)),
    ];
    renderTabs();
    await user.click(await screen.findByRole('tab', { name: new RegExp(`^${tab}`) }));
    const row = await screen.findByRole('article', { name: label });
    // Cancel keeps it.
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: `Delete ${item.toLowerCase()}` });
    expect(within(confirm).getByText(question)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted.size).toBe(0);
    // The dialog's Delete deletes it, once however often it is clicked.
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: `Delete ${item.toLowerCase()}` });
    await user.dblClick(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`✅ ${item} deleted successfully`)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article', { name: label })).toBeNull());
    expect([...deleted]).toEqual([{ Posts: post.id, Comments: comment.id, Users: profile.id }[tab]]);
    expect(removals.reduce((n, r) => n + r.calls.length, 0)).toBe(1);
  });

  it('says when a delete fails', async () => {
    const comment = buildComment({ author: 'keep_me' });
    mockLists({ comments: [comment] });
    mockEndpoint(leadsEndpoints.deleteComment, errorReply(404, 'Comment not found', 'not_found'));
    localStorage.setItem(`projectTab:${PROJECT_ID}`, 'comments');
    renderTabs();
    const row = await screen.findByRole('article', { name: 'Comment by u/keep_me' });
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete comment' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('❌ Error deleting Comment')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Comment by u/keep_me' })).toBeTruthy();
  });

  it('deletes all of a list at the minimum score, after a question that says how many, and says so', async () => {
    const lists = mockLists({ posts: [POST] });
    const all = mockEndpoint(leadsEndpoints.deleteAllPosts, { deleted_count: 12 });
    renderTabs();
    await screen.findByRole('article', { name: TITLE });
    await user.click(screen.getByRole('radio', { name: '50+' }));
    await waitFor(() => expect(lists.posts.calls.at(-1)?.query?.min_score).toBe(50));
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    expect(screen.getByText('Delete all 1 post scoring 50+? They are not found again.')).toBeTruthy();
    // Focus goes to the safe answer, and back to the button when the question is withdrawn.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep' }));
    await user.keyboard('{Enter}');
    expect(all.calls).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete all' }));

    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    const before = lists.posts.calls.length;
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    expect(await screen.findByText('✅ 12 posts deleted successfully')).toBeTruthy();
    expect(all.calls.map((c) => c.query)).toEqual([{ project_id: PROJECT_ID, min_score: 50 }]);
    await waitFor(() => expect(lists.posts.calls.length).toBeGreaterThan(before));
  });

  it("says 'Failed to delete' when deleting all fails, and keeps the list", async () => {
    const profile = buildProfile({ reddit_username: 'stays_here' });
    mockLists({ profiles: [profile] });
    mockEndpoint(leadsEndpoints.deleteAllProfiles, errorReply(500, 'Internal server error', 'internal'));
    localStorage.setItem(`projectTab:${PROJECT_ID}`, 'users');
    renderTabs();
    const row = await screen.findByRole('article', { name: /stays_here/ });
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    expect(screen.getByText('Delete all 1 profile? They are not found again.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    expect(await screen.findByText('Failed to delete')).toBeTruthy();
    expect(row.isConnected).toBe(true);
  });

  it('lets read-only users look but not delete', async () => {
    mockLists({ posts: [POST] });
    renderTabs(true);
    const row = await screen.findByRole('article', { name: TITLE });
    expect(within(row).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(true);
    expect(within(row).getByRole('button', { name: 'Generate DM' }).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Delete all' })).toBeNull();
  });

  it('says "DM written" instead of offering Generate DM when the author already has a DM here', async () => {
    mockLists({
      posts: [{ ...POST, has_dm: true }, buildPost({ title: 'Another one', author: 'new_face' })],
    });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    const badge = within(row).getByText('DM written');
    expect(badge.closest('[title]')?.getAttribute('title')).toBe(
      'u/pixel_pat already has a DM in this project: see DM messages.',
    );
    expect(within(row).queryByRole('button', { name: 'Generate DM' })).toBeNull();
    const other = screen.getByRole('article', { name: 'Another one' });
    expect(within(other).getByRole('button', { name: 'Generate DM' })).toBeTruthy();
    expect(within(other).queryByText('DM written')).toBeNull();
  });

  it('says an author whose account is deleted or suspended cannot be messaged, instead of offering Generate DM', async () => {
    mockLists({
      posts: [{ ...POST, account_unavailable: true, account_age_days: null, comment_karma: null }],
      profiles: [buildProfile({ reddit_username: 'pixel_pat', account_unavailable: true })],
    });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    expect(within(row).getByText('account deleted or suspended')).toBeTruthy();
    expect(within(row).queryByText('account age unknown')).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Generate DM' })).toBeNull();
    const badge = within(row).getByText('Cannot be messaged');
    expect(badge.closest('[title]')?.getAttribute('title')).toBe(
      "u/pixel_pat's Reddit account is deleted or suspended: a DM cannot reach them.",
    );
    expect(within(row).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);

    await user.click(screen.getByRole('tab', { name: /Users/ }));
    const person = await screen.findByRole('article', { name: 'u/pixel_pat' });
    expect(within(person).getByText('account deleted or suspended')).toBeTruthy();
    expect(within(person).queryByRole('button', { name: 'Generate DM' })).toBeNull();
  });

  it('says a post or comment older than DM_EXPIRY_DAYS is too old to message, instead of offering Generate DM', async () => {
    mockLists({
      posts: [{ ...POST, too_old_to_message: true }, buildPost({ title: 'Another one' })],
      comments: [buildComment({ author: 'old_commenter', too_old_to_message: true })],
    });
    renderTabs();
    const row = await screen.findByRole('article', { name: TITLE });
    expect(within(row).queryByRole('button', { name: 'Generate DM' })).toBeNull();
    const badge = within(row).getByText('Too old to message');
    await waitFor(() =>
      expect(badge.closest('[title]')?.getAttribute('title')).toBe(
        'Reddit posts and comments older than 14 days are not messaged: a DM about them would expire unsent.',
      ),
    );
    const other = screen.getByRole('article', { name: 'Another one' });
    expect(within(other).getByRole('button', { name: 'Generate DM' })).toBeTruthy();
    expect(within(other).queryByText('Too old to message')).toBeNull();

    await user.click(screen.getByRole('tab', { name: /Comments/ }));
    const comment = await screen.findByRole('article', { name: 'Comment by u/old_commenter' });
    expect(within(comment).getByText('Too old to message')).toBeTruthy();
    expect(within(comment).queryByRole('button', { name: 'Generate DM' })).toBeNull();
  });

  it('"DM written" leads to the DM messages below the results, as their skip link does', async () => {
    mockLists({ posts: [{ ...POST, has_dm: true }] });
    mockPublicConfig();
    renderScreen(
      <>
        <LeadTabs
          projectId={PROJECT_ID}
          readOnly={false}
          skipTo={{ id: 'dms', label: 'Skip to DM messages' }}
        />
        <section id="dms">
          <h3>DM messages</h3>
        </section>
      </>,
    );
    const row = await screen.findByRole('article', { name: TITLE });
    await user.click(within(row).getByRole('link', { name: 'DM written' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'DM messages' }));
  });

  it('keeps Generate DM from a customer without a subscription; deleting still works', async () => {
    mockLists({ posts: [POST] });
    renderTabs(false, undefined, true);
    const row = await screen.findByRole('article', { name: TITLE });
    expect(within(row).getByRole('button', { name: 'Generate DM' }).hasAttribute('disabled')).toBe(true);
    expect(within(row).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);
  });

  it("says a refused Generate DM in the spec's words, not the server's detail", async () => {
    mockLists({ posts: [POST] });
    mockEndpoint(
      dmsEndpoints.generateForSelected,
      errorReply(403, 'READONLY access: your account cannot modify data.', 'read_only'),
    );
    renderTabs();
    const post = await screen.findByRole('article', { name: TITLE });
    await user.click(within(post).getByRole('button', { name: 'Generate DM' }));
    expect(
      await screen.findByText(
        'Failed to generate DM messages: Your account has read-only access. Contact your administrator to modify data.',
      ),
    ).toBeTruthy();

    // Without a reason from the server, the spec's text alone.
    mockEndpoint(dmsEndpoints.generateForSelected, errorReply(500, '', 'internal'));
    await user.click(within(post).getByRole('button', { name: 'Generate DM' }));
    await waitFor(() => expect(screen.getAllByText('Failed to generate DM messages')).toHaveLength(1));
  });

  it('writes a DM to the author of a post, a comment or a profile, and says how it went', async () => {
    const comment = buildComment({ author: 'already_asked' });
    const profile = buildProfile({ reddit_username: 'model_down' });
    mockLists({ posts: [POST], comments: [comment], profiles: [profile] });
    const forPosts = mockEndpoint(dmsEndpoints.generateForSelected, {
      generated_messages: [buildDm({ recipient_username: 'pixel_pat' })],
      skipped: [],
      failed: [],
    });
    const forComment = mockEndpoint(dmsEndpoints.generateFromComment, {
      generated_messages: [],
      skipped: [
        {
          id: comment.id,
          recipient_username: 'already_asked',
          reason: 'already_has_dm',
          detail: 'u/already_asked already has a DM in this project',
        },
      ],
      failed: [],
    });
    const forProfile = mockEndpoint(
      dmsEndpoints.generateFromProfile,
      errorReply(502, 'Failed to generate DM messages', 'dm_generation_failed'),
    );
    const onDmGenerated = vi.fn();
    renderTabs(false, onDmGenerated);

    const post = await screen.findByRole('article', { name: TITLE });
    await user.click(within(post).getByRole('button', { name: 'Generate DM' }));
    expect(await screen.findByText('DM generated for u/pixel_pat')).toBeTruthy();
    expect(forPosts.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID, post_ids: [POST.id] });
    expect(onDmGenerated).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('tab', { name: /^Comments/ }));
    const row = await screen.findByRole('article', { name: 'Comment by u/already_asked' });
    await user.click(within(row).getByRole('button', { name: 'Generate DM' }));
    expect(await screen.findByText('u/already_asked already has a DM in this project')).toBeTruthy();
    expect(forComment.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID, id: comment.id });

    await user.click(screen.getByRole('tab', { name: /^Users/ }));
    const person = await screen.findByRole('article', { name: 'u/model_down' });
    await user.click(within(person).getByRole('button', { name: 'Generate DM' }));
    expect(await screen.findByText('Failed to generate DM messages')).toBeTruthy();
    expect(forProfile.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID, id: profile.id });
    // Only a DM written is told: a skip or a failure changed nothing.
    expect(onDmGenerated).toHaveBeenCalledTimes(1);
  });
});
