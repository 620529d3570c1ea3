import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInAs } from './fixtures';

const ACCESS_DENIED = 'Access Denied - This page is only accessible to administrators and moderators.';

/** Words and subreddits of the simulator's freelancing corpus, so a search finds leads. */
const KEYWORDS = ['invoice', 'invoices', 'invoicing tool'];
const SUBREDDITS = ['freelance', 'Freelancers'];

/** The `YYYY-MM-DD` of a day counted back from today, in the browser's (and the server's) UTC. */
function utcDay(daysBack = 0): string {
  return new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);
}

async function bearer(page: Page): Promise<{ authorization: string }> {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  return { authorization: `Bearer ${token}` };
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

/**
 * A project of the signed-in user with approved keywords and subreddits and one finished search of the
 * simulated Reddit: the posts, comments and searches the statistics count. Returns its id.
 */
async function projectWithLeads(page: Page, name: string): Promise<string> {
  const headers = await bearer(page);
  const api = page.request;
  const project = await ok<{ id: string }>(await api.post('/api/v1/projects', { headers, data: { name } }));
  const base = `/api/v1/projects/${project.id}`;
  await ok(
    await api.post(`${base}/approve-keywords`, {
      headers,
      data: {
        keywords: KEYWORDS.map((keyword) => ({ keyword, type: 'product', approved: true })),
        generate_subreddits: false,
      },
    }),
  );
  const added = await ok<{ added: { id: string }[] }>(
    await api.post(`${base}/add-subreddits-bulk`, { headers, data: { subreddits: SUBREDDITS } }),
  );
  await ok(
    await api.post(`${base}/approve-subreddits`, {
      headers,
      data: { subreddits: added.added.map((s) => ({ id: s.id, approved: true })) },
    }),
  );
  // Approving starts the subreddits' first search; one is started here only when none did.
  await expect(async () => {
    const { status } = await ok<{ status: string }>(
      await api.get(`${base}/search-enhanced/status`, { headers }),
    );
    if (status === 'idle') await ok(await api.post(`${base}/search-enhanced`, { headers, data: {} }));
    expect(status).toBe('completed');
  }).toPass({ timeout: 200_000, intervals: [1000] });
  const posts = await ok<{ total: number }>(
    await api.get(`/api/v1/posts?project_id=${project.id}`, { headers }),
  );
  expect(posts.total).toBeGreaterThan(0);
  return project.id;
}

const card = (page: Page, list: string, name: string) =>
  page.getByRole('list', { name: list }).getByRole('listitem', { name });

/** Shows every project, whatever the first load pre-filtered. */
async function clearColumnFilters(page: Page) {
  const clear = page.getByRole('button', { name: 'Clear column filters' });
  if (await clear.isEnabled()) await clear.click();
  await expect(clear).toBeDisabled();
}

test('an admin reads /stats by project and by day, with column filters and the chart', async ({ page }) => {
  test.setTimeout(300_000);
  const name = `Stats ${randomUUID().slice(0, 8)}`;
  await signInAs(page, 'admin@demo.local');
  await projectWithLeads(page, name);

  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'Statistics' })
    .click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole('heading', { name: 'All Projects Statistics' })).toBeVisible();
  // This week, Monday through today.
  await expect(page.getByLabel('End Date')).toHaveValue(utcDay());
  const start = await page.getByLabel('Start Date').inputValue();
  expect(new Date(`${start}T00:00:00Z`).getUTCDay()).toBe(1);

  const byProject = page.getByRole('table', { name: 'Statistics by project' });
  await expect(byProject).toBeVisible();
  await expect(card(page, 'Summary', 'Projects')).toContainText(/[1-9]/);
  await expect(card(page, 'Summary', 'Posts Found')).toContainText(/[1-9]/);
  const chart = page.getByRole('figure', { name: 'DMs sent, replies and leads per day' });
  await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
  // "Leads found" names both a line and the right-hand axis; DMs sent and replies share the left one.
  await expect(chart.getByText('Leads found').first()).toBeVisible();
  await expect(chart.getByText('DMs sent and replies')).toBeVisible();

  // Filter the Project column down to this test's project; open it to its subreddits.
  await clearColumnFilters(page);
  await byProject.getByRole('button', { name: 'Filter Project' }).click();
  await page.getByRole('group', { name: 'Project values' }).getByLabel(name, { exact: true }).check();
  await page.keyboard.press('Escape');
  const rows = byProject.locator('tbody > tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(name);
  await byProject.getByRole('button', { name: `Show details of ${name}` }).click();
  const subs = page.getByRole('table', { name: `Top subreddits of ${name}` });
  await expect(subs.locator('tbody tr').first()).toContainText(/r\/freelance/i);
  await expect(page.getByText('No connected accounts.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear column filters' }).click();
  await expect(rows.filter({ hasText: name })).toHaveCount(1);

  // By day: today's row opens to its projects, this one among them.
  await page.getByLabel('Group By').selectOption({ label: 'Day' });
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const byDay = page.getByRole('table', { name: 'Statistics by day' });
  await expect(byDay).toBeVisible();
  await byDay.getByRole('button', { name: `Show details of ${utcDay()}` }).click();
  await expect(page.getByRole('table', { name: `Projects on ${utcDay()}` })).toContainText(name);
  await byDay.getByRole('button', { name: 'Filter Posts' }).click();
  await page.getByRole('group', { name: 'Posts values' }).getByRole('checkbox').first().check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Clear column filters' })).toBeEnabled();
  await page.getByRole('button', { name: 'Clear column filters' }).click();

  // A quick range applies at once; a range too long is refused on the page.
  await page.getByRole('button', { name: 'Last 30 Days' }).click();
  await expect(page.getByLabel('Start Date')).toHaveValue(utcDay(29));
  // Today's row stays open across the new range.
  await expect(page.getByRole('table', { name: `Projects on ${utcDay()}` })).toContainText(name);
  await page.getByLabel('Start Date').fill('2020-01-01');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText('The range is longer than 366 days')).toBeVisible();
});

