import { describe, expect, it } from 'vitest';
import { runningAgentSettings } from '../../../test/agent.test-support';
import { AGENT_REFRESH_MS, AGENT_RUN_WATCH_LIMIT_MS, AGENT_RUN_WATCH_MS, agentRefreshMs } from './use-agent';

const DUE = Date.parse('2026-11-27T12:00:05.000Z');
const agent = runningAgentSettings({ next_run_at: new Date(DUE).toISOString() });

describe('when the agent is read again', () => {
  it('every 30 s, but from a run due sooner until it has ended, for a bounded while', () => {
    expect(agentRefreshMs(agent, DUE - 2 * 3_600_000)).toBe(AGENT_REFRESH_MS);
    expect(agentRefreshMs(agent, DUE - AGENT_REFRESH_MS)).toBe(AGENT_REFRESH_MS);
    expect(agentRefreshMs(agent, DUE - 5_000)).toBe(5_000 + AGENT_RUN_WATCH_MS);
    expect(agentRefreshMs({ ...agent, is_running: true }, DUE + 10_000)).toBe(AGENT_RUN_WATCH_MS);
    // A run that goes on longer shows its end at the 30 s reads.
    expect(agentRefreshMs({ ...agent, is_running: true }, DUE + AGENT_RUN_WATCH_LIMIT_MS)).toBe(
      AGENT_REFRESH_MS,
    );
  });

  it('every 30 s when no run is coming', () => {
    expect(agentRefreshMs({ ...agent, next_run_at: null }, DUE)).toBe(AGENT_REFRESH_MS);
    expect(agentRefreshMs({ ...agent, is_active: false }, DUE - 5_000)).toBe(AGENT_REFRESH_MS);
  });
});
