import { expect, test } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { projectWithApprovedSubreddits, signInAs, signInAsNewCustomer } from './fixtures';

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
  await page.getByRole('banner').getByRole('button', { name: 'New Project' }).click();
  await expect(page.getByRole('dialog', { name: 'Create New Project' })).toBeVisible();
  await expectAccessible(page, 'the Create New Project dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await projectWithApprovedSubreddits(page, 'Accessible outreach');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  await page.getByRole('tab', { name: /^Comments/ }).click();
  await page
    .getByRole('tabpanel')
    .getByRole('article')
    .first()
    .getByRole('button', { name: 'Generate DM' })
    .click();
  await expect(page.getByRole('region', { name: 'DM messages' }).getByRole('article').first()).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'step 4 with leads and a DM');

  await page.getByRole('button', { name: 'Do-not-contact list' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the do-not-contact list');
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
