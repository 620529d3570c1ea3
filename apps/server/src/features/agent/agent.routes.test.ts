import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_TEXTS,
  DEFAULT_AGENT_SETTINGS,
  type TAgentPatternsResponse,
  type TAgentSettings,
  type TAgentStatus,
  type TBehaviorLogsResponse,
  type TCompleteLearningResponse,
  type TAgentLogList,
  type TMessageExampleList,
  type TToggleModeResponse,
} from '@threadreach/contract';
import { recordingQueue, type Enqueued } from '../../jobs/queue.test-support';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildAccount } from '../accounts/accounts.test-support';
import { redditAccounts, refreshTokenRef } from '../accounts';
import { createCredential } from '../credentials';
import { buildDm } from '../dms/dms.test-support';
import { dmMessages } from '../dms/dms.table';
import { users } from '../users/users.table';
import { NO_PLAN_PAUSE, runAgent } from './agent-run';
import { agentSettings } from './agent.table';
import { untilWaitingForALock } from '../../test/row-locks.test-support';

// A Monday at 10:00 UTC: inside the default working hours.
const START = Date.UTC(2026, 2, 2, 10);
const clock = fixedClock(START);
let t: TestApp;
let jobs: Enqueued[];

beforeAll(async () => {
  const queue = recordingQueue();
  jobs = queue.jobs;
  t = await createTestApp({ queue: queue.starter, clock });
});
afterAll(() => t.close());

type Project = Awaited<ReturnType<typeof buildProject>>;
const newProject = (owner?: TestUser) => buildProject(t.ctx.db, t.config, owner ? { owner } : {});
const url = (project: Project, rest: string) => `/api/v1/projects/${project.id}/${rest}`;
const get = (project: Project, rest: string, as: TestUser = project.owner) =>
  t.app.inject({ url: url(project, rest), headers: as.auth });
const post = (project: Project, rest: string, payload?: object, as: TestUser = project.owner) =>
  t.app.inject({
    method: 'POST',
    url: url(project, rest),
    headers: as.auth,
    ...(payload ? { payload } : {}),
  });

/** A Reddit user of its own, so DMs to them are not held back as another's to the same person. */
const someone = () => `person_${randomUUID().slice(0, 8)}`;

