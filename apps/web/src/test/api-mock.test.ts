import { describe, expect, it, vi } from 'vitest';
import { credentialsEndpoints, projectsEndpoints, usersEndpoints } from '@threadreach/contract';
import { call } from '../lib/api-client';
import {
  errorReply,
  mockEndpoint,
  requestsInFlight,
  sentRequests,
  takeApiProblems,
} from './api-mock.test-support';
import { advance } from './discovery.test-support';

describe('API mock', () => {
  it('answers with the success status of the endpoint and hands the handler the parsed request', async () => {
    const list = mockEndpoint(credentialsEndpoints.list, ({ query }) => ({
      items: [],
      total: 0,
      limit: query.limit,
      offset: query.offset,
    }));
    await expect(
      call(credentialsEndpoints.list, { query: { include_disabled: 'false', limit: 7 } }),
    ).resolves.toEqual({ items: [], total: 0, limit: 7, offset: 0 });
    expect(list.calls[0]!.query).toEqual({ include_disabled: false, limit: 7, offset: 0 });
  });

  it('answers errors in the envelope', async () => {
    mockEndpoint(usersEndpoints.me, errorReply(404, 'Gone', 'not_found', { hint: 'x' }));
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({
      status: 404,
      detail: 'Gone',
      code: 'not_found',
      data: { detail: 'Gone', code: 'not_found', hint: 'x' },
    });
  });

  it('reports a request its contract refuses', async () => {
    mockEndpoint(projectsEndpoints.get, errorReply(500, 'not reached', 'x'));
    await expect(call(projectsEndpoints.get, { params: { projectId: 'p1' } })).rejects.toMatchObject({
      status: 400,
    });
    const problems = await takeApiProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \S+\/projects\/:projectId was sent params: Project not found$/);
  });

  it('reports a request that no handler answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 0 });
    expect(sentRequests()).toHaveLength(1);
    const problems = await takeApiProblems();
    expect(problems).toEqual([`No handler for GET ${usersEndpoints.me.path}`]);
  });
});

describe('advance', () => {
  it('waits for an answer later than its rounds, as on a loaded machine, with the clock standing', async () => {
    vi.useFakeTimers();
    try {
      // 200 macrotasks before the answer: five times the rounds advance gives the network on its own.
      mockEndpoint(usersEndpoints.me, async () => {
        for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
        return errorReply(404, 'Late', 'not_found');
      });
      let settled = false;
      void call(usersEndpoints.me).catch(() => {
        settled = true;
      });
      const before = Date.now();
      await advance();
      expect(settled).toBe(true);
      expect(requestsInFlight()).toBe(0);
      // Only the 40 rounds of 1 ms moved the clock; the wait for the answer did not.
      expect(Date.now() - before).toBe(40);
    } finally {
      vi.useRealTimers();
    }
  });
});
