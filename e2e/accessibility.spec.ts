import { expect, test, type Locator } from '@playwright/test';
import { expectAccessible } from './accessibility';
import {
  connectOwnRedditAccount,
  projectWithApprovedSubreddits,
  reachableCommentLead,
  signInAs,
  signInAsNewCustomer,
  signInAsSubscriber,
} from './fixtures';

const SIM_URL = process.env.E2E_SIM_URL!;

test('every screen a customer goes through meets WCAG 2.1 AA as axe checks it', async ({ page }) => {
  // Steps 1-3 and a search of the simulated Reddit.
  test.setTimeout(300_000);
  await page.goto('/');
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await expectAccessible(page, 'the sign-in screen');

  await signInAsNewCustomer(page);
  await expectAccessible(page, 'the plans');
  await page.getByRole('region', { name: 'Growth' }).getByRole('button', { name: 'Select Plan' }).click();
  await expect(page.getByText('Demo checkout — no card is charged')).toBeVisible();
  await expectAccessible(page, 'the demo checkout');
  await page.getByRole('button', { name: 'Complete purchase' }).click();
  await expect(page.getByRole('button', { name: 'Create Your First Project' })).toBeVisible();
  await expectAccessible(page, 'the empty workspace');
  // The plans again, now with one of them the customer's, and the notice that says so.
  await page.goto('/subscribe');
  await expect(page.getByText('You have the Growth plan')).toBeVisible();
  await expectAccessible(page, 'the plans with a plan held');
  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page.getByRole('button', { name: 'Create Your First Project' })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'New Project' }).click();
  await expect(page.getByRole('dialog', { name: 'Create New Project' })).toBeVisible();
  await expectAccessible(page, 'the Create New Project dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await projectWithApprovedSubreddits(page, 'Accessible outreach');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  await page.getByRole('tab', { name: /^Comments/ }).click();
  // The first lead that offers one: an author whose account is gone is listed without it.
  await page.getByRole('tabpanel').getByRole('button', { name: 'Generate DM' }).first().click();
  await expect(page.getByRole('region', { name: 'DM messages' }).getByRole('article').first()).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'step 4 with leads and a DM');

  await page.getByRole('button', { name: 'Do-not-contact list' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the do-not-contact list');
  // On a phone each entry is a block of its own: its reason and Remove on screen, nothing scrolls sideways.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 800 });
  const dnc = page.getByRole('dialog');
  await dnc.getByLabel('Reddit user names').fill('u/phone_reader');
  await dnc.getByLabel('Note (optional)').fill('Asked by e-mail not to be contacted again, long ago');
  await dnc.getByRole('button', { name: 'Add', exact: true }).click();
  const listed = dnc.getByRole('table', { name: 'Do-not-contact list' });
  const entry = listed.getByRole('row').filter({ hasText: 'u/phone_reader' });
  await entry.getByRole('button', { name: 'Remove' }).scrollIntoViewIfNeeded();
  await expect(entry.getByRole('button', { name: 'Remove' })).toBeInViewport({ ratio: 1 });
  await expect(entry.locator('td[data-label="Reason"]')).toBeInViewport({ ratio: 1 });
  expect(await listed.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth)).toBe(
    0,
  );
  await expectAccessible(page, 'the do-not-contact list on a phone');
  await entry.getByRole('button', { name: 'Remove' }).click();
  await expect(entry).toBeHidden();
  await page.setViewportSize(desktop);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('button', { name: 'Agent Settings' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the agent settings');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('tab', { name: /^History/ }).click();
  await expectAccessible(page, 'the history');

  await page
    .getByRole('navigation', { name: 'Workflow steps' })
    .getByRole('button', { name: /Agent Activity/ })
    .click();
  await expect(page.getByRole('region', { name: 'Monthly statistics panel' })).toBeVisible();
  await expectAccessible(page, 'step 5 with the monthly statistics');

  const steps = page.getByRole('navigation', { name: 'Workflow steps' });
  for (const [step, heading] of [
    ['Product Information', 'Product Information'],
    ['Keywords', 'Keywords'],
    ['Subreddits', 'Subreddits'],
  ] as const) {
    await steps.getByRole('button', { name: step }).click();
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await expectAccessible(page, `step ${step}`);
  }
  await page.getByRole('button', { name: 'Project settings' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the project settings');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expectAccessible(page, 'the workspace on a phone, menu open');
});

test('the administration pages meet WCAG 2.1 AA as axe checks them', async ({ page }) => {
  await signInAs(page, 'admin@demo.local');
  for (const [path, heading] of [
    ['/logs', 'System Logs'],
    ['/stats', 'All Projects Statistics'],
    ['/credentials', 'Reddit API Credentials'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(page.getByRole('table').first()).toBeVisible();
    await expectAccessible(page, path);
  }
  await page.getByRole('button', { name: '+ Add Credential' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Credential' })).toBeVisible();
  await expectAccessible(page, 'the Add Credential dialog');
});

test('the demo sign-in page meets WCAG 2.1 AA as axe checks it', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Threadreach' })).toBeVisible();
  await expectAccessible(page, 'the sign-in picker');
});

test('the history with a reply, and step 5 with a sent DM on a phone, meet WCAG 2.1 AA; the results list and step 5 fit a phone', async ({
  page,
  request,
}) => {
  // Steps 1-3, a Reddit sign-in, a search, a DM sent and answered.
  test.setTimeout(300_000);
  await signInAsSubscriber(page, 'Growth');
  await projectWithApprovedSubreddits(page, 'Accessible history');
  const { reddit } = await connectOwnRedditAccount(page, request);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });

  // On a phone the results list stops at two thirds of the screen: a finger beside it scrolls the page.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  const results = page.getByRole('tabpanel', { name: /^Posts/ }).locator('.mantine-ScrollArea-root');
  await expect(results).toBeVisible();
  const resultsHeight = (await results.boundingBox())!.height;
  expect(resultsHeight).toBeGreaterThan(844 * 0.5);
  expect(resultsHeight).toBeLessThanOrEqual(844 * 0.66 + 1);
  await page.setViewportSize(desktop);

  await page.getByRole('tab', { name: /^Comments/ }).click();
  const { lead, author } = await reachableCommentLead(page, request);
  await lead.getByRole('button', { name: 'Generate DM' }).click();
  const dm = page
    .getByRole('region', { name: 'DM messages' })
    .getByRole('article', { name: `DM to u/${author}` });
  await expect(dm).toBeVisible({ timeout: 30_000 });
  await dm.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(`Sent to u/${author}`)).toBeVisible();
  const answered = await request.post(`${SIM_URL}/__sim/replies`, {
    data: { from: author, to: reddit, kind: 'interested', body: 'How much is it?' },
  });
  expect(answered.status()).toBe(201);

  // History: the list of people scrolls; the keyboard reaches it though its rows hold no button.
  await page.getByRole('tab', { name: /^History/ }).click();
  const history = page.getByRole('tabpanel', { name: /^History/ });
  await history.getByRole('button', { name: 'Check for replies' }).click();
  await expect(history.getByLabel(`Reply from u/${author}`)).toContainText('How much is it?');
  await expectAccessible(page, 'the history with a reply');

  // Agent mode on and off again: step 5's activity has an entry.
  const agentSwitch = page
    .getByRole('region', { name: 'AI mode' })
    .getByRole('switch', { name: 'AI Agent mode' });
  await agentSwitch.click();
  await expect(agentSwitch).toBeChecked();
  await agentSwitch.click();
  await expect(agentSwitch).not.toBeChecked();

  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole('navigation', { name: 'Workflow steps' })
    .getByRole('button', { name: /Agent Activity/ })
    .click();
  const today = page.getByRole('region', { name: 'Daily summary' });
  // Step 5 may show the status read before the send until its next refresh.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh Logs' }).click();
    await expect(today.getByText(`u/${author}`)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const entry = page.getByRole('region', { name: 'Recent activity logs' }).getByRole('listitem').first();
  await expect(entry.getByText(/^Agent stopped/)).toBeVisible();
  await expectAccessible(page, 'step 5 on a phone');

  // Each entry: badge and time on one line, the message the full width below them.
  const boxOf = async (locator: Locator) => (await locator.boundingBox())!;
  const box = await boxOf(entry);
  const badge = await boxOf(entry.getByText('Other', { exact: true }));
  const message = await boxOf(entry.getByText(/^Agent stopped/));
  const time = await boxOf(entry.locator('p').last());
  expect(Math.abs(badge.y - time.y)).toBeLessThan(8);
  expect(message.y).toBeGreaterThan(badge.y + badge.height - 1);
  expect(message.width).toBeGreaterThan(box.width * 0.8);
  // The Today table fits: every column of a message on screen, nothing to scroll sideways.
  const table = today.getByRole('region', { name: "Today's messages" });
  expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  for (const column of ['To', 'From', 'Sent', 'Reply']) {
    const cell = table.locator(`td[data-label="${column}"]`).first();
    await cell.scrollIntoViewIfNeeded();
    await expect(cell).toBeInViewport({ ratio: 1 });
  }
  expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
});
