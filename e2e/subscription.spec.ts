import { expect, test } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { signInAs, signInAsNewCustomer, signInAsSubscriber } from './fixtures';

test('a new customer chooses a plan, completes the local checkout and reaches the dashboard', async ({
  page,
}) => {
  await signInAsNewCustomer(page);
  await expect(page.getByRole('heading', { name: 'Choose a plan' })).toBeVisible();

  const growth = page.getByRole('region', { name: 'Growth' });
  await expect(growth.getByText('$79.00')).toBeVisible();
  await expect(growth.getByText('per month')).toBeVisible();
  await expect(growth.getByText('Up to 3 profiles')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Starter' }).getByText('Up to 1 profile', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(/card payment provider.*cancel anytime/)).toBeVisible();

  await growth.getByRole('button', { name: 'Select Plan' }).click();
  await expect(page).toHaveURL(/\/billing\/local-checkout\/cs_local_/);
  await expect(page.getByText('Demo checkout — no card is charged')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Selected plan' }).getByText('Growth')).toBeVisible();
  await page.getByRole('button', { name: 'Complete purchase' }).click();

  await expect(page).toHaveURL(/\/subscribe\/success\?session_id=cs_local_/);
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByText('Access updated successfully! Redirecting to your dashboard...')).toBeVisible();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Projects 0/3')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Your First Project' })).toBeVisible();
});

test('cancelling the local checkout returns to the plans without a subscription', async ({ page }) => {
  await signInAsNewCustomer(page);

  await page.getByRole('region', { name: 'Starter' }).getByRole('button', { name: 'Select Plan' }).click();
  await expect(page.getByText('Demo checkout — no card is charged')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/subscribe\/cancel$/);
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to plans' }).click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByRole('region', { name: 'Starter' })).toBeVisible();

  // Still without a plan: the workspace sends them back to the plans.
  await page.goto('/');
  await expect(page).toHaveURL(/\/subscribe$/);
});

test('a customer without a plan can log out from the plans page', async ({ page }) => {
  await signInAsNewCustomer(page);
  const account = page.getByRole('navigation', { name: 'Account' });
  await expect(account.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(account.getByRole('link', { name: 'Go to Dashboard' })).toHaveCount(0);
  await account.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Authentication Required')).toBeVisible();
});

test('a subscriber on the plans page finds the way back to the dashboard', async ({ page }) => {
  await signInAsSubscriber(page, 'Starter');
  await page.goto('/subscribe');
  await expect(page.getByRole('heading', { name: 'Choose a plan' })).toBeVisible();
  const starter = page.getByRole('region', { name: 'Starter' });
  await expect(starter.getByText('Your plan')).toBeVisible();
  await expect(starter.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByText('You have the Starter plan')).toBeVisible();
  // No second plan is sold beside it.
  await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(0);
  await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'Go to Dashboard' })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Projects 0/1')).toBeVisible();
});

test('a subscriber cancels their plan on the billing page, keeps it to the end of the period and renews it', async ({
  page,
}) => {
  await signInAsSubscriber(page, 'Growth');
  await page.getByRole('link', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByText('Plan: Growth')).toBeVisible();
  await expect(page.getByText('Status: active')).toBeVisible();
  const renews = page.getByText(/^Renews /);
  await expect(renews).toBeVisible();
  const day = (await renews.textContent())!.replace('Renews ', '');
  await expectAccessible(page, 'the subscription');

  await page.getByRole('button', { name: 'Manage subscription' }).click();
  await expect(page).toHaveURL(/\/billing\/local-portal\/bps_local_/);
  await expect(page.getByText('Demo billing — no card is charged')).toBeVisible();
  const plan = page.getByRole('region', { name: 'Growth' });
  await expect(plan.getByText(`Renews on ${day}`)).toBeVisible();
  await expectAccessible(page, 'the demo billing page');
  await plan.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(plan.getByText(`Canceled: access until ${day}`)).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Cancel plan' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Return to Threadreach' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByText('Status: canceled')).toBeVisible();
  await expect(page.getByText(`Access ends ${day}`)).toBeVisible();
  await expect(page.getByText('Profiles: up to 3')).toBeVisible();
  await expect(page.getByText('Projects: 0/3 used')).toBeVisible();
  await expect(page.getByText('Reddit accounts: 0/3 connected')).toBeVisible();

  // Canceled, it still runs: the plans say until when, and sell none beside it.
  await page.getByRole('link', { name: 'Plans' }).click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByText(`Your Growth plan runs until ${day}`)).toBeVisible();
  await expect(page.getByText(/to resume or manage it, open Subscription/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Growth' }).getByText('Your plan')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(0);
  // Nor does the server, asked directly.
  const refused = await page.evaluate(async () => {
    const res = await fetch('/api/v1/billing/create-checkout-session', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${localStorage.getItem('authToken')}`,
      },
      body: JSON.stringify({ price_id: 'price_local_starter' }),
    });
    return { status: res.status, body: (await res.json()) as { code: string; detail: string } };
  });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('already_subscribed');
  expect(refused.body.detail).toContain(`You canceled the Growth plan, but it runs until ${day}.`);

  // Renewed before it runs out, it renews again.
  await page.getByRole('link', { name: 'Subscription' }).first().click();
  await expect(page).toHaveURL(/\/subscription$/);
  await page.getByRole('button', { name: 'Manage subscription' }).click();
  await expect(page).toHaveURL(/\/billing\/local-portal\/bps_local_/);
  const canceled = page.getByRole('region', { name: 'Growth' });
  await canceled.getByRole('button', { name: 'Renew plan' }).click();
  await expect(canceled.getByText(`Renews on ${day}`)).toBeVisible();
  await expect(canceled.getByRole('button', { name: 'Renew plan' })).toHaveCount(0);
  await expect(canceled.getByRole('button', { name: 'Cancel plan' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Threadreach' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByText('Status: active')).toBeVisible();
  await expect(page.getByText(`Renews ${day}`)).toBeVisible();
});

test('a moderator is told on the plans page that they need no plan, and offered none', async ({ page }) => {
  await signInAs(page, 'moderator@demo.local');
  await page.goto('/subscribe');
  await expect(page.getByRole('heading', { name: 'Plans', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Growth' })).toBeVisible();
  await expect(page.getByText('You need no plan')).toBeVisible();
  await expect(
    page.getByText('Moderators and admins work without a plan: your profiles have no limit.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Go to Dashboard' }),
  ).toBeVisible();
});
