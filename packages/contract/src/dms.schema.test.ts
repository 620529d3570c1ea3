import { describe, expect, it } from 'vitest';
import { ZDmListQuery } from './dms.schema';

const project_id = '3f0c1c52-5d6c-4b59-9d0a-4d3c8f1e2a10';

describe("step 4's DM list query", () => {
  it('takes a search, trimmed, and a DM state, beside the page', () => {
    expect(ZDmListQuery.parse({ project_id, search: '  Anna ', state: 'failed', limit: '20' })).toEqual({
      project_id,
      search: 'Anna',
      state: 'failed',
      limit: 20,
      offset: 0,
    });
    expect(ZDmListQuery.parse({ project_id })).toEqual({ project_id, limit: 100, offset: 0 });
  });

  it.each([
    [
      { state: 'delivered' },
      'state must be one of draft, approved, queued, sending, sent, failed, unknown, expired',
    ],
    [
      { state: 'FAILED' },
      'state must be one of draft, approved, queued, sending, sent, failed, unknown, expired',
    ],
    [{ search: 'a'.repeat(41) }, 'search must be at most 40 characters'],
  ])('refuses %j, naming it', (query, message) => {
    const parsed = ZDmListQuery.safeParse({ project_id, ...query });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('refuses control characters in a search', () => {
    expect(ZDmListQuery.safeParse({ project_id, search: 'an\u0000na' }).success).toBe(false);
  });
});
