import { gzipSync } from 'node:zlib';
import { expect, test, type Page, type Response } from '@playwright/test';
import { signInAsSubscriber } from './fixtures';

/** The initial JavaScript budget of every page (docs/decisions/007-web-stack.md). */
const BUDGET_BYTES = 200 * 1024;

/**
 * Gzipped bytes of every script the page fetches while it loads `path` until the network is quiet; the
 * bytes that crossed the network for them, and the scripts that came uncompressed.
 */
async function initialScriptBytes(
  page: Page,
  path: string,
): Promise<{ total: number; files: number; wire: number; uncompressed: string[] }> {
  const loaded: Array<Promise<{ body: Buffer; wire: number; encoding: string | undefined; url: string }>> =
    [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    loaded.push(
      (async () => ({
        body: await response.body(),
        wire: (await response.request().sizes()).responseBodySize,
        encoding: (await response.allHeaders())['content-encoding'],
        url: response.url(),
      }))(),
    );
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const files = await Promise.all(loaded);
  return {
    total: files.reduce((sum, { body }) => sum + gzipSync(body, { level: 9 }).length, 0),
    files: files.length,
    wire: files.reduce((sum, { wire }) => sum + wire, 0),
    // Below 1 KiB the build keeps no compressed copy.
    uncompressed: files.filter((f) => f.body.length >= 1024 && f.encoding !== 'br').map((f) => f.url),
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
    description:
      `sign-in ${kib(signIn.total)} in ${signIn.files} files (${kib(signIn.wire)} over the network, brotli); ` +
      `workspace ${kib(workspace.total)} in ${workspace.files} files`,
  });
  console.log(info.annotations.at(-1)!.description);
  expect(signIn.total).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(workspace.total).toBeLessThanOrEqual(BUDGET_BYTES);
  // What the browser is sent is compressed, not only what the budget counts.
  expect(signIn.uncompressed).toEqual([]);
  expect(workspace.uncompressed).toEqual([]);
  expect(signIn.wire).toBeLessThanOrEqual(signIn.total);
});
