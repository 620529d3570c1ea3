import { expect, type Page } from '@playwright/test';

/** Goes through the development identity provider's page, as a person would, and picks an account. */
export async function pickAccount(page: Page, email: string) {
  await page.goto('/');
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await expect(page.getByText('Please log in to access this application.')).toBeVisible();
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Threadreach' })).toBeVisible();
  await page.getByRole('button', { name: `Sign in as ${email}` }).click();
}

/** Signs in and waits for the workspace. */
export async function signInAs(page: Page, email: string) {
  await pickAccount(page, email);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

export const PRODUCT_INFO = {
  'Product Description':
    'A bookkeeping app for freelance designers that turns invoices and receipts into tax-ready reports.',
  'Ideal Client Profile': 'Freelance designers in the US who do their own taxes every quarter.',
  'Call to Action': 'Try it free for 30 days.',
  'Writing Style': 'Friendly and brief, no hard sell.',
};
