import { expect, test } from '@playwright/test';
import { pickAccount, PRODUCT_INFO, signInAs, signInAsSubscriber } from './fixtures';

test('a first visit shows the sign-in screen without asking for a session to restore; it and the demo sign-in and checkout pages log no error', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/auth/refresh-with-token')) refreshes.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await expect(page.getByText('Demo mode — simulated Reddit')).toBeVisible();
  expect(refreshes).toEqual([]);
  expect(errors).toEqual([]);

  await signInAsSubscriber(page, 'Starter');
  await expect(page.getByRole('button', { name: 'Create Your First Project' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('two tabs that restore the session at the same moment both stay signed in, and so does the next visit', async ({
  page,
  context,
}) => {
  await signInAsSubscriber(page, 'Starter');
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('button', { name: 'Logout' })).toBeVisible();
  const refreshes: string[] = [];
  for (const tab of [page, other]) {
    tab.on('request', (request) => {
      if (request.url().includes('/api/v1/auth/refresh-with-token')) refreshes.push(request.url());
    });
  }
  // Both tabs open without an access token (a browser restoring its tabs): each restores the session with
  // the one refresh cookie they share. A slow network holds each refresh a second, so they overlap.
  await context.route('**/api/v1/auth/refresh-with-token', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  await page.evaluate(() => localStorage.removeItem('authToken'));
  await Promise.all([page.reload(), other.reload()]);
  for (const tab of [page, other]) await expect(tab.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(refreshes.length).toBeGreaterThanOrEqual(1);
  await context.unroute('**/api/v1/auth/refresh-with-token');

  // The session survived: a later visit restores it again.
  await page.evaluate(() => localStorage.removeItem('authToken'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByText('Authentication Required')).toBeHidden();
});

test('a customer signs in, creates a project, saves step 1 and finds it after a reload', async ({ page }) => {
  await signInAsSubscriber(page, 'Growth');
  await expect(page.getByText('Demo mode — simulated Reddit')).toBeVisible();
  await expect(page.getByText('Projects 0/3')).toBeVisible();

  await page.getByRole('button', { name: 'Create Your First Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog.getByText('Project name is required')).toBeVisible();
  await dialog.getByLabel('Project Name').fill('Designer bookkeeping');
  await dialog.getByLabel('Description').fill('Spring campaign');
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Projects 1/3')).toBeVisible();

  const form = page.getByRole('form', { name: 'Product Information' });
  for (const [label, value] of Object.entries(PRODUCT_INFO)) {
    await form.getByLabel(label).fill(value);
  }
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Product information saved')).toBeVisible();

  await page.reload();
  const reloaded = page.getByRole('form', { name: 'Product Information' });
  for (const [label, value] of Object.entries(PRODUCT_INFO)) {
    await expect(reloaded.getByLabel(label)).toHaveValue(value);
  }

  // Saving with regeneration moves on to step 2.
  await reloaded.getByRole('button', { name: 'Save & Generate Keywords' }).click();
  await expect(page.getByRole('heading', { name: 'Keywords' })).toBeVisible();
});

test('a read-only user sees the project but cannot save', async ({ page }) => {
  await signInAs(page, 'readonly@demo.local');
  // The flag is a badge in the top bar (the same text also explains the disabled New Project).
  await expect(
    page
      .getByRole('banner')
      .locator('.mantine-Badge-root', { hasText: 'Read-only access - contact administrator' }),
  ).toBeVisible();
  const form = page.getByRole('form', { name: 'Product Information' });
  await expect(form.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Save & Generate Keywords' })).toBeDisabled();
});

for (const email of ['admin@demo.local', 'moderator@demo.local', 'user@demo.local', 'readonly@demo.local']) {
  test(`${email} signs in to the workspace and can log out`, async ({ page }) => {
    await signInAs(page, email);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByText('Authentication Required')).toBeVisible();
  });
}

test('the demo account without a subscription is sent to /subscribe', async ({ page }) => {
  // No test buys a plan for this account; buyers sign in with their own e-mail.
  await pickAccount(page, 'new@demo.local');
  await expect(page).toHaveURL(/\/subscribe$/);
});

test('an admin sees the admin links', async ({ page }) => {
  await signInAs(page, 'admin@demo.local');
  const nav = page.getByRole('navigation', { name: 'Administration' });
  await expect(nav.getByRole('link', { name: 'System Logs' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Statistics' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Credentials' })).toBeVisible();
});

test('a moderator sees the Statistics and Credentials links, not System Logs', async ({ page }) => {
  await signInAs(page, 'moderator@demo.local');
  const nav = page.getByRole('navigation', { name: 'Administration' });
  await expect(nav.getByRole('link', { name: 'Statistics' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'System Logs' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Credentials' }).click();
  await expect(page).toHaveURL(/\/credentials$/);
  await expect(page.getByRole('tab', { name: 'Proxy Pool' })).toBeVisible();
});

test('a customer sees no administration links', async ({ page }) => {
  await signInAs(page, 'user@demo.local');
  await expect(page.getByRole('navigation', { name: 'Administration' })).toHaveCount(0);
});

test('a customer renames a project and deletes another, which frees its place under the limit', async ({
  page,
}) => {
  await signInAsSubscriber(page, 'Growth');
  await page.getByRole('button', { name: 'Create Your First Project' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Project' });
  await create.getByLabel('Project Name').fill('Spring campaign');
  await create.getByRole('button', { name: 'Create Project' }).click();
  await expect(create).toBeHidden();
  await page.getByRole('button', { name: 'New Project' }).click();
  await create.getByLabel('Project Name').fill('Old test');
  await create.getByRole('button', { name: 'Create Project' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByText('Projects 2/3')).toBeVisible();
  await expect(page.getByTestId('current-project-name')).toHaveText('Old test');

  await page.getByRole('button', { name: 'Project settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Project settings' });
  await settings.getByLabel('Project Name').fill('Old test (keep out)');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await expect(page.getByTestId('current-project-name')).toHaveText('Old test (keep out)');

  await page.getByRole('button', { name: 'Project settings' }).click();
  await settings.getByRole('button', { name: 'Delete Project' }).click();
  await expect(settings.getByText('Delete "Old test (keep out)"? This cannot be undone.')).toBeVisible();
  await settings.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(settings).toBeHidden();
  await expect(page.getByText('✅ Project deleted successfully')).toBeVisible();
  await expect(page.getByTestId('current-project-name')).toHaveText('Spring campaign');
  await expect(page.getByText('Projects 1/3')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('current-project-name')).toHaveText('Spring campaign');
});
