import { expect, test } from '@playwright/test';
import { systemClock } from '../apps/server/src/clock';
import { loadConfig } from '../apps/server/src/config/config';
import { issueV3Link } from '../apps/server/src/features/auth/auth.service';

/** A link signed with the running server's own secret, as `npm run cli -- v3-link` prints it. */
async function v3Link(email: string): Promise<string> {
  const config = loadConfig({ DATA_DIR: process.env.E2E_DATA_DIR!, PUBLIC_URL: process.env.E2E_BASE_URL! });
  return issueV3Link({ config, clock: systemClock }, email);
}

test('a moderator signs in with a v3 link, which is removed from the address and works once', async ({
  page,
}) => {
  const link = await v3Link('moderator@demo.local');
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page).not.toHaveURL(/v3=/);

  // Logging out ends the session on the server and then reloads the page; the link is opened after that.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Logout' }).click();
  await reloaded;
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await page.goto(link);
  await expect(page.getByText(/V3 Login Error: .*already used/)).toBeVisible();
});
