import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PRODUCT_INFO, signInAs, signInAsSubscriber } from './fixtures';

const LIMIT_REACHED = 'Project limit reached. Upgrade your subscription to create more projects.';
const NO_PERMISSION = "You don't have permission to create projects.";

/** True when the element's text is cut (it ends in an ellipsis rather than spilling out). */
function isTruncated(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.scrollWidth > el.clientWidth);
}

async function createProject(page: Page, name: string, opener: 'first' | 'top bar') {
  const button =
    opener === 'first'
      ? page.getByRole('button', { name: 'Create Your First Project' })
      : page.getByRole('banner').getByRole('button', { name: 'New Project' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill(name);
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();
}

test('a subscriber at the limit: long names end in an ellipsis, toasts stay clear of the top bar and let the pointer through, New Project says why it is disabled', async ({
  page,
}) => {
  await signInAsSubscriber(page, 'Starter');
  await expect(page.getByText('Projects 0/1')).toBeVisible();
  const name = `Spring outreach for freelance designers who keep their own books ${randomUUID()}`.slice(
    0,
    100,
  );
  await createProject(page, name, 'first');
  await expect(page.getByText('Projects 1/1')).toBeVisible();

  // The sidebar cuts the name inside its own width and shows it whole on hover.
  const sidebar = page.getByRole('complementary', { name: 'Project steps' });
  const current = sidebar.getByTestId('current-project-name');
  await expect(current).toHaveAttribute('title', name);
  expect(await isTruncated(current)).toBe(true);
  const [nameBox, sidebarBox] = [await current.boundingBox(), await sidebar.boundingBox()];
  expect(nameBox!.x + nameBox!.width).toBeLessThanOrEqual(sidebarBox!.x + sidebarBox!.width);
  const selector = page.getByRole('combobox', { name: 'Project' });
  await expect(selector).toHaveAttribute('title', name);
  expect((await selector.boundingBox())!.width).toBeLessThanOrEqual(280);

  // A toast appears at the bottom right; the top bar stays usable while it shows.
  const form = page.getByRole('form', { name: 'Product Information' });
  for (const [label, value] of Object.entries(PRODUCT_INFO)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  const toast = page.getByText('Product information saved');
  await expect(toast).toBeVisible();
  const header = page.getByRole('banner');
  const [toastBox, headerBox] = [await toast.boundingBox(), await header.boundingBox()];
  const viewport = page.viewportSize()!;
  expect(toastBox!.y).toBeGreaterThan(headerBox!.y + headerBox!.height);
  expect(toastBox!.y).toBeGreaterThan(viewport.height / 2);
  expect(toastBox!.x).toBeGreaterThan(viewport.width / 2);
  await header.getByRole('button', { name: 'Logout' }).click({ trial: true });
  await header.getByRole('combobox', { name: 'Project' }).click({ trial: true });
  // The pointer goes through the toast to the page beneath (a button there stays usable, and a pointer
  // resting on it does not hold it open); its close button takes clicks.
  const center = { x: toastBox!.x + toastBox!.width / 2, y: toastBox!.y + toastBox!.height / 2 };
  const beneath = await page.evaluate(
    `(() => { const hit = document.elementFromPoint(${center.x}, ${center.y}); return hit && hit.closest('.mantine-Notification-root') === null; })()`,
  );
  expect(beneath).toBe(true);
  const toastRoot = page.locator('.mantine-Notification-root', { hasText: 'Product information saved' });
  await toastRoot.getByRole('button').click({ trial: true });

  // At the limit, New Project is disabled before any form, and says why.
  const newProject = header.getByRole('button', { name: 'New Project' });
  await expect(newProject).toBeDisabled();
  await newProject.hover();
  await expect(page.getByRole('tooltip')).toHaveText(LIMIT_REACHED);
  await newProject.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Create New Project' })).toHaveCount(0);
});

test('a read-only user finds New Project disabled, told they may not create projects', async ({ page }) => {
  await signInAs(page, 'readonly@demo.local');
  const newProject = page.getByRole('banner').getByRole('button', { name: 'New Project' });
  await expect(newProject).toBeDisabled();
  await newProject.hover();
  await expect(page.getByRole('tooltip')).toHaveText(NO_PERMISSION);
  await newProject.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Create New Project' })).toHaveCount(0);
});

test('an admin opens on their own project, sees another user’s read-only under a banner, and starts afresh after logout', async ({
  page,
}) => {
  await signInAs(page, 'admin@demo.local');
  const banner = page.getByRole('status').filter({ hasText: 'Read-only: this project belongs to' });
  // The read-only demo account's 'Default Project' is not where an admin lands.
  await expect(
    page.getByRole('heading', { name: 'No project yet' }).or(page.getByRole('form')),
  ).toBeVisible();
  await expect(banner).toHaveCount(0);

  const own = `Admin project ${randomUUID().slice(0, 8)}`;
  await createProject(page, own, 'top bar');
  await expect(page.getByTestId('current-project-name')).toHaveText(own);

  const selector = page.getByRole('combobox', { name: 'Project' });
  await selector.selectOption({ label: 'Default Project (readonly@demo.local)' });
  await expect(banner).toContainText('Read-only: this project belongs to readonly@demo.local');
  const form = page.getByRole('form', { name: 'Product Information' });
  await expect(form.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Save & Generate Keywords' })).toBeDisabled();
  await expect(form.getByLabel('Product Description')).not.toBeEditable();
  const sidebar = page.getByRole('complementary', { name: 'Project steps' });
  await expect(sidebar).toContainText('Owner e-mail: readonly@demo.local');

  // The choice is forgotten at logout: the next sign-in opens on the admin's own project again.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Authentication Required')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('selectedProjectId'))).toBeNull();
  // The identity provider still knows the admin, yet after a logout it asks who signs in.
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Threadreach' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in as admin@demo.local' }).click();
  await expect(page.getByTestId('current-project-name')).toHaveText(own);
  await expect(banner).toHaveCount(0);
  await expect(
    page
      .getByRole('form', { name: 'Product Information' })
      .getByRole('button', { name: 'Save', exact: true }),
  ).toBeEnabled();
});

/** True when the element or anything inside it shows only part of its content. */
function isCutOff(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) =>
    [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth),
  );
}

