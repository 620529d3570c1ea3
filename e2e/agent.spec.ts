import { expect, test, type Locator } from '@playwright/test';
import { connectOwnRedditAccount, projectWithApprovedSubreddits, signInAsSubscriber } from './fixtures';

const OPENING = 'Hey, saw your post and had to write.';

/** Whether the element sits in a part of the page the overlay has taken out of reach. */
const isInert = (locator: Locator) => locator.evaluate((el) => el.closest('[inert]') !== null);

test('agent mode: learns from three saved edits, runs on its own under the overlay, fills step 5, and stops', async ({
  page,
  request,
}) => {
  // Steps 1-3, a Reddit sign-in, a search, DMs for every lead and an autonomous run.
  test.setTimeout(300_000);
  await signInAsSubscriber(page, 'Growth');
  await projectWithApprovedSubreddits(page, 'Invoicing on autopilot');

  await connectOwnRedditAccount(page, request);
  await expect(page.getByRole('heading', { name: 'Posts & Messages' })).toBeVisible();

  // Leads, and a draft for each.
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  const dms = page.getByRole('region', { name: 'DM messages' });
  await dms.getByRole('button', { name: 'Generate All DMs' }).click();
  await expect(dms.getByRole('article').nth(2)).toBeVisible({ timeout: 60_000 });
  // Newest first: wait until the run is done, so the drafts below stay where they are.
  await expect(dms.getByRole('status', { name: 'Generating DMs' })).toBeHidden({ timeout: 120_000 });

  // Agent mode starts learning; completing it too early says what to do.
  const mode = page.getByRole('region', { name: 'AI mode' });
  // The switch follows the server: it turns on once agent mode is saved.
  const agentSwitch = mode.getByRole('switch', { name: 'AI Agent mode' });
  await agentSwitch.click();
  await expect(agentSwitch).toBeChecked();
  await expect(mode.getByRole('heading', { name: 'AI Agent' })).toBeVisible();
  await expect(mode.getByText('Saved edits: 0 / 3')).toBeVisible();
  await mode.getByRole('button', { name: 'Complete Learning' }).click();
  await expect(mode.getByRole('alert')).toContainText('Not enough training data!');
  await expect(mode.getByRole('alert')).toContainText('Edit 3 more of them');

  // The agent's own limits, through its settings dialog.
  await mode.getByRole('button', { name: 'Agent Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agent Settings' });
  await dialog.getByRole('textbox', { name: 'Daily DMs per profile' }).fill('5');
  await dialog.getByRole('button', { name: 'Save Settings' }).click();
  await expect(dialog).toBeHidden();
  await expect(mode.getByLabel('Current agent settings')).toContainText('5 DMs per profile per day');

  // Three drafts edited the customer's way and saved.
  const names = await dms
    .getByRole('article')
    .evaluateAll((items) => items.slice(0, 3).map((i) => i.getAttribute('aria-label') ?? ''));
  for (const name of names) {
    const dm = dms.getByRole('article', { name, exact: true });
    const box = dm.getByRole('textbox');
    const draft = await box.inputValue();
    await box.fill(`${OPENING} ${draft}`.slice(0, 390));
    await dm.getByRole('button', { name: 'Save' }).click();
    await expect(dm.getByText('Unsaved')).toBeHidden();
  }
  await expect(mode.getByText('Saved edits: 3 / 3')).toBeVisible();

  // Learning completes: the patterns show, and the agent takes over under the overlay.
  await mode.getByRole('button', { name: 'Complete Learning' }).click();
  await expect(page.getByText(/The agent starts in 5 seconds/)).toBeVisible();
  const overlay = page.getByRole('region', { name: 'Agent is running autonomously' });
  await expect(overlay).toBeVisible();
  const tone = page.getByRole('region', { name: 'Tone', includeHidden: true });
  await expect(tone).toContainText('Confidence');
  await expect(tone).toContainText('Sample size: 3');
  await expect(page.getByRole('region', { name: 'Structure', includeHidden: true })).toContainText(
    'Preferred length',
  );
  expect(await isInert(tone)).toBe(true);
  expect(await isInert(page.getByRole('region', { name: 'DM messages', includeHidden: true }))).toBe(true);
  expect(
    await isInert(page.getByRole('region', { name: 'Connected Reddit accounts', includeHidden: true })),
  ).toBe(true);

  // Step 5 stays usable and fills with the first run, 5 s after the start.
  await page
    .getByRole('navigation', { name: 'Workflow steps' })
    .getByRole('button', { name: /Agent Activity/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Agent Activity Logs' })).toBeVisible();
  await expect(page.getByLabel('Agent state')).toHaveText('ACTIVE');
  const logs = page.getByRole('region', { name: 'Recent activity logs' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh Logs' }).click();
    await expect(logs.getByText(/^Run completed:/)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
  await expect(logs.getByRole('listitem', { name: 'Search log' }).first()).toBeVisible();
  await expect(page.getByLabel('Operations completed')).not.toHaveText('0');
  await expect(page.getByLabel('Last activity')).not.toHaveText('Never');

  // Restart Learning, beside Stop Agent on the overlay and after a confirmation: the agent learns again,
  // nothing covered; the saved edits still count, so learning completes again and the agent takes over.
  await overlay.getByRole('button', { name: 'Restart Learning' }).click();
  const restart = page.getByRole('dialog', { name: 'Restart learning?' });
  await restart.getByRole('button', { name: 'Restart Learning' }).click();
  await expect(overlay).toBeHidden();
  await expect(page.getByLabel('Agent state')).toHaveText('INACTIVE');
  await page
    .getByRole('navigation', { name: 'Workflow steps' })
    .getByRole('button', { name: /Posts & Messages/ })
    .click();
  await expect(mode.getByText('Saved edits: 3 / 3')).toBeVisible();
  expect(await isInert(mode)).toBe(false);
  await mode.getByRole('button', { name: 'Complete Learning' }).click();
  await expect(overlay).toBeVisible();

  // Stop Agent: back to assistant mode, nothing covered any more.
  await overlay.getByRole('button', { name: 'Stop Agent' }).click();
  await expect(overlay).toBeHidden();
  await expect(mode.getByRole('heading', { name: 'AI Assistant' })).toBeVisible();
  expect(await isInert(dms)).toBe(false);
});
