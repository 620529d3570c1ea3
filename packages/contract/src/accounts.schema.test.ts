import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELAY_ORDER_ERROR,
  DEFAULT_ACCOUNT_SETTINGS,
  ZRedditLoginQuery,
  ZUpdateAccountSettingsRequest,
} from './accounts.schema';

const messages = (value: unknown) => {
  const result = ZUpdateAccountSettingsRequest.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('account settings', () => {
  it('accepts the defaults and any subset of fields', () => {
    expect(messages(DEFAULT_ACCOUNT_SETTINGS)).toEqual([]);
    expect(messages({})).toEqual([]);
    expect(messages({ timezone: 'Asia/Tokyo', working_days: [6, 7] })).toEqual([]);
    expect(messages({ delay_range_min: 10, delay_range_max: 3600 })).toEqual([]);
  });

  it('keeps delays within 10-3600 s, min not above max', () => {
    expect(messages({ delay_range_min: 9 })).toEqual(['delay_range_min must be between 10 and 3600 seconds']);
    expect(messages({ delay_range_max: 3601 })).toEqual([
      'delay_range_max must be between 10 and 3600 seconds',
    ]);
    expect(messages({ delay_range_min: 12.5 })).toEqual([
      'delay_range_min must be a whole number of seconds',
    ]);
    expect(messages({ delay_range_min: 200, delay_range_max: 100 })).toEqual([ACCOUNT_DELAY_ORDER_ERROR]);
  });

  it('keeps hours within 0-23, days within 1-7 without repeats, and the zone on the list', () => {
    expect(messages({ working_hours_start: 24 })).toEqual([
      'working_hours_start must be an hour from 0 to 23',
    ]);
    expect(messages({ working_hours_end: -1 })).toEqual(['working_hours_end must be an hour from 0 to 23']);
    expect(messages({ working_days: [] })).toEqual(['Select at least one working day']);
    expect(messages({ working_days: [0] })).toEqual(['working_days must be days 1 (Monday) to 7 (Sunday)']);
    expect(messages({ working_days: [1, 1] })).toEqual(['working_days must not repeat a day']);
    expect(messages({ timezone: 'Mars/Olympus' })[0]).toMatch(/^timezone must be one of UTC, America/);
  });
});

describe('Reddit login query', () => {
  it('reads additional_account as a boolean and drops the user id the spec also sends', () => {
    const query = ZRedditLoginQuery.parse({
      project_id: '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d',
      additional_account: 'true',
      user_id: 'whoever',
    });
    expect(query).toEqual({ project_id: '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d', additional_account: true });
  });
});
