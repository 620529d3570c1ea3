import { expect, test } from '@playwright/test';
import { signInAs } from './fixtures';

/**
 * The support chat against a local widget script that records the app's calls. The server runs without
 * SUPPORT_CHAT_SCRIPT_URL here, so the public configuration is answered with the script's same-origin
 * address, and the script itself is served by the test.
 */
const SCRIPT_PATH = '/e2e/support-chat-widget.js';
const WIDGET = `
  // Defined a moment after loading, as a real widget does once it has fetched its parts.
  setTimeout(() => {
    window.SupportChat = {
      boot: (user) => window.recordSupportChat('boot', user.email),
      update: (user) => window.recordSupportChat('update', user.email),
      shutdown: () => window.recordSupportChat('shutdown', ''),
    };
  }, 400);
`;

test('the widget boots with the signed-in e-mail and shuts down on logout', async ({ page, baseURL }) => {
  const calls: string[] = [];
  // Survives the reload that follows logout.
  await page.exposeFunction('recordSupportChat', (name: string, email: string) =>
    calls.push(email ? `${name} ${email}` : name),
  );
  await page.route('**/api/v1/public-config', async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    await route.fulfill({
      response,
      json: { ...config, support_chat_script_url: `${baseURL}${SCRIPT_PATH}` },
    });
  });
  let scriptLoads = 0;
  await page.route(`**${SCRIPT_PATH}`, (route) => {
    scriptLoads++;
    return route.fulfill({ contentType: 'application/javascript', body: WIDGET });
  });

  await signInAs(page, 'user@demo.local');
  await expect.poll(() => calls).toEqual(['boot user@demo.local']);
  expect(scriptLoads).toBe(1);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Authentication Required')).toBeVisible();
  await expect.poll(() => calls).toEqual(['boot user@demo.local', 'shutdown']);
});
