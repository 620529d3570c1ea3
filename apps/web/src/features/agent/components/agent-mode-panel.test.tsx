import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AGENT_PATTERNS_REFRESH_MS,
  AGENT_TEXTS,
  agentEndpoints,
  type TAgentSettings,
} from '@threadreach/contract';
import {
  buildAgentSettings,
  buildPatterns,
  mockAgentAtRest,
  runningAgentSettings,
} from '../../../test/agent.test-support';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { advance, page, PROJECT_ID, renderScreen } from '../../../test/discovery.test-support';
import { when } from '../agent-format';
import { AGENT_REFRESH_MS } from '../hooks/use-agent';
import { AgentModePanel } from './agent-mode-panel';

const user = userEvent.setup({ delay: null });

function renderPanel(readOnly = false) {
  renderScreen(<AgentModePanel projectId={PROJECT_ID} readOnly={readOnly} />);
}

const learning = buildAgentSettings({ mode: 'agent' });

/** The server's settings as the calls below change them. */
function settingsServer(initial: TAgentSettings) {
  const state = { current: initial };
  mockAgentAtRest();
  mockEndpoint(agentEndpoints.getSettings, () => state.current);
  return state;
}

describe('step 4 AI mode', { timeout: 15_000 }, () => {
  it('shows assistant mode with the current agent settings, and the toggle enters agent mode to learn', async () => {
    const server = settingsServer(buildAgentSettings());
    const toggle = mockEndpoint(agentEndpoints.toggleMode, () => {
      server.current = learning;
      return {
        mode: 'agent' as const,
        message: 'Agent mode: learning how you write.',
        sends_cancelled: 0,
        settings: learning,
      };
    });
    mockEndpoint(agentEndpoints.listMessageExamples, page([], 1, 1));
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'AI Assistant' })).toBeTruthy();
    expect(screen.getByLabelText('Current agent settings').textContent).toBe(
      'Current agent settings: 30 DMs per profile per day (an account sends at most 10) · 30-120 s between messages · Mon-Fri 09:00-17:00 UTC · intent 40+',
    );
    expect(screen.queryByRole('button', { name: 'Complete Learning' })).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'AI Agent mode' }));
    expect(toggle.calls[0]!.body).toEqual({ mode: 'agent' });
    expect(await screen.findByRole('heading', { name: 'AI Agent' })).toBeTruthy();
    expect(await screen.findByText('Saved edits: 1 / 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Complete Learning' })).toBeTruthy();
  });

  it("says 'Error toggling agent mode' when the switch fails, with the reason", async () => {
    mockAgentAtRest();
    mockEndpoint(agentEndpoints.toggleMode, errorReply(500, '', 'internal'));
    renderPanel();
    await user.click(await screen.findByRole('switch', { name: 'AI Agent mode' }));
    expect(await screen.findByText(AGENT_TEXTS.toggleFailed)).toBeTruthy();

    mockEndpoint(agentEndpoints.toggleMode, errorReply(409, 'Learning is already running', 'conflict'));
    await user.click(screen.getByRole('switch', { name: 'AI Agent mode' }));
    expect(await screen.findByText('Learning is already running')).toBeTruthy();
    expect(screen.getAllByText(AGENT_TEXTS.toggleFailed).length).toBeGreaterThanOrEqual(1);

    // A refusal is told in spec section 8's words, not the server's.
    mockEndpoint(
      agentEndpoints.toggleMode,
      errorReply(403, 'READONLY access: your account cannot modify data.', 'read_only'),
    );
    await user.click(screen.getByRole('switch', { name: 'AI Agent mode' }));
    expect(
      await screen.findByText(
        'Your account has read-only access. Contact your administrator to modify data.',
      ),
    ).toBeTruthy();
  });

  it('says, while it learns, that the drafts saved to teach it are the first it sends', async () => {
    mockAgentAtRest(learning);
    renderPanel();
    const panel = await screen.findByRole('region', { name: 'Learning' });
    expect(panel.textContent).toContain(
      'Edit the drafts below the way you would write them and save them. Once 3 edits are saved, complete learning: the agent then finds, writes and sends on its own every 2 hours.',
    );
    expect(panel.textContent).toContain(
      'The drafts you save are the first the agent sends once learning is complete.',
    );
  });

  it("refuses Complete Learning below 3 saved edits with 'Not enough training data!' and the steps", async () => {
    mockAgentAtRest(learning);
    mockEndpoint(agentEndpoints.listMessageExamples, page([], 2, 1));
    const steps = AGENT_TEXTS.trainingSteps(2);
    mockEndpoint(
      agentEndpoints.complete,
      errorReply(422, `${AGENT_TEXTS.notEnoughTrainingData} ${steps}`, 'not_enough_training_data'),
    );
    renderPanel();
    expect(await screen.findByText('Saved edits: 2 / 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Complete Learning' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(AGENT_TEXTS.notEnoughTrainingData)).toBeTruthy();
    expect(
      within(alert).getByText(
        'Agent mode learns how you write from DMs you edited and saved: it needs at least 3, and this project has 2.',
      ),
    ).toBeTruthy();
    // The steps are a numbered list, not one run-on paragraph.
    expect(
      within(within(alert).getByRole('list'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Generate DMs for leads in step 4 (Posts & Messages).',
      'Edit 1 more of them the way you would write them.',
      'Save your edits, then complete learning again.',
    ]);
  });

  it('completes learning, then shows the learned patterns, read again 2 s later', async () => {
    const server = settingsServer(learning);
    mockEndpoint(agentEndpoints.listMessageExamples, page([], 3, 1));
    mockEndpoint(agentEndpoints.complete, () => {
      server.current = runningAgentSettings();
      return {
        patterns_created: 9,
        total_actions_analyzed: 6,
        continuous_agent_started: true,
        message: 'Learned from 3 saved edits. The agent starts in 5 seconds, then runs every 2 hours.',
      };
    });
    const patterns = mockEndpoint(agentEndpoints.patterns, {
      patterns: buildPatterns(),
      learned_at: '2026-11-27T12:00:00.000Z',
      examples_used: 3,
    });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Complete Learning' }));
    expect(await screen.findByText(/The agent starts in 5 seconds/)).toBeTruthy();

    const structure = await screen.findByRole('region', { name: 'Structure' });
    expect(within(structure).getByText('Confidence 60%')).toBeTruthy();
    expect(within(structure).getByText('Sample size: 3')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Tone' })).getByText('Friendly')).toBeTruthy();
    // At most five phrases are learned and shown.
    const phrases = within(screen.getByLabelText('Transition phrases'));
    expect(phrases.getAllByText(/./).map((b) => b.textContent)).toEqual([
      'by the way',
      'also',
      'anyway',
      'honestly',
      'so',
    ]);
    expect(screen.getByRole('button', { name: 'Restart Learning' })).toBeTruthy();
    await waitFor(() => expect(patterns.calls.length).toBeGreaterThanOrEqual(2), {
      timeout: AGENT_PATTERNS_REFRESH_MS + 2000,
    });
  });

  it('restarts learning only after confirmation', async () => {
    const server = settingsServer(runningAgentSettings());
    mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
    const restart = mockEndpoint(agentEndpoints.restart, () => {
      server.current = learning;
      return { message: 'Patterns cleared.', settings: learning };
    });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Restart Learning' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restart learning?' });
    expect(restart.calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Restart Learning' }));
    await waitFor(() => expect(restart.calls).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Complete Learning' })).toBeTruthy();
  });

  it('says why the agent paused itself', async () => {
    mockAgentAtRest(runningAgentSettings({ is_active: false, paused_reason: 'Reddit refused 3 messages' }));
    mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
    renderPanel();
    expect(await screen.findByText('Reddit refused 3 messages')).toBeTruthy();
  });

  it('offers Complete Learning on a paused agent, as its reason says, which starts it again', async () => {
    const paused = runningAgentSettings({
      is_active: false,
      paused_reason:
        "Paused: Reddit refused 3 DMs from this project's accounts since the last run. Check the accounts, then complete learning again to restart the agent.",
    });
    const server = settingsServer(paused);
    mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
    const complete = mockEndpoint(agentEndpoints.complete, () => {
      server.current = runningAgentSettings();
      return {
        patterns_created: 5,
        total_actions_analyzed: 3,
        continuous_agent_started: true,
        message: 'Learned from 3 saved edits. The agent starts in 5 seconds, then runs every 2 hours.',
      };
    });
    renderPanel();
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Complete Learning' }));
    await waitFor(() => expect(complete.calls).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText(/The agent paused itself/)).toBeNull());
    expect(screen.getByText(/^The agent is running/)).toBeTruthy();
  });

  it('shows no Complete Learning on a paused agent to a read-only viewer', async () => {
    mockAgentAtRest(runningAgentSettings({ is_active: false, paused_reason: 'Reddit refused 3 messages' }));
    mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
    renderPanel(true);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Complete Learning' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('reads the schedule again while the agent runs: the next and last run follow its runs', async () => {
    vi.useFakeTimers();
    try {
      const before = runningAgentSettings({ next_run_at: '2026-11-27T12:00:05.000Z', last_run_at: null });
      const server = settingsServer(before);
      mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
      renderPanel();
      await advance();
      const first = `The agent is running: next run ${when(before.next_run_at)}, last run ${when(null)}.`;
      expect(screen.getByText(first)).toBeTruthy();
      // The first run happened: its successor is due in 2 hours.
      server.current = runningAgentSettings({
        next_run_at: '2026-11-27T14:00:07.000Z',
        last_run_at: '2026-11-27T12:00:07.000Z',
      });
      await advance(AGENT_REFRESH_MS);
      expect(
        screen.getByText(
          `The agent is running: next run ${when(server.current.next_run_at)}, last run ${when(server.current.last_run_at)}.`,
        ),
      ).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the schedule again once a run due within seconds has ended, not at the next 30 s read', async () => {
    vi.useFakeTimers();
    try {
      const summary = (settings: TAgentSettings) =>
        `The agent is running: next run ${when(settings.next_run_at)}, last run ${when(settings.last_run_at)}.`;
      // Complete Learning just queued the first run, 5 s from now.
      const dueAt = Date.now() + 5_000;
      const before = runningAgentSettings({ next_run_at: new Date(dueAt).toISOString(), last_run_at: null });
      const server = { current: before };
      mockAgentAtRest();
      const reads = mockEndpoint(agentEndpoints.getSettings, () => server.current);
      mockEndpoint(agentEndpoints.patterns, { patterns: null, learned_at: null, examples_used: 0 });
      renderPanel();
      await advance();
      expect(screen.getByText(summary(before))).toBeTruthy();

      // It starts when due and takes a few seconds.
      server.current = { ...before, is_running: true };
      await advance(8_000);
      const after = runningAgentSettings({
        next_run_at: new Date(dueAt + 3_000 + 7_200_000).toISOString(),
        last_run_at: new Date(dueAt + 3_000).toISOString(),
      });
      server.current = after;
      await advance(3_000);
      expect(screen.getByText(summary(after))).toBeTruthy();

      // The next run is hours away: back to one read in 30 s.
      const settled = reads.calls.length;
      await advance(AGENT_REFRESH_MS - 5_000);
      expect(reads.calls).toHaveLength(settled);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Stop Agent returns to assistant mode', async () => {
    const server = settingsServer(learning);
    const toggle = mockEndpoint(agentEndpoints.toggleMode, () => {
      server.current = buildAgentSettings();
      return {
        mode: 'assistant' as const,
        message: 'Assistant mode: the agent stopped.',
        sends_cancelled: 0,
        settings: server.current,
      };
    });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Stop Agent' }));
    expect(toggle.calls[0]!.body).toEqual({ mode: 'assistant' });
    expect(await screen.findByRole('heading', { name: 'AI Assistant' })).toBeTruthy();
  });

  it('leaves everything disabled for someone who may only read', async () => {
    mockAgentAtRest(learning);
    renderPanel(true);
    expect((await screen.findByRole('switch', { name: 'AI Agent mode' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByRole('button', { name: 'Agent Settings' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Complete Learning' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Stop Agent' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('agent settings dialog', { timeout: 15_000 }, () => {
  it('checks the bounds before sending and saves the settings', async () => {
    mockAgentAtRest();
    const update = mockEndpoint(agentEndpoints.updateSettings, ({ body }) => buildAgentSettings(body));
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Agent Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agent Settings' });
    const daily = within(dialog).getByRole('textbox', { name: 'Daily DMs per profile' });
    // The account's own limit is the lower one above 10: the field says so.
    expect(
      within(dialog).getByText(
        '1-100; each account also sends at most 10 messages a day, and the lower number applies',
      ),
    ).toBeTruthy();
    await user.clear(daily);
    await user.type(daily, '101');
    const minDelay = within(dialog).getByRole('textbox', { name: 'Min delay (seconds)' });
    await user.clear(minDelay);
    await user.type(minDelay, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(
      await within(dialog).findByText('Daily DMs per profile must be a whole number from 1 to 100'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Min delay must be a whole number from 10 to 3600')).toBeTruthy();
    expect(update.calls).toHaveLength(0);

    await user.clear(daily);
    await user.type(daily, '12');
    await user.clear(minDelay);
    await user.type(minDelay, '45');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Timezone' }), 'Europe/Berlin');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Saturday' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(update.calls).toHaveLength(1));
    expect(update.calls[0]!.body).toMatchObject({
      daily_dm_limit_per_profile: 12,
      delay_range_min: 45,
      delay_range_max: 120,
      working_days: [1, 2, 3, 4, 5, 6],
      timezone: 'Europe/Berlin',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Agent Settings' })).toBeNull());
    expect(screen.getByLabelText('Current agent settings').textContent).toContain(
      '12 DMs per profile per day (an account sends at most 10) · 45-120 s between messages · Mon-Sat 09:00-17:00 Europe/Berlin',
    );
  });

  it("shows the server's refusal under 'Error updating agent settings'", async () => {
    mockAgentAtRest();
    mockEndpoint(
      agentEndpoints.updateSettings,
      errorReply(400, `${AGENT_TEXTS.updateSettingsFailed}: timezone must be one of UTC`, 'validation_error'),
    );
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Agent Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agent Settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText(AGENT_TEXTS.updateSettingsFailed)).toBeTruthy();
    expect(within(alert).getByText('Timezone must be one of UTC')).toBeTruthy();
  });
});
