import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SENDING_TEXTS,
  type TAgentStatus,
  type TOperationResult,
  type TToggleModeResponse,
} from '@threadreach/contract';
import { redditRateLimits, redditRequestSlots } from '../../integrations/reddit/reddit.table';
import { redditAccounts } from '../accounts/accounts.table';
import { validProductInfo } from '../../test/factories';
import { discoverySearches } from '../discovery/discovery.table';
import { getSearchStatus } from '../discovery';
import { addSearchCredential, buildDiscoveryProject } from '../discovery/discovery.test-support';
import { dmMessages } from '../dms/dms.table';
import { leads } from '../leads/leads.table';
import { buildLead } from '../leads/leads.test-support';
import { upsertProductInfo } from '../product-info/product-info.repository';
import { seededRandom } from '../sending/pacing';
import { reconcileAccount } from '../sending/reconcile.service';
import { sendQueuedDm } from '../sending/send-queued';
import {
  connectAccount,
  runQueuedSends,
  startSendingRig,
  type SendingRig,
} from '../sending/sending.test-support';
import { buildDm } from '../dms/dms.test-support';
import { users } from '../users/users.table';
import { NO_PLAN_PAUSE, RUN_STOPPED } from './agent-run';
import { agentRunJob, agentSweepJob, runScheduled } from './agent-run.job';
import { agentLogs, agentSettings } from './agent.table';
import { untilWaitingForALock } from '../../test/row-locks.test-support';

/**
 * Agent mode on the simulator's clock: three saved edits, complete, the first run 5 s later and the
 * second 2 hours after it. Each run searches the simulator, drafts DMs with the learned patterns for new
 * leads and queues them through the sending pacing; the queued sends then go as the workers would run
 * them. The logs and operation_result are compared with what the simulator received.
 */
/** Monday 5 January 2026, 10:00 UTC. */
const MONDAY = Date.UTC(2026, 0, 5, 10);
const HOUR = 3_600_000;
const DAILY_LIMIT = 10;
/** The agent's daily DMs per profile: below the account's own cap, so it is the one that binds. */
const AGENT_DAILY_LIMIT = 4;
const END_OF_MONDAY = Date.UTC(2026, 0, 5, 23, 59);

/** The one search credential's client id, whose request budget a test spends. */
const SEARCH_CLIENT = `search-${randomUUID().slice(0, 8)}`;

let rig: SendingRig;
beforeAll(async () => {
  rig = await startSendingRig(MONDAY);
  await addSearchCredential(rig.ctx, SEARCH_CLIENT);
}, 120_000);
afterAll(() => rig?.close());

const EDITS = [
  'Hey! Saw your post about finding customers. Honestly, we built a small tool for exactly that. Want a look?',
  'Hi there, your question about users caught my eye. By the way, ours is free to try. Happy to share a link?',
  'Hey, noticed you are hunting for customers by hand. Honestly, that was us a year ago. Want me to send what we use now?',
];

function agentJobs(projectId: string) {
  return rig.jobs.filter(
    (j) => j.name === 'agent-run' && (j.data as { projectId: string }).projectId === projectId,
  );
}

async function resultOfLastRun(projectId: string): Promise<TOperationResult & { trigger: string }> {
  const logs = await rig.db
    .select()
    .from(agentLogs)
    .where(and(eq(agentLogs.projectId, projectId), eq(agentLogs.activityType, 'other')));
  const done = logs
    .filter((l) => l.message.startsWith('Run completed'))
    .sort((a, b) => +b.createdAt - +a.createdAt);
  return done[0]!.details as unknown as TOperationResult & { trigger: string };
}

/** A project with these keywords and subreddits approved and its product information saved. */
async function projectWithProductInfo(rules: { keywords: string[]; subreddits: string[] }) {
  const project = await buildDiscoveryProject(rig.db, rig.t.config, rules, new Date(rig.clock.t));
  await upsertProductInfo(rig.db, project.id, validProductInfo());
  return project;
}

/** A learned, active agent working every day and hour, its next run due at `due`. */
async function agentDueAt(
  projectId: string,
  due: number,
  values: Partial<typeof agentSettings.$inferInsert>,
) {
  await rig.db.insert(agentSettings).values({
    projectId,
    mode: 'agent',
    learningStageCompleted: true,
    isActive: true,
    workingDays: [1, 2, 3, 4, 5, 6, 7],
    workingHoursStart: 0,
    workingHoursEnd: 0,
    nextRunAt: new Date(due),
    updatedAt: new Date(due),
    ...values,
  });
}

