import { afterEach, describe, expect, it, vi } from 'vitest';
import { delay } from 'msw';
import { sendingEndpoints, type TSendDmResponse } from '@threadreach/contract';
import { mockEndpoint } from '../../../test/api-mock.test-support';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { sendDm } from './sending.api';

afterEach(() => {
  vi.useRealTimers();
});

describe('sendDm', () => {
  it('waits for the answer of a Send whose compose Reddit answers slowly, past the usual request timeout', async () => {
    setToken(makeToken());
    vi.useFakeTimers();
    const answer: TSendDmResponse = {
      recipient: 'sir-river',
      dm_id: '3f0b7a52-6a5e-4a4e-9b0e-1c1d2e3f4a5b',
      state: 'unknown',
      account: 'demo_founder',
      scheduled_for: null,
      message:
        "Reddit did not confirm the DM to u/sir-river. It is being checked against u/demo_founder's sent messages and will not be sent twice.",
    };
    // Reddit's compose may take up to 30 s before the server gives up on it and answers 'unknown'.
    mockEndpoint(sendingEndpoints.sendOne, async () => {
      await delay(31_000);
      return answer;
    });
    const pending = sendDm('6b1d2f0e-3c4a-4b5c-8d9e-0f1a2b3c4d5e', {
      id: answer.dm_id,
      reddit_post_id: 't1_abc',
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(31_000);
    await expect(pending).resolves.toEqual(answer);
  });
});
