import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Opens the development identity provider's page, as a person would. */
async function openSignIn(page: Page) {
  await page.goto('/');
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await expect(page.getByText('Please log in to access this application.')).toBeVisible();
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Threadreach' })).toBeVisible();
}

/** Picks one of the demo accounts on the identity provider's page. */
export async function pickAccount(page: Page, email: string) {
  await openSignIn(page);
  await page.getByRole('button', { name: `Sign in as ${email}` }).click();
}

/** An e-mail no other test signs in with, so its account starts empty whatever ran before. */
export function uniqueEmail(prefix = 'customer'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * A Reddit account of the test's own on the simulator, 420 days old: a Reddit account is connected in
 * one workspace only, and each test signs in as a new customer.
 */
export async function newRedditAccount(request: APIRequestContext): Promise<string> {
  const name = `founder_${randomUUID().slice(0, 8)}`;
  const res = await request.post(`${process.env.E2E_SIM_URL!}/__sim/accounts`, { data: { name } });
  expect(res.status()).toBe(201);
  return name;
}

/** On the simulator's consent page (demo_founder chosen), logs in as `name` and approves. */
export async function approveAs(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Authorize application' })).toBeVisible();
  await expect(page.getByLabel('Log in as')).toHaveValue('demo_founder');
  await page.getByLabel('Log in as').selectOption(name);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`Reddit account u/${name} connected`)).toBeVisible();
}

/**
 * Connects a new Reddit account of the test's own to the project on screen (step 4), through the
 * simulator's consent page; returns its name and the accounts panel.
 */
export async function connectOwnRedditAccount(page: Page, request: APIRequestContext) {
  const reddit = await newRedditAccount(request);
  const accounts = page.getByRole('region', { name: 'Connected Reddit accounts' });
  await accounts.getByRole('button', { name: 'Connect account' }).click();
  await approveAs(page, reddit);
  return { reddit, accounts };
}

/** Whether Reddit (simulated) would deliver a DM to this person: some refuse DMs or are suspended. */
async function acceptsDms(request: APIRequestContext, username: string): Promise<boolean> {
  const res = await request.get(`${process.env.E2E_SIM_URL!}/__sim/users/${encodeURIComponent(username)}`);
  if (!res.ok()) return false;
  const { user } = (await res.json()) as {
    user: { deleted: boolean; suspended: boolean; refusesDms: boolean };
  };
  return !user.deleted && !user.suspended && !user.refusesDms;
}

/** The first comment lead on the Comments tab whose author can receive a DM, and that author's name. */
export async function reachableCommentLead(page: Page, request: APIRequestContext) {
  const comments = page.getByRole('tabpanel', { name: /^Comments/ }).getByRole('article');
  await expect(comments.first()).toBeVisible();
  // The first search also finds comments too old to message: those offer no Generate DM.
  const labels = await comments.evaluateAll((items) =>
    items
      .filter((i) => !i.textContent?.includes('Too old to message'))
      .map((i) => i.getAttribute('aria-label') ?? ''),
  );
  for (const label of labels) {
    const author = /^Comment by u\/(.+)$/.exec(label)?.[1];
    if (author && (await acceptsDms(request, author))) {
      // A person may have written several of the comments found: the first will do.
      return { lead: page.getByRole('article', { name: label, exact: true }).first(), author };
    }
  }
  throw new Error(`no comment author here accepts DMs: ${labels.join(', ')}`);
}

/** Signs in with a new e-mail: a customer without a subscription, who lands on the plans. */
export async function signInAsNewCustomer(page: Page, email = uniqueEmail()): Promise<string> {
  await openSignIn(page);
  await page.getByLabel('Other e-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/subscribe$/);
  return email;
}

/** A new customer who bought a plan through the local checkout (no card), on an empty workspace. */
export async function signInAsSubscriber(page: Page, plan: 'Starter' | 'Growth' = 'Growth'): Promise<string> {
  const email = await signInAsNewCustomer(page);
  await page.getByRole('region', { name: plan }).getByRole('button', { name: 'Select Plan' }).click();
  await expect(page.getByText('Demo checkout — no card is charged')).toBeVisible();
  await page.getByRole('button', { name: 'Complete purchase' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  return email;
}

/** Signs in and waits for the workspace (Logout, or on a narrower window the menu that holds it). */
export async function signInAs(page: Page, email: string) {
  await pickAccount(page, email);
  await expect(page.getByRole('banner').getByRole('button', { name: /^(Logout|Menu)$/ })).toBeVisible();
}

export const PRODUCT_INFO = {
  'Product Description':
    'A bookkeeping app for freelance designers that turns invoices and receipts into tax-ready reports.',
  'Ideal Client Profile': 'Freelance designers in the US who do their own taxes every quarter.',
  'Call to Action': 'Try it free for 30 days.',
  'Writing Style': 'Friendly and brief, no hard sell.',
};

/**
 * Keywords and subreddits of the simulator's freelancing corner ("send invoices and chase late
 * payments"), which a search of them finds leads for whatever the AI engine suggests.
 */
export const FREELANCE_KEYWORDS = ['invoice', 'invoices', 'invoicing tool'];
export const FREELANCE_SUBREDDITS = ['freelance', 'Freelancers'];

/**
 * A new project taken through steps 1-3 as a customer would: product information, the customer's own
 * keywords approved, the freelancing subreddits added and approved. Ends on step 4.
 */
export async function projectWithApprovedSubreddits(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create Your First Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill(name);
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();

  const form = page.getByRole('form', { name: 'Product Information' });
  for (const [label, value] of Object.entries(PRODUCT_INFO)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Save & Generate Keywords' }).click();

  await expect(page.getByRole('heading', { name: 'Keywords' })).toBeVisible();
  const product = page.getByRole('region', { name: 'Product Keywords' });
  for (const keyword of FREELANCE_KEYWORDS) {
    await page.getByLabel('Add your own keyword').fill(keyword);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const box = product.getByRole('checkbox', { name: keyword, exact: true });
    await expect(box).toBeVisible();
    await box.check();
  }
  await page.getByRole('button', { name: 'Approve & Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Subreddits' })).toBeVisible();
  await page
    .getByRole('textbox', { name: 'Add subreddits' })
    .fill(FREELANCE_SUBREDDITS.map((s) => `r/${s}`).join(', '));
  await page.getByRole('button', { name: 'Add Subreddits' }).click();
  await expect(page.getByText(/^Added \d+$/)).toBeVisible();
  const subreddits = page.getByRole('list', { name: 'Subreddits' });
  for (const sub of FREELANCE_SUBREDDITS) {
    await subreddits.getByRole('checkbox', { name: `r/${sub}`, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Approve & Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Posts & Messages' })).toBeVisible();
}
