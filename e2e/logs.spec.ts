import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from './fixtures';

const ACCESS_DENIED = 'Access Denied - This page is only accessible to administrators and moderators.';
const EMPTY = 'No logs found for the selected criteria.';

/** Requests whose access lines carry the marker: 105 lines, one page of 100 and one of 5. */
async function logMarkedRequests(page: Page, marker: string, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await page.request.get(`/api/v1/health?e2e=${marker}&n=${i}`);
    expect(res.ok()).toBe(true);
  }
}

const rows = (page: Page) => page.getByRole('table', { name: 'System logs' }).locator('tbody tr');

test('an admin filters, searches, pages and exports the system logs', async ({ page }) => {
  const marker = `e2e-${randomUUID().slice(0, 8)}`;
  await signInAs(page, 'admin@demo.local');
  await logMarkedRequests(page, marker, 105);

  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'System Logs' })
    .click();
  await expect(page).toHaveURL(/\/logs$/);
  await expect(page.getByRole('heading', { name: 'System Logs' })).toBeVisible();
  await expect(page.getByLabel('Auto-refresh (5s)')).not.toBeChecked();

  // Search: Enter applies. Lines reach the table within a second or two of being logged, and a period
  // ends a few seconds before now. The page's own requests carry the search text URL-encoded, so they do
  // not match it.
  await page.getByLabel('Search').fill(`health?e2e=${marker}`);
  await page.getByLabel('Search').press('Enter');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(rows(page)).toHaveCount(100, { timeout: 1000 });
    await expect(page.getByLabel('Log statistics')).toContainText('Total: 105', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByLabel('Log statistics')).toContainText('INFO: 105');
  const first = rows(page).first();
  await expect(first).toContainText('INFO');
  // The access lines go by the Logger filter's (the spec's) name.
  await expect(first).toContainText('uvicorn.access');
  await expect(first).toContainText(`GET /api/v1/health?e2e=${marker}&n=104 200`);

  // Page: a full page enables Next; the second page holds the last 5.
  const next = page.getByRole('button', { name: 'Next' });
  const previous = page.getByRole('button', { name: 'Previous' });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(rows(page)).toHaveCount(5);
  await expect(rows(page).last()).toContainText(`n=0 200`);
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(rows(page)).toHaveCount(100);

  // Export: every line the filters match, both pages, newest first.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^system-logs-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv[0]).toBe('Timestamp,Level,Logger,Message');
  expect(csv).toHaveLength(106);
  expect(csv[1]).toMatch(
    new RegExp(
      `^\\d{4}-\\d{2}-\\d{2}T[^,]+Z,INFO,uvicorn.access,GET /api/v1/health\\?e2e=${marker}&n=104 200 `,
    ),
  );
  expect(csv[105]).toMatch(new RegExp(`,INFO,uvicorn.access,GET /api/v1/health\\?e2e=${marker}&n=0 200 `));

  // Filters apply together and go back to the first page.
  await next.click();
  await expect(rows(page)).toHaveCount(5);
  await page.getByLabel('Logger').selectOption({ label: 'uvicorn.access' });
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows(page)).toHaveCount(100);
  await page.getByLabel('Level').selectOption({ label: 'Error' });
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText(EMPTY)).toBeVisible();
  // Total is the filters' (no ERROR line); the counts per level keep every level's.
  await expect(page.getByLabel('Log statistics')).toContainText('Total: 0');
  await expect(page.getByLabel('Log statistics')).toContainText('All levels: 105');
  await expect(page.getByLabel('Log statistics')).toContainText('INFO: 105');
  await page.getByLabel('Level').selectOption({ label: 'All' });
  await page.getByLabel('Logger').selectOption({ label: 'ai-service' });
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText(EMPTY)).toBeVisible();

  // A custom range that ended before the requests: nothing; a malformed one is refused on the page.
  await page.getByLabel('Logger').selectOption({ label: 'All' });
  await page.getByLabel('Period').selectOption({ label: 'Custom range' });
  await page.getByLabel('From', { exact: true }).fill('01-01-2020 00:00');
  await page.getByLabel('To', { exact: true }).fill('02-01-2020 00:00');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText(EMPTY)).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill('2020-01-02');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText('To must be a date and time as dd-mm-yyyy hh:mm')).toBeVisible();
});

test('a USER sees Access Denied on /logs', async ({ page }) => {
  await signInAs(page, 'user@demo.local');
  await page.goto('/logs');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await expect(page.getByRole('table', { name: 'System logs' })).toHaveCount(0);
  // The server refuses the user's own token too.
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  const res = await page.request.get('/api/v1/system/logs', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(403);
});

test('a long line leaves the level badge whole', async ({ page }) => {
  const marker = `e2e-${randomUUID().slice(0, 8)}`;
  await signInAs(page, 'admin@demo.local');
  // One unbroken word as wide as a sign-in redirect's query string.
  expect((await page.request.get(`/api/v1/health?e2e=${marker}&pad=${'x'.repeat(400)}`)).ok()).toBe(true);
  await page.goto('/logs');
  // As above, with the text's '?' and '=': the page's own requests, which carry it encoded, do not match.
  await page.getByLabel('Search').fill(`health?e2e=${marker}`);
  await expect(async () => {
    await page.getByLabel('Search').press('Enter');
    await expect(rows(page)).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const level = rows(page).first().getByText('INFO', { exact: true });
  // A clipped badge shows an ellipsis: its text is wider than the room it has.
  const clipped = await level.evaluate((label) => label.scrollWidth > label.clientWidth);
  expect(clipped).toBe(false);
});
