import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  accountsEndpoints,
  dmsEndpoints,
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

/** Step 4 with a full page of posts and two DMs to alice and bob. */
async function renderFullStep4() {
  mockPublicConfig();
  mockEndpoint(projectsEndpoints.list, page([buildProject()], 1, 500));
  mockEndpoint(accountsEndpoints.list, accountList([]));
  const posts = Array.from({ length: LEADS_PAGE_SIZE }, (_, i) => buildPost({ title: `Post ${i + 1}` }));
  mockEndpoint(leadsEndpoints.posts, page(posts));
  mockEndpoint(leadsEndpoints.comments, page([]));
  mockEndpoint(leadsEndpoints.profiles, page([]));
  mockEndpoint(searchEndpoints.enhancedStatus, searchStatus());
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
  mockEndpoint(
    dmsEndpoints.list,
    dmPage([buildDm({ recipient_username: 'alice' }), buildDm({ recipient_username: 'bob' })]),
  );
  mockEndpoint(sendingEndpoints.status, sendingStatus());
  mockAgentAtRest();
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
    // Generate All DMs, Send All DMs, the DMs' own skip link, alice's message, Regenerate, Send.
    expect(await tabsTo(send, 10)).toBe(6);
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
