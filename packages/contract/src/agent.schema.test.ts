import { describe, expect, it } from 'vitest';
import {
  AGENT_TEXTS,
  AGENT_TIMEZONES,
  DEFAULT_AGENT_SETTINGS,
  ZLogBehaviorBatchRequest,
  ZUpdateAgentSettingsRequest,
} from './agent.schema';

const issues = (body: object) => {
  const result = ZUpdateAgentSettingsRequest.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('agent settings', () => {
  it("takes spec section 9's defaults within spec section 5's bounds", () => {
    const {
      mode: _m,
      learning_stage_completed: _l,
      is_active: _a,
      is_running: _r,
      ...editable
    } = DEFAULT_AGENT_SETTINGS;
    expect(issues({ ...editable, working_days: [...editable.working_days] })).toEqual([]);
    expect(DEFAULT_AGENT_SETTINGS.mode).toBe('assistant');
  });

  it('refuses out-of-bound values with the spec text and the reason', () => {
    const refused = [
      { daily_dm_limit_per_profile: 0 },
      { daily_dm_limit_per_profile: 101 },
      { delay_range_min: 9 },
      { delay_range_max: 29 },
      { working_hours_start: 24 },
      { working_hours_end: -1 },
      { working_days: [0] },
      { working_days: [8] },
      { working_days: [] },
      { timezone: 'Mars/Olympus' },
      { delay_range_min: 200, delay_range_max: 100 },
    ];
    for (const body of refused) {
      const messages = issues(body);
      expect(messages, JSON.stringify(body)).toHaveLength(1);
      expect(messages[0]).toMatch(new RegExp(`^${AGENT_TEXTS.updateSettingsFailed}: `));
    }
    expect(issues({ daily_dm_limit_per_profile: 1, delay_range_min: 10, delay_range_max: 30 })).toEqual([]);
  });

  it('offers UTC and about 25 regions', () => {
    expect(AGENT_TIMEZONES[0]).toBe('UTC');
    expect(new Set(AGENT_TIMEZONES).size).toBe(AGENT_TIMEZONES.length);
    expect(AGENT_TIMEZONES.length).toBeGreaterThanOrEqual(26);
    for (const zone of AGENT_TIMEZONES)
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
  });

  it('takes behaviour batches of 1 to 100 small actions', () => {
    const one = { action: 'message_edited', metadata: { dm_id: 'x' } };
    expect(ZLogBehaviorBatchRequest.safeParse({ actions: [one] }).success).toBe(true);
    expect(ZLogBehaviorBatchRequest.safeParse({ actions: [] }).success).toBe(false);
    expect(ZLogBehaviorBatchRequest.safeParse({ actions: Array(101).fill(one) }).success).toBe(false);
    const big = { action: 'message_edited', metadata: { text: 'x'.repeat(5000) } };
    expect(ZLogBehaviorBatchRequest.safeParse({ actions: [big] }).success).toBe(false);
    const nul = { action: 'message_edited', metadata: { text: 'a\u0000b' } };
    expect(ZLogBehaviorBatchRequest.safeParse({ actions: [nul] }).success).toBe(false);
  });
});
