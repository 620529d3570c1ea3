import { eq } from 'drizzle-orm';
import {
  AGENT_RUN_INTERVAL_SECONDS,
  type TAgentStatus,
  type TCheckoutSessionResponse,
} from '@threadreach/contract';
import { expect } from 'vitest';
import { buildProject, type TestUser } from '../../test/factories';
import type { TestApp } from '../../test/test-app';
import { agentSettings } from '../agent/agent.table';
import { buildDm } from '../dms/dms.test-support';
import { dmMessages, type DmMessageRow } from '../dms/dms.table';

/** Starts a checkout for `priceId` as `user` through the API; fails the test unless it answers 200. */
export async function startCheckout(
  t: TestApp,
  user: TestUser,
  priceId: string,
): Promise<TCheckoutSessionResponse> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/create-checkout-session',
    headers: user.auth,
    payload: { price_id: priceId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/**
 * A project of `owner` whose agent is on (learned, active, its next run two hours away), with a DM
 * queued by the agent (its daily cap kept on it), one queued by the customer's Send All and one unsent.
 */
export async function projectAtWork(t: TestApp, owner: TestUser) {
  const project = await buildProject(t.ctx.db, t.config, { owner });
  const now = t.ctx.clock.now();
  await t.ctx.db.insert(agentSettings).values({
    projectId: project.id,
    mode: 'agent',
    learningStageCompleted: true,
    isActive: true,
    nextRunAt: new Date(now + AGENT_RUN_INTERVAL_SECONDS * 1000),
    updatedAt: new Date(now),
  });
  const queued = { state: 'queued', scheduledFor: new Date(now + 3_600_000) } as const;
  return {
    project,
    byAgent: await buildDm(t.ctx.db, project.id, { ...queued, dailyCap: 5 }),
    byCustomer: await buildDm(t.ctx.db, project.id, queued),
    unsent: await buildDm(t.ctx.db, project.id, { state: 'approved' }),
  };
}

/** The project's agent as step 5 shows it, asked as its owner. */
export async function agentStatusOf(t: TestApp, project: { id: string; owner: TestUser }) {
  const res = await t.app.inject({
    url: `/api/v1/projects/${project.id}/agent-status`,
    headers: project.owner.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TAgentStatus>();
}

export async function dmsOf(t: TestApp, projectId: string): Promise<DmMessageRow[]> {
  return t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, projectId));
}
