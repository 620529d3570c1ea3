import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AGENT_TEXTS, agentEndpoints, type TAgentLog } from '@threadreach/contract';
import { buildAgentSettings, buildAgentStatus, runningAgentSettings } from '../../../test/agent.test-support';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { page, PROJECT_ID, renderScreen } from '../../../test/discovery.test-support';
import { AgentActivityStep } from './agent-activity-step';

const user = userEvent.setup({ delay: null });

function log(n: number, overrides: Partial<TAgentLog> = {}): TAgentLog {
  return {
    id: `log-${n}`,
    activity_type: 'search',
    success: true,
    message: `Searched 4 subreddits (${n})`,
    details: {},
    timestamp: '2026-11-27T12:00:05.000Z',
    ...overrides,
  };
}

function renderStep(roles: string[] = ['USER'], onBack = vi.fn()) {
  renderScreen(<AgentActivityStep projectId={PROJECT_ID} readOnly={false} onBack={onBack} />, { roles });
  return onBack;
}

describe('step 5 agent activity', { timeout: 15_000 }, () => {
  it('shows INACTIVE and the figures, the logs, Back and Refresh Logs', async () => {
    const status = mockEndpoint(
      agentEndpoints.status,
      buildAgentStatus({ operations_completed: 4, error_count: 1 }),
    );
    const logs = mockEndpoint(
      agentEndpoints.activityLogs,
      page([
        log(1),
        log(2, { activity_type: 'error', success: false, message: 'Reddit refused' }),
        log(3, { activity_type: 'dm_sent', message: 'Queued 2 DMs over 1 account' }),
      ]),
    );
    const onBack = renderStep();
    expect((await screen.findByLabelText('Agent state')).textContent).toBe('INACTIVE');
    expect(screen.getByLabelText('Operations completed').textContent).toBe('4');
    expect(screen.getByLabelText('Errors').textContent).toBe('1');
    expect(screen.getByLabelText('Last activity').textContent).toBe('Never');
    expect(await screen.findByText('Searched 4 subreddits (1)')).toBeTruthy();
    expect(
      within(screen.getByRole('listitem', { name: 'Error log' })).getByText('Reddit refused'),
    ).toBeTruthy();
    // A hand-over to the paced queue is not a DM sent yet.
    const handover = screen.getByRole('listitem', { name: 'Sending log' });
    expect(within(handover).getByText('Queued 2 DMs over 1 account')).toBeTruthy();
    expect(screen.queryByText('DM sent')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop Agent' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Admin agent tools' })).toBeNull();

    const before = { status: status.calls.length, logs: logs.calls.length };
    await user.click(screen.getByRole('button', { name: 'Refresh Logs' }));
    await waitFor(() => expect(logs.calls.length).toBe(before.logs + 1));
    expect(status.calls.length).toBe(before.status + 1);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it("shows ACTIVE, today's summary and Stop Agent while the agent runs", async () => {
    mockEndpoint(
      agentEndpoints.status,
      buildAgentStatus({
        settings: runningAgentSettings(),
        operations_completed: 2,
        last_activity: '2026-11-27T12:00:09.000Z',
        daily_summary: {
          date: '2026-11-27',
          sent: 1,
          replies: 1,
          messages: [
            {
              dm_id: 'dm-1',
              recipient_username: 'curious_carol',
              account_username: 'demo_founder',
              sent_at: '2026-11-27T12:00:08.000Z',
              replied_at: '2026-11-27T12:30:00.000Z',
            },
          ],
        },
      }),
    );
    mockEndpoint(agentEndpoints.activityLogs, page([]));
    const toggle = mockEndpoint(agentEndpoints.toggleMode, {
      mode: 'assistant',
      message: 'Assistant mode: the agent stopped.',
      sends_cancelled: 0,
      settings: buildAgentSettings(),
    });
    renderStep();
    expect((await screen.findByLabelText('Agent state')).textContent).toBe('ACTIVE');
    const summary = screen.getByRole('region', { name: 'Daily summary' });
    expect(within(summary).getByText('Sent: 1 · Replies: 1')).toBeTruthy();
    expect(within(summary).getByText('u/curious_carol')).toBeTruthy();
    expect(within(summary).getByText('u/demo_founder')).toBeTruthy();
    // The table scrolls past its height: the keyboard reaches it. On a phone each cell is named by its
    // column, the table a block per message instead of columns cut off the screen's edge.
    const table = within(summary).getByRole('region', { name: "Today's messages" });
    expect(table.getAttribute('tabindex')).toBe('0');
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['To', 'From', 'Sent', 'Reply']);
    await user.click(screen.getByRole('button', { name: 'Stop Agent' }));
    await waitFor(() => expect(toggle.calls[0]?.body).toEqual({ mode: 'assistant' }));
  });

  it('pages through the activity logs', async () => {
    mockEndpoint(agentEndpoints.status, buildAgentStatus());
    const logs = mockEndpoint(agentEndpoints.activityLogs, ({ query }) =>
      page([log(query.offset + 1)], 45, query.limit, query.offset),
    );
    renderStep();
    expect(await screen.findByText('Recent activity (45)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Searched 4 subreddits (41)')).toBeTruthy();
    expect(logs.calls.at(-1)!.query).toMatchObject({ limit: 20, offset: 40 });
  });

  it("gives admins Run Agent Now with the run's result, the 409 of a busy run, and the edits", async () => {
    mockEndpoint(agentEndpoints.status, buildAgentStatus({ settings: runningAgentSettings() }));
    mockEndpoint(agentEndpoints.activityLogs, page([]));
    const behavior = mockEndpoint(agentEndpoints.behaviorLogs, {
      logs: [
        {
          id: 'b-1',
          action_type: 'message_edited',
          metadata: { dm_id: 'dm-1', before: 'Hi', after: 'Hey there, saw your post' },
          user_id: 'user-1',
          timestamp: '2026-11-27T11:00:00.000Z',
        },
      ],
      total_found: 1,
      limit: 100,
      offset: 0,
    });
    let busy = false;
    mockEndpoint(agentEndpoints.execute, () =>
      busy
        ? errorReply(409, AGENT_TEXTS.runInProgress, 'agent_run_in_progress')
        : {
            operation_result: {
              status: 'completed' as const,
              reason: null,
              searches_performed: 1,
              posts_found: 3,
              comments_found: 2,
              profiles_found: 0,
              messages_generated: 4,
              messages_sent: 0,
              messages_queued: 4,
              patterns_applied: true,
            },
          },
    );
    renderStep(['ADMIN']);
    const panel = await screen.findByRole('region', { name: 'Admin agent tools' });
    expect(await within(panel).findByText('Edits learned from: 1 saved edit')).toBeTruthy();
    expect(within(panel).getByText('Hey there, saw your post')).toBeTruthy();
    expect(behavior.calls[0]!.query).toMatchObject({ action_type: 'message_edited', limit: 100 });

    await user.click(within(panel).getByRole('button', { name: 'Run Agent Now' }));
    const result = await within(panel).findByLabelText('Operation result');
    expect(within(result).getByText('Run completed')).toBeTruthy();
    expect(within(result).getByText('Messages generated: 4')).toBeTruthy();
    // Paced sends go between runs: the count is of those since the run before, not of this run's.
    expect(within(result).getByText(/^Messages sent since the last run: \d+$/)).toBeTruthy();
    expect(within(result).getByText('Patterns applied: yes')).toBeTruthy();

    busy = true;
    await user.click(within(panel).getByRole('button', { name: 'Run Agent Now' }));
    expect(await within(panel).findByText(AGENT_TEXTS.runInProgress)).toBeTruthy();
  });

  it('says when the status cannot be read', async () => {
    mockEndpoint(agentEndpoints.status, errorReply(404, 'Project not found', 'not_found'));
    mockEndpoint(agentEndpoints.activityLogs, page([]));
    renderStep();
    expect(await screen.findByText('Project not found')).toBeTruthy();
  });
});