test('on a laptop half-screen and on a phone, the top bar keeps every control whole and on screen; the admin pages and Logout are in its menu', async ({
  page,
}) => {
  await signInAs(page, 'admin@demo.local');
  await createProject(page, `Narrow screens ${randomUUID().slice(0, 8)}`, 'top bar');
  const header = page.getByRole('banner');
  const menu = header.getByRole('button', { name: 'Menu' });
  await expect(menu).toBeHidden();
  // From 1200px the admin links sit inline and the bar stays one row: the project selector narrows first.
  await page.setViewportSize({ width: 1200, height: 800 });
  await expect(header.getByRole('link', { name: 'Credentials' })).toBeVisible();
  expect((await header.boundingBox())!.height).toBeLessThan(72);
  for (const width of [1024, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(header.getByRole('button', { name: 'Logout' })).toBeHidden();
    expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(width);
    for (const control of [
      header.getByRole('heading', { name: 'Threadreach' }),
      header.getByText('Demo mode — simulated Reddit'),
      header.getByRole('button', { name: 'New Project' }),
      header.getByText(/^Projects \d+\/∞$/),
      menu,
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await isCutOff(control)).toBe(false);
    }
  }

  // On the phone the steps sit above the step they open, as wide as the screen, and take little of its height:
  // the open step's title is written out, the others are numbers that keep their names.
  const sidebar = page.getByRole('complementary', { name: 'Project steps' });
  const sidebarBox = (await sidebar.boundingBox())!;
  expect(sidebarBox.width).toBe(320);
  expect(sidebarBox.height).toBeLessThan(180);
  const steps = sidebar.getByRole('navigation', { name: 'Workflow steps' });
  const keywords = steps.getByRole('button', { name: 'Keywords' });
  const subreddits = steps.getByRole('button', { name: 'Subreddits' });
  expect((await subreddits.boundingBox())!.width).toBeLessThan(48);
  await keywords.click();
  await expect(page.getByRole('heading', { name: 'Keywords', exact: true })).toBeVisible();
  expect((await keywords.boundingBox())!.width).toBeGreaterThan(100);

  await menu.click();
  const panel = page.getByRole('navigation', { name: 'Administration' });
  await panel.getByRole('link', { name: 'Statistics' }).click();
  await expect(page.getByRole('heading', { name: 'All Projects Statistics' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await menu.click();
  await expect(panel.getByRole('link', { name: 'System Logs' })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Credentials' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await menu.click();
  await header.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Authentication Required')).toBeVisible();
});

test('Back after signing in returns to the app, not to the finished sign-in page', async ({ page }) => {
  await signInAs(page, 'user@demo.local');
  await page.goBack();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByRole('banner').getByRole('button', { name: /^(Logout|Menu)$/ })).toBeVisible();
  await expect(page.getByText('sign_in_expired')).toHaveCount(0);
});

test('Back and Forward move between the steps shown, on the same address', async ({ page }) => {
  await signInAsSubscriber(page);
  await createProject(page, 'Steps and Back', 'first');
  const steps = page.getByRole('navigation', { name: 'Workflow steps' });
  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  await expect(heading('Product Information')).toBeVisible();
  await steps.getByRole('button', { name: /Keywords/ }).click();
  await expect(heading('Keywords')).toBeVisible();
  await steps.getByRole('button', { name: /Subreddits/ }).click();
  await expect(heading('Subreddits')).toBeVisible();
  await page.goBack();
  await expect(heading('Keywords')).toBeVisible();
  await page.goBack();
  await expect(heading('Product Information')).toBeVisible();
  await page.goForward();
  await expect(heading('Keywords')).toBeVisible();
  await expect(page).toHaveURL(/:\d+\/$/);
});
