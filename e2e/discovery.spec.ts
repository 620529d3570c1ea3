import { expect, test, type Page } from '@playwright/test';
import { PRODUCT_INFO, signInAsSubscriber } from './fixtures';

/**
 * Keywords the simulator's freelancing subreddits use ("send invoices and chase late payments", "I track
 * everything in a invoicing tool and invoice on the 1st"), added by hand so the search finds leads
 * whatever the AI engine suggests.
 */
const OWN_KEYWORDS = ['invoice', 'invoices', 'invoicing tool'];
const OWN_SUBREDDITS = ['freelance', 'Freelancers'];

/**
 * Records in the page every progress box that appears, however briefly: a fast run may finish between
 * two looks of the test, but its progress was still shown.
 */
async function recordProgressBoxes(page: Page) {
  await page.addInitScript({
    content: `
      window.progressSeen = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="status"][aria-label]')) {
          const label = el.getAttribute('aria-label');
          if (!window.progressSeen.includes(label)) window.progressSeen.push(label);
        }
      }).observe(document, { childList: true, subtree: true });
    `,
  });
}

function progressBoxesSeen(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.progressSeen');
}

test('a new customer goes from step 1 to highlighted, scored leads', async ({ page }) => {
  // Keyword and subreddit generation, then a search of Reddit (simulated): slower than the other tests.
  test.setTimeout(240_000);
  await recordProgressBoxes(page);
  await signInAsSubscriber(page, 'Growth');

  await page.getByRole('button', { name: 'Create Your First Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Freelance invoicing');
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();

  // Step 1: saving with generation writes keywords and moves to step 2.
  const form = page.getByRole('form', { name: 'Product Information' });
  for (const [label, value] of Object.entries(PRODUCT_INFO)) {
    await form.getByLabel(label).fill(value);
  }
  await form.getByRole('button', { name: 'Save & Generate Keywords' }).click();

  // Step 2: the generated keywords, approved, plus the customer's own.
  await expect(page.getByRole('heading', { name: 'Keywords' })).toBeVisible();
  await expect(page.getByText('Keyword generation failed - you can retry in Step 2.')).toHaveCount(0);
  const product = page.getByRole('region', { name: 'Product Keywords' });
  await expect(product.getByRole('checkbox').first()).toBeVisible();
  await product.getByRole('button', { name: 'Select all' }).click();
  for (const keyword of OWN_KEYWORDS) {
    await page.getByLabel('Add your own keyword').fill(keyword);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // A keyword the engine already suggested stays as it is, approved by Select all.
    await expect(product.getByRole('checkbox', { name: keyword, exact: true })).toBeChecked();
  }
  await page.getByRole('button', { name: 'Approve & Continue' }).click();

  // Step 3: subreddit generation runs with its progress, then the suggestions are listed.
  await expect(page.getByRole('heading', { name: 'Subreddits' })).toBeVisible();
  await expect(page.getByText('Subreddit generation completed')).toBeVisible({ timeout: 120_000 });
  expect(await progressBoxesSeen(page)).toContain('Generating subreddits...');
  const subreddits = page.getByRole('list', { name: 'Subreddits' });
  const suggested = subreddits.getByRole('checkbox').first();
  await expect(suggested).toBeVisible();
  await expect(subreddits.getByText(/^Relevance \d+%$/).first()).toBeVisible();
  await expect(subreddits.getByText(/members?$/).first()).toBeVisible();
  await suggested.check();

  await page
    .getByRole('textbox', { name: 'Add subreddits' })
    .fill(OWN_SUBREDDITS.map((s) => `r/${s}`).join(', '));
  await page.getByRole('button', { name: 'Add Subreddits' }).click();
  await expect(page.getByText(/^Added \d+$/)).toBeVisible();
  for (const name of OWN_SUBREDDITS) {
    await subreddits.getByRole('checkbox', { name: `r/${name}`, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Approve & Continue' }).click();

  // Step 4: a search now, with its progress, then the leads.
  await expect(page.getByRole('heading', { name: 'Posts & Messages' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Users' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: /^Keyword filtering/ })).toBeChecked();
  // Approving subreddits may already have started their first backfill; Search waits for it.
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  expect(await progressBoxesSeen(page)).toContain('Searching...');

  const posts = page.getByRole('tabpanel', { name: /^Posts/ });
  const post = posts.getByRole('article').first();
  await expect(post).toBeVisible();
  await expect(post.locator('mark').first()).toBeVisible();
  await expect(post.getByLabel('Matched keywords')).toBeVisible();
  // View on Reddit opens the simulated Reddit's own page of the post.
  const title = (await post.locator('p').first().textContent()) ?? '';
  const [reddit] = await Promise.all([
    page.waitForEvent('popup'),
    post.getByRole('link', { name: 'View on Reddit' }).click(),
  ]);
  expect(reddit.url().startsWith(`${process.env.E2E_SIM_URL}/r/`)).toBe(true);
  await expect(reddit.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(reddit.getByRole('note')).toHaveText(/^Simulated Reddit/);
  await reddit.close();
  const score = post.getByLabel(/^Intent score \d+$/);
  await expect(score).toHaveText(/^Intent \d+$/);
  await score.hover();
  const why = page.getByRole('tooltip');
  await expect(why).toContainText('Why it matched');
  await expect(why).toContainText(/Keywords: “[^”]+” in (title|body)/);

  // The search read who wrote the newest leads: their account age shows at once.
  await expect(posts.getByText(/^\d+ (days?|months|years) old$/).first()).toBeVisible();
  // Highest intent first: the scores down the page never rise, from at least the best of the newest.
  const scoresShown = async () =>
    (await posts.getByLabel(/^Intent score \d+$/).allTextContents()).map((s) =>
      Number(s.replace('Intent ', '')),
    );
  const newest = await scoresShown();
  await page.getByLabel('Sort by').selectOption({ label: 'Highest intent first' });
  await expect(async () => {
    const scores = await scoresShown();
    expect(scores.length).toBeGreaterThan(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThanOrEqual(Math.max(...newest));
  }).toPass({ timeout: 15_000 });
  await page.getByLabel('Sort by').selectOption({ label: 'Newest first' });

  await page.getByRole('tab', { name: /^Comments/ }).click();
  const comment = page
    .getByRole('tabpanel', { name: /^Comments/ })
    .getByRole('article')
    .first();
  await expect(comment).toBeVisible();
  await expect(comment.locator('mark').first()).toBeVisible();
  await expect(comment.getByLabel(/^Intent score \d+$/)).toHaveText(/^Intent \d+$/);
  await comment.getByLabel(/^Intent score \d+$/).hover();
  await expect(page.getByRole('tooltip')).toContainText(/Keywords: “[^”]+” in body/);

  // The tab is remembered for the project.
  await page.reload();
  await expect(page.getByRole('tab', { name: /^Comments/ })).toHaveAttribute('aria-selected', 'true');

  // Delete all: the whole list goes, on every page, after a question that says how many.
  const comments = page.getByRole('tabpanel', { name: /^Comments/ });
  await comments.getByRole('button', { name: 'Delete all' }).click();
  await expect(comments.getByText(/^Delete all \d+ comments?\? They are not found again\.$/)).toBeVisible();
  await comments.getByRole('button', { name: 'Delete all' }).click();
  await expect(page.getByText(/^✅ \d+ comments? deleted successfully$/)).toBeVisible();
  await expect(comments.getByText('No comments found yet.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Comments (0)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Posts \([1-9]/ })).toBeVisible();
});
