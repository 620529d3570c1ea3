import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signInAs } from './fixtures';

const ACCESS_DENIED = 'Access Denied - This page is only accessible to administrators and moderators.';

test('an admin adds a credential, tests it, disables it and deletes it; the secret never comes back', async ({
  page,
}) => {
  const suffix = randomUUID().slice(0, 8);
  const accountName = `e2e_search_bot_${suffix}`;
  const clientId = `e2e-client-${suffix}`;
  const secret = `e2e-secret-${randomUUID()}`;

  // Every credentials answer the page receives, to check that none carries the secret.
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/v1/reddit-credentials')) {
      bodies.push(response.text().catch(() => ''));
    }
  });

  await signInAs(page, 'admin@demo.local');
  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'Credentials' })
    .click();
  await expect(page).toHaveURL(/\/credentials$/);
  await expect(page.getByRole('tab', { name: /^Credentials \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Proxy Pool' })).toBeVisible();
  // The server seeds a search and a send credential, so the table is there from the start.
  const table = page.getByRole('table', { name: 'Credentials' });
  await expect(table.locator('tbody tr').first()).toBeVisible();

  // Add.
  await page.getByRole('button', { name: '+ Add Credential' }).click();
  const add = page.getByRole('dialog', { name: 'Add Credential' });
  const create = add.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  await add.getByLabel('Type').selectOption({ label: 'Search (read-only)' });
  await add.getByLabel('Account Name').fill(accountName);
  await add.getByLabel('Client ID').fill(clientId);
  await expect(create).toBeDisabled();
  await expect(add.getByLabel('Client Secret')).toHaveAttribute('type', 'password');
  await add.getByLabel('Client Secret').fill(secret);
  await expect(add.getByLabel('Enabled')).toBeChecked();
  await expect(create).toBeEnabled();
  await create.click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Credential created', { exact: true })).toBeVisible();

  const row = table.getByRole('row').filter({ hasText: accountName });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Search');
  await expect(row).toContainText('Random');
  await expect(row).toContainText('Never');
  await expect(row).toContainText('Enabled');
  expect(await page.content()).not.toContain(secret);

  // Details and Test Connection: the simulator does not know this client, so either outcome is shown.
  await row.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Credential Details' });
  await expect(details.getByRole('region', { name: 'Basic Information' })).toContainText(accountName);
  await expect(details.getByRole('region', { name: 'Efficiency Metrics' })).toBeVisible();
  await expect(details.getByRole('region', { name: 'Proxy Health' })).toBeVisible();
  // No rate ('—') until it has made requests; the server's discovery may already have searched with it.
  await expect(details.getByTestId('success-rate')).toHaveText(/^(—|\d+\.\d%)$/);
  await details.getByRole('button', { name: 'Test Connection' }).click();
  const result = details.getByRole('status').filter({ hasText: 'Connection test' });
  await expect(result).toContainText(/Connection test: (success|failure)/);
  await expect(result).toContainText(/Response time: \d+ ms/);
  // The result shows at the top of Details, without scrolling.
  await expect(result).toBeInViewport();
  expect(await page.content()).not.toContain(secret);
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toBeHidden();

  // Disable: it leaves the default list and shows as Disabled with 'Include Disabled'.
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('Credential disabled', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByLabel('Include Disabled').check();
  await expect(row).toBeVisible();
  await expect(row).toContainText('Disabled');
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();

  // Delete, after the confirmation.
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Credential' });
  await expect(confirm).toContainText('Are you sure you want to delete this credential?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Credential deleted', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);

  // Still gone after a reload, disabled ones included.
  await page.reload();
  await page.getByLabel('Include Disabled').check();
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: accountName })).toHaveCount(0);

  expect(await page.content()).not.toContain(secret);
  for (const body of await Promise.all(bodies)) expect(body).not.toContain(secret);
});

test('a moderator sees the proxy pool', async ({ page }) => {
  await signInAs(page, 'moderator@demo.local');
  await page.goto('/credentials');
  await page.getByRole('tab', { name: 'Proxy Pool' }).click();
  await expect(page.getByRole('group', { name: 'Total Proxies' })).toBeVisible();
  // A percentage once requests went through proxies, '—' before.
  await expect(page.getByRole('group', { name: 'Avg Failure Rate' })).toContainText(/%|—/);
  await expect(
    page.getByRole('table', { name: 'Proxy details' }).or(page.getByText('No proxy details available')),
  ).toBeVisible();
});

test('a customer sees Access Denied on /credentials', async ({ page }) => {
  await signInAs(page, 'user@demo.local');
  await page.goto('/credentials');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Proxy Pool' })).toHaveCount(0);
});

test('proxy places in any language are accepted, and a long one keeps Search and Send apart', async ({
  page,
}) => {
  const suffix = randomUUID().slice(0, 8);
  const accountName = `e2e_place_bot_${suffix}`;
  const city = 'São José dos Campos do Descoberto de Minas Gerais';
  // A laptop-sized window, where a long place used to squeeze the other columns.
  await page.setViewportSize({ width: 1000, height: 800 });
  await signInAs(page, 'admin@demo.local');
  await page.goto('/credentials');

  await page.getByRole('button', { name: '+ Add Credential' }).click();
  const add = page.getByRole('dialog', { name: 'Add Credential' });
  await add.getByLabel('Account Name').fill(accountName);
  await add.getByLabel('Client ID').fill(`e2e-client-${suffix}`);
  await add.getByLabel('Client Secret').fill(`e2e-secret-${randomUUID()}`);
  await add.getByLabel('Country Code').fill('BR');
  await add.getByLabel('State').fill('São Paulo');
  await add.getByLabel('City').fill(city);
  await add.getByRole('button', { name: 'Create' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Credential created', { exact: true })).toBeVisible();

  const table = page.getByRole('table', { name: 'Credentials' });
  const row = table.getByRole('row').filter({ hasText: accountName });
  const place = row.getByTitle(`BR, São Paulo, ${city}`);
  await expect(place).toBeVisible();
  expect(await place.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // Every type and status badge shows its whole label: nothing squeezed it to an ellipsis.
  const labels = table
    .locator('tbody .mantine-Badge-label')
    .filter({ hasText: /^(Search|Send|Enabled|Disabled)$/ });
  expect(await labels.count()).toBeGreaterThan(2);
  for (const label of await labels.all()) {
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await expect(row.getByText('Search', { exact: true })).toBeVisible();

  // Clean up: this credential is not needed by the other tests.
  await row.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Credential' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row).toHaveCount(0);
});