test("an admin uses a project's monthly statistics: pickers, range and admin actions", async ({ page }) => {
  test.setTimeout(300_000);
  const name = `Monthly ${randomUUID().slice(0, 8)}`;
  await signInAs(page, 'admin@demo.local');
  const projectId = await projectWithLeads(page, name);
  await page.reload();
  await page.getByRole('combobox', { name: 'Project' }).selectOption(projectId);
  await page
    .getByRole('navigation', { name: 'Workflow steps' })
    .getByRole('button', { name: /Agent Activity/ })
    .click();

  const panel = page.getByRole('region', { name: 'Monthly statistics panel' });
  await expect(panel.getByRole('heading', { name: 'Monthly Statistics' })).toBeVisible();
  const now = new Date();
  await expect(panel.getByRole('combobox', { name: 'Year' })).toHaveValue(String(now.getUTCFullYear()));
  await expect(card(page, 'Monthly statistics', 'Posts Found')).toContainText(/[1-9]/);
  await expect(card(page, 'Monthly statistics', 'Searches Performed')).toContainText(/[1-9]/);
  await expect(card(page, 'Monthly statistics', 'Reply Rate')).toContainText('—');
  await expect(
    panel
      .getByRole('figure', { name: 'DMs sent, replies and leads per day' })
      .locator('svg.recharts-surface'),
  ).toBeVisible();

  // The whole year, then no year at all.
  await panel.getByRole('combobox', { name: 'Month' }).selectOption({ label: 'All Months' });
  await expect(panel.getByText(`All of ${now.getUTCFullYear()}`)).toBeVisible();
  await expect(panel.getByRole('figure', { name: 'DMs sent, replies and leads per month' })).toBeVisible();
  await expect(card(page, 'Monthly statistics', 'Posts Found')).toContainText(/[1-9]/);
  await expect(panel.getByRole('combobox', { name: 'Year' }).locator('option')).toHaveText([
    'Select year',
    ...[0, 1, 2, 3, 4].map((i) => String(now.getUTCFullYear() - i)),
  ]);
  await panel.getByRole('combobox', { name: 'Year' }).selectOption({ label: 'Select year' });
  await expect(panel.getByText('Please select a year to load statistics.')).toBeVisible();
  await panel.getByRole('combobox', { name: 'Year' }).selectOption(String(now.getUTCFullYear()));

  // A custom range of the last seven days.
  await panel.getByRole('button', { name: 'Show Calendar' }).click();
  await panel.getByRole('button', { name: 'Load Range' }).click();
  await expect(panel.getByText('Please select both start and end dates.')).toBeVisible();
  await panel.getByLabel('Range Start').fill(utcDay(6));
  await panel.getByLabel('Range End').fill(utcDay());
  await panel.getByRole('button', { name: 'Load Range' }).click();
  await expect(card(page, 'Date range statistics', 'Days')).toContainText('7');
  await expect(card(page, 'Date range statistics', 'Avg Messages / Day')).toContainText('0');
  await expect(card(page, 'Date range statistics', 'Success Rate')).toContainText('—');
  await expect(card(page, 'Date range statistics', 'Posts Found')).toContainText(/[1-9]/);
  await panel.getByRole('button', { name: 'Hide Calendar' }).click();
  await expect(page.getByRole('list', { name: 'Monthly statistics' })).toBeVisible();

  // The admin actions act on the project's accounts; this one has none connected.
  await panel.getByRole('button', { name: 'Reset Daily Limits' }).click();
  await expect(panel.getByText('Daily limits reset for 0 accounts.')).toBeVisible();
  await panel.getByRole('button', { name: 'Refresh All Tokens' }).click();
  await expect(panel.getByText('This project has no connected accounts.')).toBeVisible();
  await expect(panel.getByText('Refreshed: 0 · Failed: 0')).toBeVisible();
});

test('a moderator sees /stats', async ({ page }) => {
  await signInAs(page, 'moderator@demo.local');
  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'Statistics' })
    .click();
  await expect(page.getByRole('heading', { name: 'All Projects Statistics' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Summary' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Statistics by project' })).toBeVisible();
});

test('a USER sees Access Denied on /stats', async ({ page }) => {
  await signInAs(page, 'user@demo.local');
  await page.goto('/stats');
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Statistics by project' })).toHaveCount(0);
  const res = await page.request.get(
    `/api/v1/all-projects/daily-statistics?start_date=${utcDay(6)}&end_date=${utcDay()}`,
    { headers: await bearer(page) },
  );
  expect(res.status()).toBe(403);
});
