import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  accountsEndpoints,
  dmsEndpoints,
  doNotContactEndpoints,
  historyEndpoints,
  leadsEndpoints,
  projectsEndpoints,
  searchEndpoints,
  sendingEndpoints,
} from '@threadreach/contract';
import { mockEndpoint } from '../../../test/api-mock.test-support';
import { accountList } from '../../../test/accounts.test-support';
import { mockAgentAtRest } from '../../../test/agent.test-support';
import {
  buildDm,
  buildPost,
  buildProject,
  dmGenerationStatus,
  dmPage,
  page,
  PROJECT_ID,
  renderScreen,
  searchStatus,
  sendingStatus,
} from '../../../test/discovery.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { buildCampaignStatistics } from '../../history/history.test-support';
import { LEADS_PAGE_SIZE } from '../hooks/use-leads';
import { LeadsStep } from './leads-step';

const user = userEvent.setup({ delay: null });

/** Everything step 4 reads but the leads and the DMs, answered as at rest. */
function mockStep4AtRest() {
  mockPublicConfig();
  mockEndpoint(projectsEndpoints.list, page([buildProject()], 1, 500));
  mockEndpoint(accountsEndpoints.list, accountList([]));
  mockEndpoint(searchEndpoints.enhancedStatus, searchStatus());
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
  mockEndpoint(sendingEndpoints.status, sendingStatus());
  mockAgentAtRest();
}

/** Step 4 with a full page of posts and two DMs to alice and bob. */
async function renderFullStep4() {
  mockStep4AtRest();
  const posts = Array.from({ length: LEADS_PAGE_SIZE }, (_, i) => buildPost({ title: `Post ${i + 1}` }));
  mockEndpoint(leadsEndpoints.posts, page(posts));
  mockEndpoint(leadsEndpoints.comments, page([]));
  mockEndpoint(leadsEndpoints.profiles, page([]));
  mockEndpoint(
    dmsEndpoints.list,
    dmPage([buildDm({ recipient_username: 'alice' }), buildDm({ recipient_username: 'bob' })]),
  );
  renderScreen(<LeadsStep projectId={PROJECT_ID} readOnly={false} />);
  await screen.findByRole('article', { name: `Post ${LEADS_PAGE_SIZE}` });
  const firstDm = await screen.findByRole('article', { name: 'DM to u/alice' });
  const send = within(firstDm).getByRole('button', { name: 'Send' });
  await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(false));
  return { send };
}

/** Tab presses from where focus is until `target` has it. */
async function tabsTo(target: HTMLElement, most = 200) {
  let presses = 0;
  while (document.activeElement !== target) {
    if (presses === most) throw new Error(`not reached in ${most} Tab presses`);
    await user.tab();
    presses += 1;
  }
  return presses;
}

describe('Step 4 by keyboard', { timeout: 30_000 }, () => {
  it('skips a page of leads to the DM messages, whose first Send is a few Tabs on', async () => {
    const { send } = await renderFullStep4();
    // Focus on the open results tab, the last control before the posts.
    screen.getByRole('tab', { name: /^Posts/ }).focus();

    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to DM messages' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    const dms = screen.getByRole('region', { name: 'DM messages' });
    expect(document.activeElement).toBe(within(dms).getByRole('heading', { name: /^DM messages/ }));
    // Generate All DMs, Send All DMs, the DMs' own skip link, the search and the status, alice's message,
    // Regenerate, Send.
    expect(await tabsTo(send, 10)).toBe(8);
  });

  it("skips the DMs' list to the sending status", async () => {
    await renderFullStep4();
    const dms = screen.getByRole('region', { name: 'DM messages' });
    within(dms).getByRole('button', { name: 'Send All DMs' }).focus();

    await user.tab();
    expect(document.activeElement).toBe(within(dms).getByRole('link', { name: 'Skip to sending status' }));
    await user.keyboard('{Enter}');
    const sending = screen.getByRole('region', { name: 'Sending status' });
    expect(document.activeElement).toBe(within(sending).getByRole('heading', { name: 'Sending status' }));
  });
});

describe('Step 4 and the do-not-contact list', { timeout: 30_000 }, () => {
  it('a DM stops saying its recipient is on the list once they are removed, also when the list closed first', async () => {
    const listed = "u/alice is on this workspace's do-not-contact list (added by hand)";
    let onList = true;
    mockStep4AtRest();
    for (const endpoint of [leadsEndpoints.posts, leadsEndpoints.comments, leadsEndpoints.profiles]) {
      mockEndpoint(endpoint, page([]));
    }
    const toAlice = buildDm({ recipient_username: 'alice' });
    mockEndpoint(dmsEndpoints.list, () =>
      dmPage([{ ...toAlice, do_not_contact: onList ? { reason: 'manual', detail: listed } : null }]),
    );
    mockEndpoint(doNotContactEndpoints.list, () =>
      page(
        onList
          ? [
              {
                username: 'alice',
                reason: 'manual',
                note: null,
                created_at: '2030-01-01T00:00:00Z',
                removable: true,
              },
            ]
          : [],
      ),
    );
    let answerRemoval = () => {};
    mockEndpoint(doNotContactEndpoints.remove, async () => {
      await new Promise<void>((resolve) => (answerRemoval = resolve));
      onList = false;
      return undefined;
    });
    renderScreen(<LeadsStep projectId={PROJECT_ID} readOnly={false} />);
    const dm = await screen.findByRole('article', { name: 'DM to u/alice' });
    expect(within(dm).getAllByText(listed).length).toBeGreaterThan(0);

    await user.click(screen.getByRole('button', { name: 'Do-not-contact list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Do-not-contact list' });
    await user.click(await within(dialog).findByRole('button', { name: 'Remove u/alice' }));
    // Closed before the removal is answered: the DMs read on closing still have alice on the list.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    answerRemoval();

    await waitFor(() => expect(within(dm).queryAllByText(listed)).toHaveLength(0));
  });
});
