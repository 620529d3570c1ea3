import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  connectOwnRedditAccount,
  projectWithApprovedSubreddits,
  reachableCommentLead,
  signInAsSubscriber,
} from './fixtures';

const SIM_URL = process.env.E2E_SIM_URL!;
const EDIT = ' PS: happy to set up your first quarter for free.';
const REPLY = 'Sounds useful. How does it handle receipts in other currencies?';

interface SimMessage {
  from: string;
  to: string;
  subject: string;
  body: string;
}

async function simMessagesFrom(request: APIRequestContext, from: string): Promise<SimMessage[]> {
  const res = await request.get(`${SIM_URL}/__sim/messages?from=${from}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { messages: SimMessage[] }).messages;
}

test('a fresh customer connects a Reddit account, sends one edited DM, sees the reply in History, and cannot send to that person again', async ({
  page,
  context,
  request,
}) => {
  // Steps 1-3, a Reddit sign-in round trip and a search: the longest journey of the suite.
  test.setTimeout(300_000);
  await signInAsSubscriber(page, 'Growth');
  await projectWithApprovedSubreddits(page, 'Freelance invoicing outreach');
  // A Reddit account of its own, through the simulator's consent page, and back on step 4 of the project.
  const { reddit, accounts } = await connectOwnRedditAccount(page, request);
  await expect(page.getByTestId('current-project-name')).toHaveText('Freelance invoicing outreach');
  await expect(page.getByRole('heading', { name: 'Posts & Messages' })).toBeVisible();
  await expect(accounts.getByTestId(`account-${reddit}`).getByText('10/10')).toBeVisible();

  // Find leads, and draft a DM to the author of one comment.
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  await page.getByRole('tab', { name: /^Comments/ }).click();
  const { lead, author } = await reachableCommentLead(page, request);
  await lead.getByRole('button', { name: 'Generate DM' }).click();

  const dms = page.getByRole('region', { name: 'DM messages' });
  const dm = dms.getByRole('article', { name: `DM to u/${author}` });
  await expect(dm).toBeVisible({ timeout: 30_000 });
  const text = dm.getByRole('textbox', { name: `Message to u/${author}` });
  const draft = await text.inputValue();
  expect(draft.length).toBeGreaterThan(20);
  // The campaign's counts follow at once, not at their next minute's refresh.
  const counts = page.getByRole('list', { name: 'Campaign statistics' });
  await expect(counts.getByRole('listitem', { name: 'Generated' })).toHaveText(/^Generated\s*1$/);
  // The lead now says its author has a DM instead of offering a second one.
  await expect(lead.getByText('DM written')).toBeVisible();
  await expect(lead.getByRole('button', { name: 'Generate DM' })).toHaveCount(0);
  // ...and leads there: the DM list sits below the results and the campaign's counts.
  await lead.getByRole('link', { name: 'DM written' }).click();
  await expect(dms.getByRole('heading', { name: /^DM messages/ })).toBeFocused();
  await expect(dm).toBeInViewport();

  // Edit: marked Unsaved until saved; Send waits for the save.
  const edited = `${draft}${EDIT}`.slice(0, 400);
  await text.fill(edited);
  await expect(dm.getByText('Unsaved')).toBeVisible();
  await expect(dm.getByRole('button', { name: 'Send' })).toBeDisabled();
  await dm.getByRole('button', { name: 'Save' }).click();
  await expect(dm.getByText('Unsaved')).toBeHidden();

  // A second tab of the same workspace, still showing the DM as sendable.
  const stale = await context.newPage();
  await stale.goto('/');
  const staleDm = stale
    .getByRole('region', { name: 'DM messages' })
    .getByRole('article', { name: `DM to u/${author}` });
  await expect(staleDm.getByRole('button', { name: 'Send' })).toBeEnabled();

  // Send: it goes now, and Reddit (simulated) received exactly this one message.
  await dm.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(`Sent to u/${author}`)).toBeVisible();
  await expect(dm.getByRole('button', { name: 'Send' })).toHaveCount(0);
  await expect(counts.getByRole('listitem', { name: 'Sent' })).toHaveText(/^Sent\s*1$/);
  await expect(accounts.getByTestId(`account-${reddit}`).getByText('9/10')).toBeVisible();
  const sent = await simMessagesFrom(request, reddit);
  expect(sent).toHaveLength(1);
  const toAuthor = sent.filter((m) => m.to.toLowerCase() === author.toLowerCase());
  expect(toAuthor).toHaveLength(1);
  expect(toAuthor[0]!.body).toBe(edited);

  // The person answers; Check for replies brings the answer into History.
  const answered = await request.post(`${SIM_URL}/__sim/replies`, {
    data: { from: author, to: reddit, kind: 'interested', body: REPLY },
  });
  expect(answered.status()).toBe(201);
  await page.getByRole('tab', { name: /^History/ }).click();
  const history = page.getByRole('tabpanel', { name: /^History/ });
  const contacted = history.getByRole('article', { name: `u/${author}` });
  await expect(contacted.getByText('No reply')).toBeVisible();
  await history.getByRole('button', { name: 'Check for replies' }).click();
  await expect(page.getByText('1 new reply', { exact: true })).toBeVisible();
  await expect(contacted.getByText('Replied', { exact: true })).toBeVisible();
  await expect(contacted.getByLabel(`Reply from u/${author}`)).toContainText(REPLY);

  // The stale tab's Send is refused with the reason, and nothing more reaches Reddit.
  await stale.bringToFront();
  await staleDm.getByRole('button', { name: 'Send' }).click();
  await expect(stale.getByText(`This DM was already sent to u/${author}`)).toBeVisible();
  expect(await simMessagesFrom(request, reddit)).toHaveLength(1);
});

test('Send All queues the DMs over the connected account, and Stop sending takes them back', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  await signInAsSubscriber(page, 'Growth');
  await projectWithApprovedSubreddits(page, 'Queued outreach');
  await connectOwnRedditAccount(page, request);

  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/^Search completed/)).toBeVisible({ timeout: 120_000 });
  const dms = page.getByRole('region', { name: 'DM messages' });
  await dms.getByRole('button', { name: 'Generate All DMs' }).click();
  await expect(page.getByText(/^\d+ DMs? generated/)).toBeVisible({ timeout: 120_000 });

  await page.getByRole('button', { name: 'Send All DMs' }).click();
  await page.getByRole('button', { name: 'Send all' }).click();
  await expect(page.getByText(/^Queued \d+ DMs? (over|on) 1 account/)).toBeVisible();
  const status = page.getByRole('region', { name: 'Sending status' });
  const queued = status.getByLabel('DMs by state').getByText(/^Queued: /);
  await expect(queued).not.toHaveText('Queued: 0');

  await status.getByRole('button', { name: 'Stop sending' }).click();
  await expect(status.getByText(/^Stop sending the( \d+)? queued DMs?\?/)).toBeVisible();
  await status.getByRole('button', { name: 'Stop sending' }).click();
  await expect(
    page.getByText(/^Sending stopped: \d+ queued DMs? went back to the unsent DMs\./),
  ).toBeVisible();
  await expect(queued).toHaveText('Queued: 0');
  await expect(status.getByRole('button', { name: 'Stop sending' })).toHaveCount(0);
  // They are unsent again: Send All offers them once more.
  await expect(page.getByRole('button', { name: 'Send All DMs' })).toBeEnabled();

  // A person put on the do-not-contact list by hand: their DM says so, and its Send is off.
  const label = await dms.getByRole('article').first().getAttribute('aria-label');
  const recipient = label!.replace(/^DM to u\//, '');
  const dm = dms.getByRole('article', { name: `DM to u/${recipient}` });
  await expect(dm.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByRole('button', { name: 'Do-not-contact list' }).click();
  const dnc = page.getByRole('dialog', { name: 'Do-not-contact list' });
  await dnc.getByLabel('Reddit user names').fill(recipient);
  await dnc.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('1 added to the do-not-contact list')).toBeVisible();
  await dnc.getByRole('button', { name: 'Close' }).click();
  await expect(
    dm.getByText(`u/${recipient} is on this workspace's do-not-contact list (added by hand)`),
  ).toBeVisible();
  await expect(dm.getByRole('button', { name: 'Send' })).toBeDisabled();

  // Delete asks first: Cancel keeps the DM, the dialog's Delete removes it.
  await dm.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete DM message' });
  await expect(
    confirm.getByText(`Delete the DM to u/${recipient}? Its text cannot be brought back.`),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(dm).toBeVisible();
  await dm.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('✅ DM message deleted successfully')).toBeVisible();
  await expect(dm).toHaveCount(0);
});
