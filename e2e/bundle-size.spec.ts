import { gzipSync } from 'node:zlib';
import { expect, test, type Page, type Response } from '@playwright/test';
import { signInAsSubscriber } from './fixtures';

/** The initial JavaScript budget of every page (docs/decisions/007-web-stack.md). */
const BUDGET_BYTES = 200 * 1024;

/** Gzipped bytes of every script the page fetches while it loads `path` until the network is quiet. */
async function initialScriptBytes(page: Page, path: string): Promise<{ total: number; files: number }> {
  const bodies: Array<Promise<Buffer>> = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const files = await Promise.all(bodies);
  return {
    total: files.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0),
    files: files.length,
  };
}

test('the sign-in page and the workspace each load at most 200 KiB of gzipped JavaScript', async ({
  page,
}, info) => {
  const signIn = await initialScriptBytes(page, '/');
  await expect(page.getByText('Authentication Required')).toBeVisible();

  await signInAsSubscriber(page, 'Growth');
  const workspace = await initialScriptBytes(page, '/');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  info.annotations.push({
    type: 'initial JS (gzip)',
    description: `sign-in ${kib(signIn.total)} in ${signIn.files} files; workspace ${kib(workspace.total)} in ${workspace.files} files`,
  });
  console.log(info.annotations.at(-1)!.description);
  expect(signIn.total).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(workspace.total).toBeLessThanOrEqual(BUDGET_BYTES);
});
