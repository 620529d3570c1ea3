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

test('a subscriber at the limit: long names end in an ellipsis, toasts stay clear of the top bar, New Project says why it is disabled', async ({
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
  // The identity provider may still know the admin and sign them straight back in.
  await page.getByRole('button', { name: 'Log In' }).click();
  const picker = page.getByRole('heading', { name: 'Sign in to Threadreach' });
  const logout = page.getByRole('button', { name: 'Logout' });
  await expect(picker.or(logout)).toBeVisible();
  if (await picker.isVisible())
    await page.getByRole('button', { name: 'Sign in as admin@demo.local' }).click();
  await expect(page.getByTestId('current-project-name')).toHaveText(own);
  await expect(banner).toHaveCount(0);
  await expect(
    page
      .getByRole('form', { name: 'Product Information' })
      .getByRole('button', { name: 'Save', exact: true }),
  ).toBeEnabled();
});
