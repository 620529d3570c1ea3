import { describe, expect, it, vi } from 'vitest';
import { credentialsEndpoints, projectsEndpoints, usersEndpoints } from '@threadreach/contract';
import { call } from '../lib/api-client';
import { errorReply, mockEndpoint, sentRequests, takeApiProblems } from './api-mock.test-support';

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