/** Edits and saves a DM of the project through step 4's own call: one saved edit, one training example. */
async function saveEdit(project: Project, text: string) {
  const dm = await buildDm(t.ctx.db, project.id, { recipientUsername: someone() });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/update-dm-messages',
    headers: project.owner.auth,
    payload: { messages: [{ id: dm.id, message_content: text }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const EDITS = [
  'Hey! Saw your post about tracking leads by hand. Honestly, we built a small tool for exactly that. Want a look?',
  'Hi there, your question about CRMs caught my eye. By the way, ours is free to try. Happy to share a link?',
  'Hey, noticed you are juggling spreadsheets. Honestly, that was us a year ago. Want me to send what we use now?',
];

/** A new project whose agent has learned from the three edits and is active, with `settings` saved first. */
async function learnedAgent(settings?: object): Promise<Project> {
  const project = await newProject();
  await post(project, 'agent-settings/toggle-mode');
  if (settings) expect((await post(project, 'agent-settings', settings)).statusCode).toBe(200);
  for (const text of EDITS) await saveEdit(project, text);
  expect((await post(project, 'complete')).statusCode).toBe(200);
  return project;
}

describe('agent settings', () => {
  it("starts with spec section 9's defaults and keeps changes within bounds", async () => {
    const project = await newProject();
    const res = await get(project, 'agent-settings');
    expect(res.statusCode).toBe(200);
    const settings = res.json<TAgentSettings>();
    expect(settings).toMatchObject({ ...DEFAULT_AGENT_SETTINGS, working_days: [1, 2, 3, 4, 5] });
    expect(settings.paused_reason).toBeNull();

    const saved = await post(project, 'agent-settings', {
      daily_dm_limit_per_profile: 12,
      delay_range_min: 10,
      delay_range_max: 30,
      working_days: [6, 1],
      working_hours_start: 0,
      working_hours_end: 23,
      timezone: 'Asia/Kolkata',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<TAgentSettings>()).toMatchObject({
      daily_dm_limit_per_profile: 12,
      working_days: [1, 6],
      timezone: 'Asia/Kolkata',
      mode: 'assistant',
    });
    expect((await get(project, 'agent-settings')).json<TAgentSettings>().delay_range_max).toBe(30);
  });

  it("refuses out-of-bound values and unknown time zones with 'Error updating agent settings'", async () => {
    const project = await newProject();
    for (const body of [
      { daily_dm_limit_per_profile: 101 },
      { daily_dm_limit_per_profile: 0 },
      { delay_range_min: 5 },
      { delay_range_max: 20 },
      { working_hours_end: 24 },
      { working_days: [0, 1] },
      { timezone: 'Europe/Atlantis' },
      // Alone in bounds, but above the stored maximum of 120.
      { delay_range_min: 200 },
    ]) {
      const res = await post(project, 'agent-settings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toMatch(/^Error updating agent settings: /);
    }
    expect((await get(project, 'agent-settings')).json<TAgentSettings>().delay_range_min).toBe(30);
    // One reason once, however many days gave it.
    const days = await post(project, 'agent-settings', { working_days: [0, 8, 9] });
    expect(days.json().detail).toBe(
      'Error updating agent settings: working_days must be a whole number from 1 to 7',
    );
  });

  it('lets a read-only account read but not change the mode or settings', async () => {
    const reader = await buildUser(t.ctx.db, t.config, { roles: ['READONLY'] });
    const project = await newProject(reader);
    expect((await get(project, 'agent-settings')).statusCode).toBe(200);
    const toggled = await post(project, 'agent-settings/toggle-mode');
    expect(toggled.statusCode).toBe(403);
    expect(toggled.json().detail).toContain('READONLY');
    expect((await post(project, 'agent-settings', { daily_dm_limit_per_profile: 5 })).statusCode).toBe(403);
  });

  it('lets an admin change a customer’s agent settings', async () => {
    const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
    const project = await newProject();
    const res = await post(project, 'agent-settings', { daily_dm_limit_per_profile: 7 }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TAgentSettings>().daily_dm_limit_per_profile).toBe(7);
  });
});

describe('mode and learning', () => {
  it('enters learning on agent mode, refuses to complete below 3 saved edits, then learns and starts the schedule', async () => {
    const project = await newProject();
    const toggled = await post(project, 'agent-settings/toggle-mode');
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect(toggled.json<TToggleModeResponse>()).toMatchObject({
      mode: 'agent',
      settings: { learning_stage_completed: false, is_active: false },
    });

    await saveEdit(project, EDITS[0]!);
    await saveEdit(project, EDITS[1]!);
    const early = await post(project, 'complete');
    expect(early.statusCode).toBe(422);
    expect(early.json().code).toBe('not_enough_training_data');
    expect(early.json().detail).toMatch(/^Not enough training data! /);
    expect(early.json().detail).toContain('this project has 2');
    expect(early.json().detail).toContain('Edit 1 more');
    expect((await get(project, 'patterns')).json<TAgentPatternsResponse>().patterns).toBeNull();

    await saveEdit(project, EDITS[2]!);
    await post(project, 'log-behavior', { action: 'message_edited', metadata: { dm: 'x' } });
    const done = await post(project, 'complete');
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json<TCompleteLearningResponse>();
    expect(body.continuous_agent_started).toBe(true);
    expect(body.total_actions_analyzed).toBe(4);
    expect(body.patterns_created).toBeGreaterThanOrEqual(3);
    // The first run 5 s later, one chain per project.
    const job = jobs.filter(
      (j) => j.name === 'agent-run' && (j.data as { projectId: string }).projectId === project.id,
    );
    expect(job).toHaveLength(1);
    expect(job[0]!.options).toEqual({
      startAfter: new Date(clock.t + 5000),
      singletonKey: project.id,
      earliest: true,
    });

    const patterns = (await get(project, 'patterns')).json<TAgentPatternsResponse>();
    expect(patterns.examples_used).toBe(3);
    expect(patterns.patterns!.structure.sample_size).toBe(3);
    expect(patterns.patterns!.style.transition_phrases.length).toBeLessThanOrEqual(5);
    expect(patterns.patterns!.tone.confidence).toBeGreaterThan(0);

    const status = (await get(project, 'agent-status')).json<TAgentStatus>();
    expect(status).toMatchObject({ mode: 'agent', is_active: true, learning_stage_completed: true });
    expect(status.next_run_at).toBe(new Date(clock.t + 5000).toISOString());
    expect(status.daily_summary).toEqual({ date: '2026-03-02', sent: 0, replies: 0, messages: [] });

    // Restart: patterns cleared, back to learning, schedule stopped.
    const restarted = await post(project, 'restart');
    expect(restarted.statusCode).toBe(200);
    expect(restarted.json().settings).toMatchObject({
      mode: 'agent',
      learning_stage_completed: false,
      is_active: false,
      next_run_at: null,
    });
    expect((await get(project, 'patterns')).json<TAgentPatternsResponse>().patterns).toBeNull();
    // The saved edits stay, and the message says so rather than asking for three new ones.
    expect(restarted.json().message).toBe(
      'Patterns cleared. Your 3 saved edits still count: edit more DMs if you like, then complete learning again.',
    );
    expect((await post(project, 'complete')).statusCode).toBe(200);
  });

  it('refuses to complete learning in assistant mode', async () => {
    const project = await newProject();
    const res = await post(project, 'complete');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('not_in_agent_mode');
  });

  it("Stop Agent returns to assistant and takes back every send the agent queued, not the customer's", async () => {
    const project = await newProject();
    await post(project, 'agent-settings/toggle-mode', { mode: 'agent' });
    // The agent queues with its own limits (kept on the DM); Send All queues without.
    const byAgent = { state: 'queued', scheduledFor: new Date(clock.t + 60_000), dailyCap: 5 } as const;
    const queued = [await buildDm(t.ctx.db, project.id), await buildDm(t.ctx.db, project.id)];
    for (const dm of queued) {
      await t.ctx.db.update(dmMessages).set(byAgent).where(eq(dmMessages.id, dm.id));
    }
    const bySendAll = await buildDm(t.ctx.db, project.id, {
      state: 'queued',
      scheduledFor: new Date(clock.t + 120_000),
    });
    const other = await newProject(project.owner);
    const untouched = await buildDm(t.ctx.db, other.id, byAgent);

    const stopped = await post(project, 'agent-settings/toggle-mode', { mode: 'assistant' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json<TToggleModeResponse>()).toMatchObject({ mode: 'assistant', sends_cancelled: 2 });
    const rows = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));
    const stateOf = (id: string) => rows.find((r) => r.id === id)!;
    for (const dm of queued) expect(stateOf(dm.id)).toMatchObject({ state: 'approved', scheduledFor: null });
    expect(stateOf(bySendAll.id)).toMatchObject({
      state: 'queued',
      scheduledFor: new Date(clock.t + 120_000),
    });
    const [kept] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, untouched.id));
    expect(kept!.state).toBe('queued');
    // The same mode again changes nothing.
    const again = await post(project, 'agent-settings/toggle-mode', { mode: 'assistant' });
    expect(again.json<TToggleModeResponse>().sends_cancelled).toBe(0);
    const bad = await post(project, 'agent-settings/toggle-mode', { mode: 'robot' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^Error toggling agent mode: /);
  });
});

describe('behaviour logs and message examples', () => {
  it('records single and batched actions and lists them by type, newest first, paginated', async () => {
    const project = await newProject();
    const one = await post(project, 'log-behavior', { action: 'message_sent', metadata: { dm_id: 'a' } });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toEqual({ logged: 1 });
    const actions = Array.from({ length: 5 }, (_, i) => ({ action: 'message_edited', metadata: { n: i } }));
    const batch = await post(project, 'log-behavior-batch', { actions });
    expect(batch.json()).toEqual({ logged: 5 });
    expect((await post(project, 'log-behavior', { action: 'clicked', metadata: {} })).statusCode).toBe(400);
    expect((await post(project, 'log-behavior-batch', { actions: [] })).statusCode).toBe(400);

    const edited = (
      await get(project, 'behavior-logs?action_type=message_edited&limit=100')
    ).json<TBehaviorLogsResponse>();
    expect(edited.total_found).toBe(5);
    expect(
      edited.logs.every((l) => l.action_type === 'message_edited' && l.user_id === project.owner.id),
    ).toBe(true);
    const page = (await get(project, 'behavior-logs?limit=2&offset=1')).json<TBehaviorLogsResponse>();
    expect(page).toMatchObject({ total_found: 6, limit: 2, offset: 1 });
    expect(page.logs).toHaveLength(2);
    // Another project of the same owner sees none of them.
    const other = await newProject(project.owner);
    expect((await get(other, 'behavior-logs')).json<TBehaviorLogsResponse>().total_found).toBe(0);
  });

  it('lists saved edits and given examples as message examples, paginated', async () => {
    const project = await newProject();
    await saveEdit(project, EDITS[0]!);
    clock.t += 1000;
    const given = await post(project, 'message-examples', {
      examples: [
        { final_message: 'Hi! Short and friendly, with a question?' },
        { final_message: 'Hello again.' },
      ],
    });
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json()).toEqual({ saved: 2, total: 3 });
    const list = (await get(project, 'message-examples?limit=2')).json<TMessageExampleList>();
    expect(list).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(list.items[0]).toMatchObject({ project_id: project.id, example_type: 'user_approved' });
    const edit = (await get(project, 'message-examples?offset=2')).json<TMessageExampleList>().items;
    expect(edit).toHaveLength(1);
    expect(edit[0]!.final_message).toBe(EDITS[0]);
    expect(edit[0]!.original_context.source_type).toBe('post');
    expect((await post(project, 'message-examples', { examples: [{ final_message: '' }] })).statusCode).toBe(
      400,
    );
  });
});

describe('execute and status', () => {
  it('answers a skipped operation_result in assistant mode and 409 while a run holds the lease', async () => {
    const project = await newProject();
    const skipped = await post(project, 'agent-autonomous/execute');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json().operation_result).toMatchObject({
      status: 'skipped',
      reason: 'The project is in assistant mode',
      messages_generated: 0,
      patterns_applied: false,
    });

    await t.ctx.db
      .insert(agentSettings)
      .values({ projectId: project.id, runStartedAt: new Date(clock.t - 1000), updatedAt: new Date(clock.t) })
      .onConflictDoUpdate({
        target: agentSettings.projectId,
        set: { runStartedAt: new Date(clock.t - 1000) },
      });
    const busy = await post(project, 'agent-autonomous/execute');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ detail: AGENT_TEXTS.runInProgress, code: 'agent_run_in_progress' });
    expect((await get(project, 'agent-status')).json<TAgentStatus>().is_running).toBe(true);
    // A lease left by a process that died is taken over once stale.
    clock.t += 16 * 60_000;
    expect((await post(project, 'agent-autonomous/execute')).statusCode).toBe(200);
  });

  it('pauses a project whose accounts Reddit keeps refusing, and says why in its status', async () => {
    const project = await learnedAgent();
    // Queued by the agent: with its daily cap.
    const queued = await buildDm(t.ctx.db, project.id, { state: 'queued', dailyCap: 5 });
    for (let i = 0; i < 3; i++) {
      await buildDm(t.ctx.db, project.id, {
        state: 'failed',
        outcomeCode: 'compose_refused',
        outcomeReason: "Reddit refused the message: you can't send to this user",
        updatedAt: new Date(clock.t),
      });
    }
    clock.t += 5000;
    const run = await post(project, 'agent-autonomous/execute');
    expect(run.statusCode, run.body).toBe(200);
    const result = run.json().operation_result;
    expect(result.status).toBe('skipped');
    // Its first run: there was no run before to count from.
    expect(result.reason).toMatch(
      /^Paused: Reddit refused 3 DMs from this project's accounts in the last day/,
    );

    const status = (await get(project, 'agent-status')).json<TAgentStatus>();
    expect(status.paused_reason).toBe(result.reason);
    expect(status.is_active).toBe(false);
    expect(status.error_count).toBe(1);
    expect(status.recent_activity[0]).toMatchObject({ activity_type: 'error', message: result.reason });
    const [row] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, queued.id));
    expect(row!.state).toBe('approved');

    const logs = (await get(project, 'agent-activity-logs?limit=1')).json<TAgentLogList>();
    expect(logs.total).toBeGreaterThanOrEqual(2);
    expect(logs.items[0]).toMatchObject({ activity_type: 'error', success: false });
    expect(
      (await get(project, 'agent-activity-logs?activity_type=other'))
        .json<TAgentLogList>()
        .items.every((l) => l.activity_type === 'other'),
    ).toBe(true);
  });

  it('pauses an agent whose accounts are all Auth Required, and runs again once one is re-authenticated and learning completed', async () => {
    const project = await learnedAgent();
    // Reddit refused the account's refresh: it shows Auth Required in the accounts panel.
    const account = await buildAccount(t.ctx.db, project.id, {
      redditUsername: 'demo_founder',
      authStatus: 'expired',
      now: clock.t,
    });
    const queued = await buildDm(t.ctx.db, project.id, { state: 'queued', dailyCap: 5 });
    clock.t += 5000;
    const run = await post(project, 'agent-autonomous/execute');
    expect(run.statusCode, run.body).toBe(200);
    const reason =
      'Paused: u/demo_founder needs to be re-authenticated (Auth Required) before it can send DMs. ' +
      'Re-authenticate it in the accounts panel, then complete learning again to restart the agent.';
    expect(run.json().operation_result).toMatchObject({ status: 'skipped', reason, searches_performed: 0 });

    // Paused, not running: the page's overlay is off, so the accounts panel and Re-authenticate are reachable.
    const paused = (await get(project, 'agent-status')).json<TAgentStatus>();
    expect(paused).toMatchObject({
      paused_reason: reason,
      is_active: false,
      is_running: false,
      next_run_at: null,
    });
    expect(paused.recent_activity[0]).toMatchObject({ activity_type: 'error', message: reason });
    // As every pause does, its queued DM went back to the unsent ones, saying why.
    const [taken] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, queued.id));
    expect(taken).toMatchObject({ state: 'approved', scheduledFor: null, outcomeReason: reason });
    // Paused, the schedule's runs and Execute do nothing more.
    expect((await post(project, 'agent-autonomous/execute')).json().operation_result).toMatchObject({
      status: 'skipped',
      reason,
    });

    // Complete Learning before re-authenticating would only start a run that pauses again: refused, saying why.
    const early = await post(project, 'complete');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toEqual({
      detail:
        'u/demo_founder needs to be re-authenticated (Auth Required) before it can send DMs. ' +
        'Re-authenticate it in the accounts panel, then complete learning.',
      code: 'accounts_signed_out',
    });
    expect((await get(project, 'agent-status')).json<TAgentStatus>()).toMatchObject({
      paused_reason: reason,
      is_active: false,
    });

    // Signed in again, as Re-authenticate's return from Reddit stores it: a new grant through a credential.
    const credential = await createCredential(t.ctx, {
      type: 'send',
      account_name: 'threadreach_send',
      client_id: `send-${randomUUID().slice(0, 8)}`,
      client_secret: `secret-${randomUUID()}`,
      enabled: true,
    });
    await t.ctx.db
      .update(redditAccounts)
      .set({
        authStatus: 'valid',
        credentialId: credential.id,
        refreshTokenCiphertext: t.ctx.secrets.encrypt('refreshed', refreshTokenRef(account.id)),
      })
      .where(eq(redditAccounts.id, account.id));
    const resumed = await post(project, 'complete');
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json<TCompleteLearningResponse>().continuous_agent_started).toBe(true);
    expect((await get(project, 'agent-status')).json<TAgentStatus>()).toMatchObject({
      paused_reason: null,
      is_active: true,
      next_run_at: new Date(clock.t + 5000).toISOString(),
    });
    clock.t += 5000;
    const next = await post(project, 'agent-autonomous/execute');
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().operation_result).toMatchObject({ status: 'completed', reason: null });
    expect((await get(project, 'agent-status')).json<TAgentStatus>()).toMatchObject({
      paused_reason: null,
      is_active: true,
    });
  });

  it('names each signed-out account, and pauses though others are switched off; switched off alone, it runs on', async () => {
    const project = await learnedAgent();
    await buildAccount(t.ctx.db, project.id, { redditUsername: 'alpha_seller', authStatus: 'expired' });
    await buildAccount(t.ctx.db, project.id, { redditUsername: 'beta_seller', authStatus: 'expired' });
    await buildAccount(t.ctx.db, project.id, { redditUsername: 'gamma_seller', isActive: false });
    clock.t += 5000;
    const run = (await post(project, 'agent-autonomous/execute')).json().operation_result;
    expect(run).toMatchObject({
      status: 'skipped',
      reason:
        'Paused: u/alpha_seller and u/beta_seller need to be re-authenticated (Auth Required) before they ' +
        'can send DMs, and no other Reddit account of this project can send. Re-authenticate them in the ' +
        'accounts panel, then complete learning again to restart the agent.',
    });

    // Switching an account off is the customer's own choice: the agent keeps running and says so.
    const off = await learnedAgent();
    await buildAccount(t.ctx.db, off.id, { redditUsername: 'delta_seller', isActive: false });
    await buildAccount(t.ctx.db, off.id, {
      redditUsername: 'eps_seller',
      isActive: false,
      authStatus: 'expired',
    });
    clock.t += 5000;
    expect((await post(off, 'agent-autonomous/execute')).json().operation_result).toMatchObject({
      status: 'completed',
    });
    const status = (await get(off, 'agent-status')).json<TAgentStatus>();
    expect(status).toMatchObject({ paused_reason: null, is_active: true });
    const drafting = (
      await get(off, 'agent-activity-logs?activity_type=dm_generation')
    ).json<TAgentLogList>();
    expect(drafting.items[0]!.message).toBe(
      "None of this project's Reddit accounts can send (2 connected): re-authenticate or switch them on in " +
        'the accounts panel. No DMs drafted.',
    );
  });

  it("says when a run outside the agent's working hours hands its DMs over", async () => {
    // Saturdays only: Monday's run waits for 09:00 on Saturday 7 March.
    const project = await learnedAgent({ working_days: [6] });
    clock.t += 5000;
    expect((await post(project, 'agent-autonomous/execute')).statusCode).toBe(200);
    const logs = (await get(project, 'agent-activity-logs?activity_type=other')).json<TAgentLogList>();
    expect(logs.items.map((l) => l.message)).toContain(
      "Outside the agent's working hours: DMs wait for the next run after 2026-03-07 09:00 UTC",
    );
  });

  it("gives the next run's time in the agent's own time zone, where its working hours are", async () => {
    const project = await learnedAgent({ working_days: [6], timezone: 'Europe/Berlin' });
    clock.t += 5000;
    expect((await post(project, 'agent-autonomous/execute')).statusCode).toBe(200);
    const logs = (await get(project, 'agent-activity-logs?activity_type=other')).json<TAgentLogList>();
    // 09:00 in Berlin is 08:00 UTC in March.
    expect(logs.items.map((l) => l.message)).toContain(
      "Outside the agent's working hours: DMs wait for the next run after 2026-03-07 09:00 Europe/Berlin",
    );
  });

  it('pauses the agent of an owner whose subscription has ended, and takes back its queued sends', async () => {
    const project = await learnedAgent();
    // Queued by the agent: with its daily cap.
    const queued = await buildDm(t.ctx.db, project.id, { state: 'queued', dailyCap: 5 });
    // The plan lapses; the owner's access token still carries the old limit.
    await t.ctx.db.update(users).set({ profilesLimit: 0 }).where(eq(users.id, project.owner.id));
    clock.t += 5000;
    // Asked through the API, the run is refused at once, whatever the token says.
    const refused = await post(project, 'agent-autonomous/execute');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('subscription_required');
    // Its scheduled run pauses the agent.
    const run = await runAgent(t.ctx, project.id, 'schedule');
    expect(run).toMatchObject({ kind: 'done', result: { status: 'skipped', reason: NO_PLAN_PAUSE } });
    const status = (await get(project, 'agent-status')).json<TAgentStatus>();
    expect(status).toMatchObject({ paused_reason: NO_PLAN_PAUSE, is_active: false });
    const [row] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, queued.id));
    // It says what the send job says of a DM it takes back for the same reason, and how to send it.
    expect(row).toMatchObject({
      state: 'approved',
      outcomeCode: 'subscription_required',
      outcomeReason:
        "Not sent: the project owner's subscription ended before it went. Send All queues it again.",
    });
    expect(await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id))).toHaveLength(
      EDITS.length + 1,
    );
  });
});

