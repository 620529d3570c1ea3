import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { approveAs, newRedditAccount, signInAsSubscriber } from './fixtures';

async function newCustomerWithProject(page: Page) {
  await signInAsSubscriber(page, 'Growth');
  await page.getByRole('button', { name: 'Create Your First Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Designer bookkeeping');
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();
  const panel = page.getByRole('region', { name: 'Connected Reddit accounts' });
  await expect(panel.getByText(/No Reddit accounts connected yet/)).toBeVisible();
  return panel;
}

test('a customer connects a simulated Reddit account on its consent page, configures it and removes it (on a phone)', async ({
  page,
  request,
}) => {
  // A sign-up with checkout, then a round trip through the simulator's consent page.
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  const panel = await newCustomerWithProject(page);
  await expect(panel.getByText('Each connected account sends up to 10 messages per day.')).toBeVisible();

  // Off to the simulator's consent page (demo_founder chosen), and back with the test's own account.
  const reddit = await newRedditAccount(request);
  await panel.getByRole('button', { name: 'Connect account' }).click();
  await approveAs(page, reddit);
  // Nothing on the way logged an error (such as a 404 for an icon).
  expect(errors).toEqual([]);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('current-project-name')).toHaveText('Designer bookkeeping');

  const row = panel.getByTestId(`account-${reddit}`);
  await expect(row.getByText(`u/${reddit}`)).toBeVisible();
  await expect(row.getByText('10/10')).toBeVisible();
  // Ready inside the default working hours (Monday to Friday, 9-17 UTC), outside working hours otherwise,
  // when Send still goes now (with nothing queued yet, there is no countdown to queued sends).
  await expect(row.getByLabel(/^Status: (Ready|outside working hours)$/)).toBeVisible();

  // The rest on a phone: each account is a block of its own, its buttons on screen without scrolling
  // sideways, the page does not scroll sideways either, and all of it still works.
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
  await row.scrollIntoViewIfNeeded();
  for (const name of ['Settings', 'Remove']) {
    await expect(row.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  }
  await expect(row.locator('td[data-label="Remaining today"]')).toBeInViewport();

  await row.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: `Settings of u/${reddit}` });
  await expect(settings.getByLabel('Min delay (seconds)')).toHaveValue('30');
  await expectAccessible(page, 'the account settings on a phone');
  await settings.getByLabel('Timezone').selectOption('Asia/Tokyo');
  await settings.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Account settings saved')).toBeVisible();
  await expect(settings).toBeHidden();

  await row.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Reddit account' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`u/${reddit} removed`)).toBeVisible();
  await expect(panel.getByText(/No Reddit accounts connected yet/)).toBeVisible();
});

test('denying consent on Reddit comes back with the reason', async ({ page }) => {
  test.setTimeout(120_000);
  const panel = await newCustomerWithProject(page);
  await panel.getByRole('button', { name: 'Connect account' }).click();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('Reddit authentication failed: Access was denied on Reddit.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(panel.getByText(/No Reddit accounts connected yet/)).toBeVisible();
});