describe('the agent-run chain on the simulator', () => {
  it('learns from three edits, runs at 5 s and again at 2 h, finds, drafts with the patterns and sends within caps', async () => {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    const account = await connectAccount(ctx, sim, rig.credential, project, {
      username: 'demo_founder',
      dailyMessageLimit: DAILY_LIMIT,
      delayRangeMin: 60,
      delayRangeMax: 120,
    });
    const call = (method: 'GET' | 'POST', rest: string, payload?: object) =>
      rig.t.app.inject({
        method,
        url: `/api/v1/projects/${project.id}/${rest}`,
        headers: project.owner.auth,
        ...(payload ? { payload } : {}),
      });
    expect(
      (
        await call('POST', 'agent-settings', {
          min_intent_score: 0,
          daily_dm_limit_per_profile: AGENT_DAILY_LIMIT,
          working_days: [1, 2, 3, 4, 5],
          working_hours_start: 8,
          working_hours_end: 20,
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('POST', 'agent-settings/toggle-mode')).json<TToggleModeResponse>().mode).toBe('agent');

    // Three drafts edited and saved in step 4; their people are not on the simulator, so they are set aside.
    for (const text of EDITS) {
      const dm = await buildDm(rig.db, project.id, { createdAt: new Date(clock.t) });
      const saved = await rig.t.app.inject({
        method: 'POST',
        url: '/api/v1/update-dm-messages',
        headers: project.owner.auth,
        payload: { messages: [{ id: dm.id, message_content: text }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      await rig.db.update(dmMessages).set({ state: 'expired' }).where(eq(dmMessages.id, dm.id));
    }
    const completed = await call('POST', 'complete');
    expect(completed.statusCode, completed.body).toBe(200);
    const [first] = agentJobs(project.id);
    expect(first!.options.startAfter!.getTime()).toBe(clock.t + 5000);

    // Run 1, 5 s after the start.
    clock.t = first!.options.startAfter!.getTime();
    await agentRunJob.handler(ctx, { projectId: project.id });
    const run1 = await resultOfLastRun(project.id);
    expect(run1).toMatchObject({
      status: 'completed',
      searches_performed: 1,
      patterns_applied: true,
      trigger: 'schedule',
    });
    expect(run1.posts_found + run1.comments_found).toBeGreaterThan(0);
    // The leads searches stored (those built for the edited drafts are dated later).
    const leadsOf = async () =>
      (await rig.db.select().from(leads).where(eq(leads.projectId, project.id))).filter(
        (l) => l.foundAt.getTime() <= clock.t,
      ).length;
    const leadsAfterRun1 = await leadsOf();
    expect(run1.posts_found + run1.comments_found).toBe(leadsAfterRun1);
    expect(run1.messages_generated).toBeGreaterThan(0);
    expect(run1.messages_generated).toBeLessThanOrEqual(AGENT_DAILY_LIMIT);
    expect(run1.messages_queued).toBe(run1.messages_generated);
    expect(run1.messages_sent).toBe(0);
    const second = agentJobs(project.id)[1]!;
    expect(second.options).toEqual({
      startAfter: new Date(clock.t + 2 * HOUR),
      singletonKey: project.id,
      earliest: true,
    });
    const [settings1] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings1!.nextRunAt!.getTime()).toBe(clock.t + 2 * HOUR);
    expect(settings1!.runStartedAt).toBeNull();

    // The drafts are about leads of this project that reach its intent threshold, one per person.
    const drafted = await rig.db
      .select()
      .from(dmMessages)
      .where(and(eq(dmMessages.projectId, project.id), inArray(dmMessages.state, ['queued'])));
    expect(drafted).toHaveLength(run1.messages_generated);
    expect(new Set(drafted.map((d) => d.recipientKey)).size).toBe(drafted.length);
    const leadIds = drafted.map((d) => d.leadId!).filter(Boolean);
    expect(leadIds).toHaveLength(drafted.length);

    // The queued sends go as the workers would run them, until the second run.
    const since = clock.t;
    await runQueuedSends(ctx, clock, project.id, {
      random: seededRandom(7),
      until: second.options.startAfter!.getTime(),
    });
    const received1 = sim.inspect.messages().filter((m) => m.from === 'demo_founder' && m.createdMs >= since);
    const sent1 = await rig.db
      .select()
      .from(dmMessages)
      .where(and(eq(dmMessages.projectId, project.id), eq(dmMessages.state, 'sent')));
    expect(received1.length).toBe(sent1.length);
    expect(received1.length).toBeGreaterThan(0);
    expect(received1.length).toBeLessThanOrEqual(DAILY_LIMIT);
    // Each went at least the account's minimum delay after the one before.
    const times = received1.map((m) => m.createdMs).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(60_000);

    // One more edit between the runs: the second run learns from it.
    const fourth = await buildDm(rig.db, project.id, { createdAt: new Date(clock.t) });
    const edited = await rig.t.app.inject({
      method: 'POST',
      url: '/api/v1/update-dm-messages',
      headers: project.owner.auth,
      payload: {
        messages: [{ id: fourth.id, message_content: 'Hey! Quick one: want to see how we find customers?' }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await rig.db.update(dmMessages).set({ state: 'expired' }).where(eq(dmMessages.id, fourth.id));

    // Run 2, two hours after the first: new posts on the simulator, and the sends since reported.
    clock.t = second.options.startAfter!.getTime();
    await agentRunJob.handler(ctx, { projectId: project.id });
    const run2 = await resultOfLastRun(project.id);
    expect(run2).toMatchObject({ status: 'completed', searches_performed: 1 });
    expect(run2.posts_found + run2.comments_found).toBeGreaterThan(0);
    // Found means new: what the search matched again is not counted twice.
    expect(run2.posts_found + run2.comments_found).toBe((await leadsOf()) - leadsAfterRun1);
    expect(run2.messages_sent).toBe(received1.length);
    expect(agentJobs(project.id)).toHaveLength(3);
    const patterns = await call('GET', 'patterns');
    expect(patterns.json()).toMatchObject({ examples_used: 4 });

    // Today's sends never pass the agent's daily DMs per profile, whatever the runs drafted and queued:
    // the second run's drafts wait for the next day.
    expect(run2.messages_generated).toBeGreaterThan(0);
    await runQueuedSends(ctx, clock, project.id, { random: seededRandom(8), until: END_OF_MONDAY });
    const today = sim.inspect
      .messages()
      .filter((m) => m.from === 'demo_founder' && m.createdMs < END_OF_MONDAY);
    expect(today.length).toBeLessThanOrEqual(AGENT_DAILY_LIMIT);

    // Step 5's daily summary: what went today, to whom, from which account.
    const summary = (await call('GET', 'agent-status')).json<TAgentStatus>().daily_summary;
    expect(summary).toMatchObject({ date: '2026-01-05', sent: today.length });
    expect(summary.messages.map((m) => m.recipient_username).sort()).toEqual(today.map((m) => m.to).sort());
    expect(summary.messages.every((m) => m.account_username === 'demo_founder')).toBe(true);

    // Every step has its log: search, drafting, sending, the run itself.
    const logs = await rig.db.select().from(agentLogs).where(eq(agentLogs.projectId, project.id));
    for (const type of ['search', 'dm_generation', 'dm_sent', 'other'] as const) {
      expect(logs.filter((l) => l.activityType === type && l.success).length, type).toBeGreaterThanOrEqual(2);
    }
    expect(account.redditUsername).toBe('demo_founder');
  }, 300_000);

  it('a run whose process died holds no lease for long: the retried job runs, drafts nobody twice and keeps the chain', async () => {
    const { ctx, clock } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers'], subreddits: ['SaaS'] });
    await connectAccount(ctx, rig.sim, rig.credential, project, { username: 'growth_marketer' });
    const due = clock.t;
    // Learned and due, and a run that started 16 minutes ago died without releasing its lease.
    await agentDueAt(project.id, due, { minIntentScore: 0, runStartedAt: new Date(due - 16 * 60_000) });
    await agentRunJob.handler(ctx, { projectId: project.id });
    const dms1 = await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
    expect(dms1.length).toBeGreaterThan(0);
    // The same job again (pg-boss's retry after the kill): the run is not due any more, and re-arms only.
    const before = agentJobs(project.id).length;
    await agentRunJob.handler(ctx, { projectId: project.id });
    const dms2 = await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
    expect(dms2.map((d) => d.id).sort()).toEqual(dms1.map((d) => d.id).sort());
    expect(agentJobs(project.id).length).toBe(before + 1);
    expect(agentJobs(project.id).at(-1)!.options.startAfter!.getTime()).toBe(due + 2 * HOUR);
    // Its leads stay; nobody has two DMs.
    const people = dms2.map((d) => d.recipientKey);
    expect(new Set(people).size).toBe(people.length);
    expect((await rig.db.select().from(leads).where(eq(leads.projectId, project.id))).length).toBeGreaterThan(
      0,
    );
  }, 300_000);

  it('sends only what it may: drafts of a Generate All below its minimum intent stay unsent, and a day at most is queued', async () => {
    const { ctx, clock } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    await connectAccount(ctx, rig.sim, rig.credential, project, { username: 'demo_founder' });
    // Drafts written by Generate All in assistant mode, never read: their leads' intent is low.
    const unread: string[] = [];
    for (let i = 0; i < 4; i++) {
      const lead = await buildLead(rig.db, project.id, { intentScore: 10 });
      const dm = await buildDm(rig.db, project.id, { createdAt: new Date(clock.t) });
      await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
      unread.push(dm.id);
    }
    const due = clock.t;
    await agentDueAt(project.id, due, { minIntentScore: 40, dailyDmLimitPerProfile: 2 });
    await agentRunJob.handler(ctx, { projectId: project.id });
    const dms = await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
    expect(dms.filter((d) => unread.includes(d.id)).map((d) => d.state)).toEqual(Array(4).fill('approved'));
    // Its own drafts (the unread ones did not take their room) go, no more than a day's sends.
    const queued = dms.filter((d) => d.state === 'queued');
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.length).toBeLessThanOrEqual(2);
    const intents = await rig.db
      .select()
      .from(leads)
      .where(
        inArray(
          leads.id,
          queued.map((d) => d.leadId!),
        ),
      );
    expect(intents.every((l) => l.intentScore >= 40)).toBe(true);
  }, 300_000);

  it("queues no more than the accounts' own daily caps allow, when the agent's daily DMs per profile are higher", async () => {
    const { ctx, clock } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    await connectAccount(ctx, rig.sim, rig.credential, project, {
      username: 'demo_founder',
      dailyMessageLimit: 3,
    });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0, dailyDmLimitPerProfile: 30 });
    await agentRunJob.handler(ctx, { projectId: project.id });
    const dms = await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
    // A day's sends is the account's 3, not the agent's 30: no more drafted, none queued for later days.
    expect(dms.length).toBeGreaterThan(0);
    expect(dms.length).toBeLessThanOrEqual(3);
    expect(dms.filter((d) => d.state === 'queued').length).toBeLessThanOrEqual(3);
  }, 300_000);

  it('pauses when its accounts are signed out of Reddit, ending the chain before it searches', async () => {
    const { ctx, clock } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    const account = await connectAccount(ctx, rig.sim, rig.credential, project, { username: 'demo_founder' });
    // Reddit refused the account's grant: it shows Auth Required in the accounts panel.
    await rig.db
      .update(redditAccounts)
      .set({ authStatus: 'expired' })
      .where(eq(redditAccounts.id, account.id));
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    const jobsBefore = agentJobs(project.id).length;
    await agentRunJob.handler(ctx, { projectId: project.id });
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({
      isActive: false,
      nextRunAt: null,
      runStartedAt: null,
      pausedReason:
        'Paused: u/demo_founder needs to be re-authenticated (Auth Required) before it can send DMs. ' +
        'Re-authenticate it in the accounts panel, then complete learning again to restart the agent.',
    });
    // No next run queued, and nothing searched or drafted for DMs that could not go.
    expect(agentJobs(project.id)).toHaveLength(jobsBefore);
    const logs = await rig.db.select().from(agentLogs).where(eq(agentLogs.projectId, project.id));
    expect(logs.map((l) => [l.activityType, l.success, l.message])).toEqual([
      ['error', false, settings!.pausedReason],
    ]);
  }, 300_000);

  it('says its accounts cannot send, not that none is connected, when they are switched off', async () => {
    const { ctx, clock } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    const account = await connectAccount(ctx, rig.sim, rig.credential, project, { username: 'demo_founder' });
    // Switched off by the customer: the agent runs on, and says why it drafts nothing.
    await rig.db.update(redditAccounts).set({ isActive: false }).where(eq(redditAccounts.id, account.id));
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    await agentRunJob.handler(ctx, { projectId: project.id });
    const [drafting] = await rig.db
      .select()
      .from(agentLogs)
      .where(and(eq(agentLogs.projectId, project.id), eq(agentLogs.activityType, 'dm_generation')));
    expect(drafting!.success).toBe(false);
    expect(drafting!.message).not.toBe(SENDING_TEXTS.noAccountsBulk);
    expect(drafting!.message).toBe(
      "None of this project's Reddit accounts can send (1 connected): re-authenticate or switch them on in the accounts panel. No DMs drafted.",
    );
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({ isActive: true, pausedReason: null });
  }, 300_000);

  /** A new project's learned agent, due now, with a signed-in account and the search budget clear. */
  async function dueAgent() {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    await clearSearchBudget();
    return project;
  }

  it('comes back at the backoff instant when Reddit does not answer its search, then searches, drafts and queues', async () => {
    const { ctx, clock, sim } = rig;
    const project = await dueAgent();
    sim.inspect.reset();
    sim.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    try {
      await agentRunJob.handler(ctx, { projectId: project.id });
    } finally {
      sim.faults.clear();
    }
    const retry = agentJobs(project.id).at(-1)!;
    expect(retry.data).toEqual({ projectId: project.id, attempt: 2 });
    const at = retry.options.startAfter!.getTime();
    expect(at).toBeGreaterThan(clock.t);
    // The Reddit client's first backoff: at most 500 ms.
    expect(at).toBeLessThanOrEqual(clock.t + 500);
    expect(retry.options).toMatchObject({ singletonKey: project.id, earliest: true });
    const settings = async () =>
      (await rig.db.select().from(agentSettings).where(eq(agentSettings.projectId, project.id)))[0]!;
    expect(await settings()).toMatchObject({ nextRunAt: new Date(at), runStartedAt: null });
    const logs = async () =>
      (await rig.db.select().from(agentLogs).where(eq(agentLogs.projectId, project.id))).map((l) => [
        l.activityType,
        l.success,
        l.message,
      ]);
    const due = new Date(Math.ceil(at / 1000) * 1000).toISOString().slice(11, 19);
    expect(await logs()).toEqual([
      ['search', false, `Reddit did not answer the search; the run tries again at ${due} UTC`],
    ]);
    expect(await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id))).toEqual([]);

    // The retry takes up the same search, and the run goes on.
    clock.t = at;
    await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt: number });
    const run = await resultOfLastRun(project.id);
    expect(run).toMatchObject({ status: 'completed', searches_performed: 1, trigger: 'schedule' });
    expect(run.posts_found).toBeGreaterThan(0);
    expect(run.messages_generated).toBeGreaterThan(0);
    expect(run.messages_queued).toBeGreaterThan(0);
    const listings = sim.inspect.requestLog().filter((e) => e.path.endsWith('/new'));
    expect(listings.map((e) => e.status)).toEqual([503, 200]);
    const next = agentJobs(project.id).at(-1)!;
    expect(next.data).toEqual({ projectId: project.id });
    expect(next.options.startAfter!.getTime()).toBe(clock.t + 2 * HOUR);
  }, 300_000);

  it('goes on with the leads it has when Reddit still does not answer at the fourth attempt', async () => {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await buildLead(rig.db, project.id, { intentScore: 80 });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    sim.faults.add({ kind: 'status', status: 503, path: '/r/*/new' });
    try {
      await agentRunJob.handler(ctx, { projectId: project.id });
      for (const attempt of [2, 3, 4]) {
        const retry = agentJobs(project.id).at(-1)!;
        expect(retry.data).toEqual({ projectId: project.id, attempt });
        clock.t = retry.options.startAfter!.getTime();
        await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt: number });
      }
    } finally {
      sim.faults.clear();
    }
    const run = await resultOfLastRun(project.id);
    expect(run).toMatchObject({ status: 'completed', searches_performed: 0, messages_generated: 1 });
    const failed = await rig.db
      .select()
      .from(agentLogs)
      .where(and(eq(agentLogs.projectId, project.id), eq(agentLogs.activityType, 'search')))
      .orderBy(asc(agentLogs.createdAt));
    expect(failed.map((l) => l.message).at(-1)).toBe(
      'Search failed: Reddit is unavailable right now; please try again later',
    );
    const drafted = await rig.db
      .select()
      .from(agentLogs)
      .where(and(eq(agentLogs.projectId, project.id), eq(agentLogs.activityType, 'dm_generation')));
    expect(drafted.map((l) => l.message)).toEqual(['Drafted 1 DM']);
    const next = agentJobs(project.id).at(-1)!;
    expect(next.data).toEqual({ projectId: project.id });
    expect(next.options.startAfter!.getTime()).toBe(clock.t + 2 * HOUR);
  }, 300_000);

  /** Forgets what the search credential's budget counted from earlier tests' requests. */
  async function clearSearchBudget() {
    await rig.db.delete(redditRequestSlots).where(eq(redditRequestSlots.clientKey, SEARCH_CLIENT));
    await rig.db
      .update(redditRateLimits)
      .set({ blockedUntil: null })
      .where(eq(redditRateLimits.clientKey, SEARCH_CLIENT));
  }

  /** Takes every slot of the search credential's budget now: the next slot frees 60.5 s later. */
  async function spendSearchBudget() {
    await clearSearchBudget();
    const takenAt = new Date(rig.clock.t);
    await rig.db
      .insert(redditRequestSlots)
      .values(Array.from({ length: 100 }, () => ({ clientKey: SEARCH_CLIENT, takenAt })));
    // The window (60 s and the 0.5 s clock margin) lets the oldest slot go a millisecond later.
    return rig.clock.t + 60_501;
  }

  const clockTime = (ms: number) =>
    `${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(11, 19)} UTC`;

  async function logsOf(projectId: string) {
    return (
      await rig.db
        .select()
        .from(agentLogs)
        .where(eq(agentLogs.projectId, projectId))
        .orderBy(asc(agentLogs.createdAt))
    ).map((l) => [l.activityType, l.success, l.message]);
  }

  it('comes back when a slot frees when its search meets a spent budget, then takes up the same search', async () => {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({
      keywords: ['customers', 'users'],
      subreddits: ['SaaS', 'startups'],
    });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    sim.inspect.reset();
    const freeAt = await spendSearchBudget();
    const startedAt = clock.t;
    await agentRunJob.handler(ctx, { projectId: project.id });

    // Not an attempt: the run comes back as a first try, when the budget frees.
    const retry = agentJobs(project.id).at(-1)!;
    expect(retry.data).toEqual({ projectId: project.id });
    expect(retry.options).toEqual({ startAfter: new Date(freeAt), singletonKey: project.id, earliest: true });
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({ nextRunAt: new Date(freeAt), runStartedAt: null });
    expect(await logsOf(project.id)).toEqual([
      ['search', false, `Reddit's request budget is spent; the run tries again at ${clockTime(freeAt)}`],
    ]);
    const waiting = await getSearchStatus(ctx, project.id);
    expect(waiting).toMatchObject({
      status: 'searching',
      progress: { phase: "waiting for Reddit's request budget" },
    });
    expect(sim.inspect.requestLog()).toEqual([]);
    expect(await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id))).toEqual([]);

    // When the budget frees, the run takes up the same search and goes on.
    clock.t = freeAt;
    await agentRunJob.handler(ctx, retry.data as { projectId: string });
    const run = await resultOfLastRun(project.id);
    expect(run).toMatchObject({ status: 'completed', searches_performed: 1, trigger: 'schedule' });
    expect(run.posts_found).toBeGreaterThan(0);
    expect(run.messages_generated).toBeGreaterThan(0);
    expect(run.messages_queued).toBeGreaterThan(0);
    const searched = await getSearchStatus(ctx, project.id);
    expect(searched).toMatchObject({ status: 'completed', started_at: new Date(startedAt).toISOString() });
    const next = agentJobs(project.id).at(-1)!;
    expect(next.data).toEqual({ projectId: project.id });
    expect(next.options.startAfter!.getTime()).toBe(clock.t + 2 * HOUR);
  }, 300_000);

  it('says so when Reddit asked for a pause (429), and a pause at the last attempt does not use it up', async () => {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    await clearSearchBudget();
    sim.inspect.reset();
    sim.faults.add({ kind: 'rate-limit', retryAfter: 30, path: '/r/*/new', count: 1 });
    try {
      await agentRunJob.handler(ctx, { projectId: project.id, attempt: 4 });
    } finally {
      sim.faults.clear();
    }
    const retry = agentJobs(project.id).at(-1)!;
    expect(retry.data).toEqual({ projectId: project.id, attempt: 4 });
    const at = retry.options.startAfter!.getTime();
    expect(at).toBe(clock.t + 30_000);
    expect(await logsOf(project.id)).toEqual([
      ['search', false, `Reddit asked for a pause in requests; the run tries again at ${clockTime(at)}`],
    ]);
    expect((await getSearchStatus(ctx, project.id)).progress?.phase).toBe(
      'waiting for the pause Reddit asked for',
    );

    clock.t = at;
    await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt: number });
    const run = await resultOfLastRun(project.id);
    expect(run).toMatchObject({ status: 'completed', searches_performed: 1 });
    const listings = sim.inspect.requestLog().filter((e) => e.path.endsWith('/new'));
    expect(listings.map((e) => e.status)).toEqual([429, 200]);
  }, 300_000);

  it('Execute answers that the budget is spent and until when, ends its search and keeps the schedule', async () => {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await buildLead(rig.db, project.id, { intentScore: 80 });
    const due = clock.t + HOUR;
    await agentDueAt(project.id, due, { minIntentScore: 0 });
    const freeAt = await spendSearchBudget();
    const jobsBefore = agentJobs(project.id).length;
    const executed = await rig.t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/agent-autonomous/execute`,
      headers: project.owner.auth,
    });
    expect(executed.statusCode, executed.body).toBe(200);
    const reason = `Reddit's request budget is spent until ${clockTime(freeAt)}; run the agent again then`;
    expect(executed.json<{ operation_result: TOperationResult }>().operation_result).toMatchObject({
      status: 'skipped',
      reason,
      searches_performed: 0,
      messages_generated: 0,
      messages_queued: 0,
    });
    expect(await logsOf(project.id)).toEqual([['search', false, reason]]);
    // Its search is not left running for no one: a person's search may start.
    expect(await getSearchStatus(ctx, project.id)).toMatchObject({
      status: 'failed',
      error: `Reddit's request budget is spent; search again after ${clockTime(freeAt)}`,
    });
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({ nextRunAt: new Date(due), runStartedAt: null });
    expect(agentJobs(project.id)).toHaveLength(jobsBefore);
    expect(await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id))).toEqual([]);
    // Past the window, the same Execute runs through.
    clock.t = freeAt;
    const again = await rig.t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/agent-autonomous/execute`,
      headers: project.owner.auth,
    });
    expect(again.json<{ operation_result: TOperationResult }>().operation_result).toMatchObject({
      status: 'completed',
      searches_performed: 1,
    });
  }, 300_000);

  /** The owner's calls on the project's routes. */
  function asOwner(project: Awaited<ReturnType<typeof projectWithProductInfo>>) {
    return (method: 'GET' | 'POST', rest: string, payload?: object) =>
      rig.t.app.inject({
        method,
        url: `/api/v1/projects/${project.id}/${rest}`,
        headers: project.owner.auth,
        ...(payload ? { payload } : {}),
      });
  }

  /** The project's searches as recorded for its statistics, oldest first. */
  async function searchesOf(projectId: string) {
    return (
      await rig.db
        .select()
        .from(discoverySearches)
        .where(eq(discoverySearches.projectId, projectId))
        .orderBy(asc(discoverySearches.startedAt))
    ).map((s) => [s.trigger, s.status]);
  }

  /**
   * After the agent stopped while its search waited: the customer's own search starts at once, and the
   * run that comes back for the waiting search does nothing and leaves the customer's search alone.
   */
  async function customerSearchesThenRunComesBack(
    project: Awaited<ReturnType<typeof projectWithProductInfo>>,
    retry: { data: unknown; options: { startAfter?: Date } },
  ) {
    const { ctx, clock, sim } = rig;
    // Not 409: the agent's search no longer runs.
    const started = await asOwner(project)('POST', 'search-enhanced', {});
    expect(started.statusCode, started.body).toBe(200);
    const customers = await getSearchStatus(ctx, project.id);
    expect(customers).toMatchObject({ status: 'searching', started_at: new Date(clock.t).toISOString() });
    const logsBefore = await logsOf(project.id);
    const jobsBefore = agentJobs(project.id).length;

    sim.inspect.reset();
    clock.t = Math.max(clock.t, retry.options.startAfter!.getTime());
    await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt?: number });
    expect(sim.inspect.requestLog()).toEqual([]);
    expect(await logsOf(project.id)).toEqual(logsBefore);
    expect(agentJobs(project.id)).toHaveLength(jobsBefore);
    const after = await getSearchStatus(ctx, project.id);
    expect(after).toMatchObject({
      status: 'searching',
      started_at: customers.started_at,
      progress: customers.progress,
    });
    expect(await rig.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id))).toEqual([]);
    // The agent's search ended as failed, among the project's searches as well.
    expect(await searchesOf(project.id)).toEqual([['agent', 'failed']]);
  }

  /** A learned agent's scheduled run whose search Reddit did not answer once: it waits, the search running. */
  async function runLeftWaitingOn503() {
    const { ctx, clock, sim } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await agentDueAt(project.id, clock.t, { minIntentScore: 0 });
    await clearSearchBudget();
    sim.faults.add({ kind: 'status', status: 503, path: '/r/*/new', count: 1 });
    try {
      await agentRunJob.handler(ctx, { projectId: project.id });
    } finally {
      sim.faults.clear();
    }
    return { project, retry: agentJobs(project.id).at(-1)! };
  }

  it("Stop Agent ends the agent's search waiting for Reddit: the customer searches at once, and the run that comes back does nothing", async () => {
    const { ctx } = rig;
    const { project, retry } = await runLeftWaitingOn503();
    expect(retry.data).toEqual({ projectId: project.id, attempt: 2 });
    expect((await getSearchStatus(ctx, project.id)).status).toBe('searching');
    // Before the run comes back, the customer stops the agent.
    const call = asOwner(project);
    const stopped = await call('POST', 'agent-settings/toggle-mode', { mode: 'assistant' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    await customerSearchesThenRunComesBack(project, retry);
  }, 300_000);

  it("Restart Learning ends the agent's search waiting for a spent budget: the customer searches at once, and the run that comes back does nothing", async () => {
    const { ctx, sim } = rig;
    const project = await projectWithProductInfo({ keywords: ['customers', 'users'], subreddits: ['SaaS'] });
    await connectAccount(ctx, sim, rig.credential, project, { username: 'demo_founder' });
    await agentDueAt(project.id, rig.clock.t, { minIntentScore: 0 });
    await spendSearchBudget();
    await agentRunJob.handler(ctx, { projectId: project.id });
    const retry = agentJobs(project.id).at(-1)!;
    expect(retry.data).toEqual({ projectId: project.id });
    expect(await getSearchStatus(ctx, project.id)).toMatchObject({
      status: 'searching',
      progress: { phase: "waiting for Reddit's request budget" },
    });
    const restarted = await asOwner(project)('POST', 'restart');
    expect(restarted.statusCode, restarted.body).toBe(200);
    await customerSearchesThenRunComesBack(project, retry);
    await clearSearchBudget();
  }, 300_000);

  it('a run that comes back and pauses the agent (its owner has no plan now) ends the search it came for', async () => {
    const { ctx, clock } = rig;
    const { project, retry } = await runLeftWaitingOn503();
    await rig.db.update(users).set({ profilesLimit: 0 }).where(eq(users.id, project.owner.id));
    clock.t = retry.options.startAfter!.getTime();
    await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt: number });
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({ isActive: false, pausedReason: NO_PLAN_PAUSE });
    expect(await getSearchStatus(ctx, project.id)).toMatchObject({
      status: 'failed',
      error: 'The agent stopped before its search finished; search again now',
    });
    expect(await searchesOf(project.id)).toEqual([['agent', 'failed']]);
  }, 300_000);

  it('a run that comes back to a stopped agent whose search still waits ends that search, and no search of the customer', async () => {
    const { ctx, clock, sim } = rig;
    const { project, retry } = await runLeftWaitingOn503();
    // Stopped while a run held the search (it left it waiting after the stop had looked).
    await rig.db
      .update(agentSettings)
      .set({ isActive: false })
      .where(eq(agentSettings.projectId, project.id));
    sim.inspect.reset();
    clock.t = retry.options.startAfter!.getTime();
    await agentRunJob.handler(ctx, retry.data as { projectId: string; attempt: number });
    expect(sim.inspect.requestLog()).toEqual([]);
    expect(await getSearchStatus(ctx, project.id)).toMatchObject({
      status: 'failed',
      error: 'The agent stopped before its search finished; search again now',
    });
    expect(await searchesOf(project.id)).toEqual([['agent', 'failed']]);
    // A search of the customer's own is never ended by a run of a stopped agent.
    expect((await asOwner(project)('POST', 'search-enhanced', {})).statusCode).toBe(200);
    await agentRunJob.handler(ctx, { projectId: project.id });
    expect(await getSearchStatus(ctx, project.id)).toMatchObject({ status: 'searching' });
  }, 300_000);

  async function dmStatesOf(projectId: string) {
    return (
      await rig.db
        .select()
        .from(dmMessages)
        .where(eq(dmMessages.projectId, projectId))
        .orderBy(asc(dmMessages.id))
    ).map((d) => d.state);
  }

  /** The details of the project's one log line saying how its run ended (completed or stopped). */
  async function runEnd(projectId: string) {
    const ends = (
      await rig.db
        .select()
        .from(agentLogs)
        .where(and(eq(agentLogs.projectId, projectId), eq(agentLogs.activityType, 'other')))
    ).filter((l) => l.message === RUN_STOPPED || l.message.startsWith('Run completed'));
    expect(ends).toHaveLength(1);
    return { message: ends[0]!.message, result: ends[0]!.details as unknown as TOperationResult };
  }

  /** Sends every queued DM of the project as the workers would; the DMs the simulator received. */
  async function sentByWorkers(projectId: string) {
    const since = rig.clock.t;
    await runQueuedSends(rig.ctx, rig.clock, projectId, { random: seededRandom(5) });
    return rig.sim.inspect.messages().filter((m) => m.from === 'demo_founder' && m.createdMs >= since);
  }

  it('Stop Agent while the run searched: nothing is drafted or queued after it, the run ends skipped and queues no next run', async () => {
    const { ctx } = rig;
    const project = await dueAgent();
    const jobsBefore = agentJobs(project.id).length;
    let stopped: TToggleModeResponse | null = null;
    await runScheduled(ctx, project.id, {
      onStep: async (step) => {
        if (step !== 'after-search') return;
        const res = await asOwner(project)('POST', 'agent-settings/toggle-mode', { mode: 'assistant' });
        expect(res.statusCode, res.body).toBe(200);
        stopped = res.json<TToggleModeResponse>();
      },
    });
    expect(stopped).toMatchObject({ mode: 'assistant', sends_cancelled: 0 });
    const end = await runEnd(project.id);
    expect(end.message).toBe(RUN_STOPPED);
    expect(end.result).toMatchObject({ status: 'skipped', reason: RUN_STOPPED, messages_generated: 0 });
    // It found leads it would have drafted for.
    expect(end.result.posts_found + end.result.comments_found).toBeGreaterThan(0);
    expect(await dmStatesOf(project.id)).toEqual([]);
    const logs = await logsOf(project.id);
    expect(logs.filter(([type]) => type === 'dm_generation' || type === 'dm_sent')).toEqual([]);
    const [settings] = await rig.db
      .select()
      .from(agentSettings)
      .where(eq(agentSettings.projectId, project.id));
    expect(settings).toMatchObject({
      mode: 'assistant',
      isActive: false,
      nextRunAt: null,
      runStartedAt: null,
    });
    expect(agentJobs(project.id)).toHaveLength(jobsBefore);
  }, 300_000);

  it('Restart Learning after the run drafted: its drafts stay unsent, nothing is queued or sent, and no next run is queued', async () => {
    const { ctx } = rig;
    const project = await dueAgent();
    const jobsBefore = agentJobs(project.id).length;
    await runScheduled(ctx, project.id, {
      onStep: async (step) => {
        if (step !== 'after-draft') return;
        const res = await asOwner(project)('POST', 'restart');
        expect(res.statusCode, res.body).toBe(200);
      },
    });
    const states = await dmStatesOf(project.id);
    expect(states.length).toBeGreaterThan(0);
    expect(states.filter((s) => s !== 'approved')).toEqual([]);
    const end = await runEnd(project.id);
    expect(end.message).toBe(RUN_STOPPED);
    expect(end.result).toMatchObject({
      status: 'skipped',
      reason: RUN_STOPPED,
      messages_generated: states.length,
      messages_queued: 0,
    });
    expect((await logsOf(project.id)).filter(([type]) => type === 'dm_sent')).toEqual([]);
    expect(agentJobs(project.id)).toHaveLength(jobsBefore);
    expect(await sentByWorkers(project.id)).toEqual([]);
  }, 300_000);

  it('a stop racing the queueing waits for it and takes back every DM it queued: none stays queued, none is sent', async () => {
    const { ctx } = rig;
    const project = await dueAgent();
    let stopping: ReturnType<ReturnType<typeof asOwner>> | null = null;
    await runScheduled(ctx, project.id, {
      whileQueueing: async () => {
        stopping = asOwner(project)('POST', 'agent-settings/toggle-mode', { mode: 'assistant' });
        await untilWaitingForALock(rig.db, stopping);
      },
    });
    const stopped = await stopping!;
    expect(stopped.statusCode, stopped.body).toBe(200);
    // The queueing went first; the stop, waiting for it, took back what it queued.
    const end = await runEnd(project.id);
    expect(end.result.messages_queued).toBeGreaterThan(0);
    expect(stopped.json<TToggleModeResponse>().sends_cancelled).toBe(end.result.messages_queued);
    const states = await dmStatesOf(project.id);
    expect(states.filter((s) => s !== 'approved')).toEqual([]);
    expect(await sentByWorkers(project.id)).toEqual([]);
  }, 300_000);

  it('a DM of the agent being sent at Stop Agent, not delivered and queued again, is not sent after the stop', async () => {
    const { ctx, clock, sim } = rig;
    const project = await dueAgent();
    await runScheduled(ctx, project.id);
    const queued = await rig.db
      .select()
      .from(dmMessages)
      .where(and(eq(dmMessages.projectId, project.id), eq(dmMessages.state, 'queued')))
      .orderBy(asc(dmMessages.scheduledFor), asc(dmMessages.id));
    expect(queued.length).toBeGreaterThan(1);
    const first = queued[0]!;
    clock.t = Math.max(clock.t, first.scheduledFor!.getTime());
    // Claimed when the customer stops the agent; Reddit answers 503 before the compose takes effect.
    sim.faults.add({ kind: 'status', status: 503, path: '/api/compose', count: 1 });
    let stopped: TToggleModeResponse | null = null;
    const attempt = await sendQueuedDm(
      ctx,
      { projectId: project.id, dmId: first.id },
      {
        onStep: async (step) => {
          if (step !== 'after-claim') return;
          const res = await asOwner(project)('POST', 'agent-settings/toggle-mode', { mode: 'assistant' });
          stopped = res.json<TToggleModeResponse>();
        },
      },
    );
    expect(attempt.outcome).toBe('unknown');
    // The one being sent was not the stop's to take back.
    expect(stopped).toMatchObject({ sends_cancelled: queued.length - 1 });
    // Not delivered after all: recovery queues it again, with the agent's limits.
    const target = { projectId: project.id, accountId: first.accountId! };
    clock.t += 60_000;
    await reconcileAccount(ctx, target);
    clock.t += 10 * 60_000;
    expect(await reconcileAccount(ctx, target)).toMatchObject({ requeued: 1 });
    expect(await sentByWorkers(project.id)).toEqual([]);
    const [after] = await rig.db.select().from(dmMessages).where(eq(dmMessages.id, first.id));
    expect(after).toMatchObject({
      state: 'approved',
      outcomeReason: 'The agent was stopped before this DM went',
      dailyCap: null,
    });
  }, 300_000);

  it('the sweep re-arms an active agent whose run is long overdue, and leaves stopped and paused ones', async () => {
    const { ctx, clock } = rig;
    const at = new Date(clock.t);
    const overdue = new Date(clock.t - 11 * 60_000);
    const make = async (values: Partial<typeof agentSettings.$inferInsert>) => {
      const p = await buildDiscoveryProject(rig.db, rig.t.config, { keywords: ['x'], subreddits: [] }, at);
      await rig.db.insert(agentSettings).values({
        projectId: p.id,
        mode: 'agent',
        learningStageCompleted: true,
        isActive: true,
        nextRunAt: overdue,
        updatedAt: at,
        ...values,
      });
      return p.id;
    };
    const lost = await make({});
    const stopped = await make({ isActive: false });
    const paused = await make({ pausedReason: 'Paused: refused' });
    const recent = await make({ nextRunAt: new Date(clock.t - 60_000) });
    await agentSweepJob.handler(ctx, {});
    expect(agentJobs(lost)).toHaveLength(1);
    expect(agentJobs(lost)[0]!.options).toEqual({ startAfter: at, singletonKey: lost, earliest: true });
    for (const id of [stopped, paused, recent]) expect(agentJobs(id)).toHaveLength(0);
  });
});
