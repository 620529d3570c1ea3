import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAgentLogList } from '@threadreach/contract';
import { recordingQueue } from '../../jobs/queue.test-support';
import { fixedClock } from '../../test/clock.test-support';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { agentSettings } from '../agent/agent.table';
import { findUserById } from '../users';
import { users } from '../users/users.table';
import { expireSubscriptionsJob } from './expire-subscriptions.job';
import { agentStatusOf, dmsOf, projectAtWork, startCheckout } from './billing.test-support';

/** The end of a plan stops the owner's work at once: their agents pause, their queued DMs come back. */
const PLANS = [{ price_id: 'price_duo', product_name: 'Duo', amount: 4900, profiles_limit: 2 }];
const PAUSED =
  "Paused: the project owner's subscription has ended. Subscribe again, then complete learning again to restart the agent.";
const TAKEN_BACK = {
  state: 'approved',
  accountId: null,
  scheduledFor: null,
  dailyCap: null,
  outcomeCode: 'subscription_required',
  outcomeReason: "Not sent: the project owner's subscription ended before it went. Send All queues it again.",
};

// A Monday at 10:00 UTC.
const clock = fixedClock(Date.UTC(2026, 2, 2, 10));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { BILLING_PLANS: JSON.stringify(PLANS) },
    queue: recordingQueue().starter,
    clock,
  });
});
afterAll(() => t.close());

const form = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: new URL(url, t.url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

/** A customer who bought the plan on the local checkout page. */
async function subscriber(): Promise<TestUser> {
  const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
  const session = await startCheckout(t, user, 'price_duo');
  expect((await form(`${session.checkout_url}/complete`)).statusCode).toBe(303);
  return user;
}

/** Cancels the customer's plan on the local portal page; returns the end of the period paid for. */
async function cancelPlan(user: TestUser): Promise<number> {
  const opened = await t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/create-portal-session',
    headers: user.auth,
  });
  const portal = opened.json().portal_url as string;
  const page = await t.app.inject({ url: new URL(portal).pathname });
  const action = /action="([^"]+\/cancel\/[^"]+)"/.exec(page.body)![1]!;
  expect((await form(action)).statusCode).toBe(303);
  const lookup = await t.app.inject({ url: `/api/v1/users/${user.id}/subscription`, headers: user.auth });
  return new Date(lookup.json().subscription.current_period_end).getTime();
}

describe('the end of a plan', () => {
  it("pauses the owner's agents and takes back every DM queued in their projects, when the period ends", async () => {
    const user = await subscriber();
    const first = await projectAtWork(t, user);
    const second = await projectAtWork(t, user);
    // Someone else's work goes on.
    const other = await projectAtWork(t, await subscriber());
    const periodEnd = await cancelPlan(user);

    // Canceled, the plan lasts to the end of the period paid for: nothing stops yet.
    clock.t = periodEnd - 60_000;
    await expireSubscriptionsJob.handler(t.ctx, {});
    expect(await agentStatusOf(t, first.project)).toMatchObject({ is_active: true, paused_reason: null });
    expect((await dmsOf(t, first.project.id)).filter((d) => d.state === 'queued')).toHaveLength(2);

    clock.t = periodEnd + 60_000;
    await expireSubscriptionsJob.handler(t.ctx, {});
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(0);
    for (const work of [first, second]) {
      const status = await agentStatusOf(t, work.project);
      expect(status).toMatchObject({ is_active: false, paused_reason: PAUSED, next_run_at: null });
      // Its log says so, as every pause does, counting the DM the agent had queued.
      expect(status.recent_activity[0]).toMatchObject({ activity_type: 'error', message: PAUSED });
      const logs = await t.app.inject({
        url: `/api/v1/projects/${work.project.id}/agent-activity-logs?limit=1`,
        headers: user.auth,
      });
      expect(logs.json<TAgentLogList>().items[0]).toMatchObject({
        activity_type: 'error',
        success: false,
        message: PAUSED,
        details: { sends_cancelled: 1 },
      });

      const dms = new Map((await dmsOf(t, work.project.id)).map((d) => [d.id, d]));
      expect(dms.get(work.byAgent.id)).toMatchObject(TAKEN_BACK);
      expect(dms.get(work.byCustomer.id)).toMatchObject(TAKEN_BACK);
      expect(dms.get(work.unsent.id)).toMatchObject({ state: 'approved', outcomeReason: null });
    }
    expect(await agentStatusOf(t, other.project)).toMatchObject({ is_active: true, paused_reason: null });
    expect((await dmsOf(t, other.project.id)).filter((d) => d.state === 'queued')).toHaveLength(2);

    // Subscribed again, the agent stays paused and says how to restart it; nothing was queued meanwhile.
    const again = await startCheckout(t, user, 'price_duo');
    expect((await form(`${again.checkout_url}/complete`)).statusCode).toBe(303);
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(2);
    expect(await agentStatusOf(t, first.project)).toMatchObject({ is_active: false, paused_reason: PAUSED });
    expect((await dmsOf(t, first.project.id)).some((d) => d.state === 'queued')).toBe(false);
  });

  it('leaves an agent that was not on as it was, and takes its queued DMs back all the same', async () => {
    const user = await subscriber();
    const stopped = await projectAtWork(t, user);
    await t.ctx.db
      .update(agentSettings)
      .set({ mode: 'assistant', isActive: false })
      .where(eq(agentSettings.projectId, stopped.project.id));
    clock.t = (await cancelPlan(user)) + 60_000;
    await expireSubscriptionsJob.handler(t.ctx, {});
    const status = await agentStatusOf(t, stopped.project);
    expect(status).toMatchObject({ mode: 'assistant', paused_reason: null });
    expect(status.recent_activity).toEqual([]);
    // Nobody may send them without a plan: a run that was still going may have queued the agent's.
    expect((await dmsOf(t, stopped.project.id)).filter((d) => d.state === 'queued')).toEqual([]);
  });

  it("leaves a moderator's work going: they need no plan", async () => {
    const user = await subscriber();
    await t.ctx.db
      .update(users)
      .set({ roles: ['MODERATOR'] })
      .where(eq(users.id, user.id));
    const work = await projectAtWork(t, user);
    clock.t = (await cancelPlan(user)) + 60_000;
    await expireSubscriptionsJob.handler(t.ctx, {});
    expect((await findUserById(t.ctx.db, user.id))!.profilesLimit).toBe(0);
    expect(await agentStatusOf(t, work.project)).toMatchObject({ is_active: true, paused_reason: null });
    expect((await dmsOf(t, work.project.id)).filter((d) => d.state === 'queued')).toHaveLength(2);
  });
});