describe('while the agent runs autonomously', () => {
  /** An account of the project signed in to Reddit: a grant through a send credential. */
  async function signedInAccount(project: Project) {
    const credential = await createCredential(t.ctx, {
      type: 'send',
      account_name: 'threadreach_send',
      client_id: `send-${randomUUID().slice(0, 8)}`,
      client_secret: `secret-${randomUUID()}`,
      enabled: true,
    });
    const account = await buildAccount(t.ctx.db, project.id, { credentialId: credential.id, now: clock.t });
    await t.ctx.db
      .update(redditAccounts)
      .set({ refreshTokenCiphertext: t.ctx.secrets.encrypt('granted', refreshTokenRef(account.id)) })
      .where(eq(redditAccounts.id, account.id));
    return account;
  }

  const sending = (project: Project, path: string, payload: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/${path}`,
      headers: project.owner.auth,
      payload: { project_id: project.id, ...payload },
    });
  const sendAll = (project: Project) => sending(project, 'send-dm-messages-bulk');
  const sendOne = (project: Project, dmId: string) => sending(project, 'send-dm-message', { dm_id: dmId });
  const REFUSED = { detail: AGENT_TEXTS.stopAgentToSend, code: 'agent_running' };
  const dmsOf = (project: Project) =>
    t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, project.id));

  it("refuses the customer's Send All, and the agent's own run queues those DMs on its schedule", async () => {
    const project = await learnedAgent();
    await signedInAccount(project);
    const refused = await sendAll(project);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual(REFUSED);
    expect((await dmsOf(project)).map((dm) => dm.state)).toEqual(['approved', 'approved', 'approved']);

    // The agent's own queueing goes through Send All's planning, and is not refused.
    clock.t += 5000;
    const run = await post(project, 'agent-autonomous/execute');
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().operation_result).toMatchObject({ status: 'completed', messages_queued: 3 });
    for (const dm of await dmsOf(project)) {
      expect(dm).toMatchObject({
        state: 'queued',
        dailyCap: DEFAULT_AGENT_SETTINGS.daily_dm_limit_per_profile,
      });
    }
  });

  it("refuses a DM's Send: an approved one, one the agent queued, and a failed one sent again", async () => {
    const project = await learnedAgent();
    await signedInAccount(project);
    const [approved] = await dmsOf(project);
    const agentQueued = await buildDm(t.ctx.db, project.id, {
      state: 'queued',
      scheduledFor: new Date(clock.t + 3_600_000),
      dailyCap: 5,
    });
    const failed = await buildDm(t.ctx.db, project.id, {
      state: 'failed',
      outcomeCode: 'reddit_unavailable',
      outcomeReason: 'Reddit did not answer',
    });
    for (const dm of [approved!, agentQueued, failed]) {
      const before = (await dmsOf(project)).find((row) => row.id === dm.id);
      const res = await sendOne(project, dm.id);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual(REFUSED);
      expect((await dmsOf(project)).find((row) => row.id === dm.id)).toEqual(before);
    }
    // Asked by the lead's post_id, the same.
    const byPost = await sending(project, 'send-dm-message', { post_id: approved!.redditPostId });
    expect(byPost.json()).toEqual(REFUSED);
  });

  it('leaves the sending status, Stop sending and Stop Agent usable; stopped or paused, the customer sends again', async () => {
    const project = await learnedAgent();
    await signedInAccount(project);
    // Queued by the customer's Send All before the start: it keeps going, and Stop sending takes it back.
    const own = await buildDm(t.ctx.db, project.id, {
      recipientUsername: someone(),
      state: 'queued',
      scheduledFor: new Date(clock.t + 3_600_000),
    });
    expect((await sendAll(project)).json()).toEqual(REFUSED);
    const status = await t.app.inject({
      url: `/api/v1/dm-sending-status?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(status.statusCode, status.body).toBe(200);
    const stop = await sending(project, 'cancel-queued-dm-messages');
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({ cancelled: 1 });
    expect((await dmsOf(project)).find((dm) => dm.id === own.id)!.state).toBe('approved');

    // Stop Agent: the customer's Send All queues the DMs again.
    const stopped = await post(project, 'agent-settings/toggle-mode', { mode: 'assistant' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const queued = await sendAll(project);
    expect(queued.statusCode, queued.body).toBe(200);
    expect(queued.json()).toMatchObject({ queued: 4 });

    // A paused agent does not run: its overlay is off, and the customer's Send goes on to the accounts.
    const paused = await learnedAgent();
    const [dm] = await dmsOf(paused);
    expect((await sendOne(paused, dm!.id)).json()).toEqual(REFUSED);
    await t.ctx.db
      .update(agentSettings)
      .set({ isActive: false, pausedReason: 'Paused: Reddit refused 3 DMs' })
      .where(eq(agentSettings.projectId, paused.id));
    const res = await sendOne(paused, dm!.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('no_accounts');
  });

  it('Send All racing the start of the agent waits for it, then refuses: nothing is queued beside the agent', async () => {
    const project = await newProject();
    await post(project, 'agent-settings/toggle-mode', { mode: 'agent' });
    await signedInAccount(project);
    const dm = await buildDm(t.ctx.db, project.id);
    let racing: ReturnType<typeof sendAll> | null = null;
    await t.ctx.db.transaction(async (tx) => {
      // Complete Learning has switched the agent on, not yet committed, when Send All comes.
      await tx
        .update(agentSettings)
        .set({ learningStageCompleted: true, isActive: true })
        .where(eq(agentSettings.projectId, project.id));
      racing = sendAll(project);
      await untilWaitingForALock(t.ctx.db, racing);
    });
    const res = await racing!;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual(REFUSED);
    expect((await dmsOf(project)).find((row) => row.id === dm.id)!.state).toBe('approved');
  });
});
