import { expect, test } from '@playwright/test';
import { signInAs } from './fixtures';

test('a tab opened before a deploy loads the new version when a part it asks for is gone', async ({
  page,
}) => {
  await signInAs(page, 'admin@demo.local');
  // The deploy removed the System Logs part this tab knows of: the first time it is asked for, the server
  // is asked for a file that is not there, and its answer is what the tab gets.
  let asked = 0;
  await page.route(/\/assets\/system-logs-[^/]+\.js$/, async (route) => {
    asked++;
    if (asked > 1) return route.continue();
    const gone = new URL('/assets/system-logs-removed-by-deploy.js', route.request().url()).href;
    const answer = await route.fetch({ url: gone });
    expect(answer.status()).toBe(404);
    return route.fulfill({ response: answer });
  });
  let loads = 0;
  page.on('load', () => loads++);

  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'System Logs' })
    .click();
  await expect(page.getByRole('heading', { name: 'System Logs' })).toBeVisible();
  expect(page.url()).toMatch(/\/logs$/);
  // One reload fetched the part again.
  expect(asked).toBe(2);
  expect(loads).toBe(1);
});
