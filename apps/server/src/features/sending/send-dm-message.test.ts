import { SENDING_TEXTS } from '@threadreach/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redditAccounts, refreshTokenRef } from '../accounts';
import { dmMessages } from '../dms/dms.table';
import { buildLead } from '../leads/leads.test-support';
import { suppressions } from '../suppressions/suppressions.table';
import { expireStaleDms } from '../dms/dm-expiry';
import { attemptSend } from './send-attempt';
import { sendQueuedDm } from './send-queued';
import { sendDmNow } from './sending.service';
import { reconcileAccount, sweepSends } from './reconcile.service';
import {
  accountById,
  buildDm,
  buildSendingProject,
  connectAccount,
  dmById,
  recipientPool,
  startSendingRig,
  type RecipientPool,
  type SendingRig,
} from './sending.test-support';

/**
 * A person's Send through the API, on the simulator: each answer Reddit can give, and what the DM, the
 * account and the do-not-contact list become. Every test works in a workspace of its own, two hours
 * after the previous one, so the simulator's hourly limits of its senders never carry over.
 */
let rig: SendingRig;
let people: RecipientPool;
let next = 0;
const person = () => people.accepting[next++]!;

beforeAll(async () => {
  rig = await startSendingRig();
  people = await recipientPool();
}, 120_000);
afterAll(() => rig?.close());
beforeEach(() => {
  rig.clock.t += 2 * 3_600_000;
  rig.sim.faults.clear();
});

async function workspace(accounts: Parameters<typeof connectAccount>[4][] = [{}]) {
  const project = await buildSendingProject(rig);
  const connected = [];
  for (const spec of accounts)
    connected.push(await connectAccount(rig.ctx, rig.sim, rig.credential, project, spec));
  return { project, accounts: connected, auth: project.owner.auth };
}

function send(auth: { authorization: string }, body: Record<string, unknown>) {
  return rig.t.app.inject({ method: 'POST', url: '/api/v1/send-dm-message', headers: auth, payload: body });
}

const delivered = (to: string) => rig.sim.inspect.messages({ to });
const DAY_MS = 86_400_000;

describe('a single Send', () => {
  it('goes now, from the ready account with the most capacity left, and is marked sent', async () => {
    const { project, accounts, auth } = await workspace([
      { username: 'demo_founder', dailyMessageLimit: 10 },
      { username: 'growth_marketer', dailyMessageLimit: 20 },
    ]);
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    const res = await send(auth, { project_id: project.id, post_id: dm.redditPostId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      recipient: to,
      state: 'sent',
      account: 'growth_marketer',
      message: SENDING_TEXTS.sentTo(to),
    });
    const row = await dmById(rig.db, dm.id);
    expect(row).toMatchObject({
      state: 'sent',
      accountId: accounts[1]!.id,
      outcomeCode: 'sent',
      attempts: 1,
    });
    expect(row.sentAt?.getTime()).toBe(rig.clock.t);
    expect(delivered(to)).toHaveLength(1);
    expect(delivered(to)[0]).toMatchObject({
      from: 'growth_marketer',
      body: dm.messageContent,
      subject: dm.subject,
    });
  });

  it("takes the DM list's dm_id as well", async () => {
    const { project, auth } = await workspace();
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const res = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(res.json()).toMatchObject({ state: 'sent', dm_id: dm.id });
  });

  it('refuses a second DM to someone the workspace already contacted, with the reason', async () => {
    const { project, auth } = await workspace();
    const to = person();
    const first = await buildDm(rig.db, project, { recipient: to });
    const other = await buildSendingProject(rig, project.owner);
    const second = await buildDm(rig.db, other, { recipient: to.toUpperCase() });
    await connectAccount(rig.ctx, rig.sim, rig.credential, other);
    expect((await send(auth, { project_id: project.id, dm_id: first.id })).statusCode).toBe(200);
    const res = await send(auth, { project_id: other.id, dm_id: second.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'already_contacted',
      detail: `u/${to.toUpperCase()} was already contacted from this workspace`,
    });
    expect(await dmById(rig.db, second.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'already_contacted',
    });
    // Sending the sent DM again is refused too, and Reddit saw one DM.
    const again = await send(auth, { project_id: project.id, dm_id: first.id });
    expect(again.json()).toMatchObject({ code: 'already_sent' });
    expect(delivered(to)).toHaveLength(1);
  });

  it('never contacts again, from another project, someone a deleted project contacted', async () => {
    const { project, auth } = await workspace();
    const to = person();
    const unsent = person();
    const first = await buildDm(rig.db, project, { recipient: to });
    await buildDm(rig.db, project, { recipient: unsent });
    expect((await send(auth, { project_id: project.id, dm_id: first.id })).statusCode).toBe(200);
    // Listed by hand meanwhile: an entry the customer could remove, which the deletion makes permanent.
    await rig.db.insert(suppressions).values({
      ownerUserId: project.userId,
      usernameKey: to.toLowerCase(),
      username: to,
      reason: 'manual',
      createdAt: new Date(rig.clock.t),
    });
    const gone = await rig.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: auth,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await dmById(rig.db, first.id)).toBeUndefined();

    // The person stays on the do-not-contact list for good; the one never sent to is not put there.
    const list = await rig.t.app.inject({ method: 'GET', url: '/api/v1/do-not-contact', headers: auth });
    expect(list.json().items).toEqual([
      expect.objectContaining({
        username: to,
        reason: 'contacted',
        note: `Contacted from the deleted project "${project.name}"`,
        removable: false,
      }),
    ]);
    const remove = await rig.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/do-not-contact/${to}`,
      headers: auth,
    });
    expect(remove.json()).toMatchObject({ code: 'permanent_suppression' });

    const other = await buildSendingProject(rig, project.owner);
    await connectAccount(rig.ctx, rig.sim, rig.credential, other);
    const second = await buildDm(rig.db, other, { recipient: to });
    const res = await send(auth, { project_id: other.id, dm_id: second.id });
    expect(res.json()).toEqual({
      code: 'suppressed',
      detail: `u/${to} is on this workspace's do-not-contact list (contacted from a project since deleted)`,
    });
    const third = await buildDm(rig.db, other, { recipient: unsent });
    expect((await send(auth, { project_id: other.id, dm_id: third.id })).statusCode).toBe(200);
    expect(delivered(to)).toHaveLength(1);
  });

  it('honours the do-not-contact list and a reply', async () => {
    const { project, auth } = await workspace();
    const suppressed = person();
    const answered = person();
    await rig.db.insert(suppressions).values({
      ownerUserId: project.userId,
      usernameKey: suppressed.toLowerCase(),
      username: suppressed,
      reason: 'refusal',
      createdAt: new Date(rig.clock.t),
    });
    const a = await buildDm(rig.db, project, { recipient: suppressed });
    const res = await send(auth, { project_id: project.id, dm_id: a.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'suppressed',
      detail: `u/${suppressed} is on this workspace's do-not-contact list (asked not to be contacted)`,
    });
    await buildDm(rig.db, project, { recipient: answered, state: 'sent', repliedAt: new Date(rig.clock.t) });
    const b = await buildDm(rig.db, project, { recipient: answered });
    const replied = await send(auth, { project_id: project.id, dm_id: b.id });
    expect(replied.json()).toMatchObject({ code: 'replied' });
    expect(delivered(suppressed)).toHaveLength(0);
    expect(delivered(answered)).toHaveLength(0);
  });

  it('maps USER_DOESNT_EXIST and NOT_WHITELISTED to a failed DM and a suppressed person', async () => {
    const { project, auth } = await workspace();
    const ghost = await buildDm(rig.db, project, { recipient: 'no_such_user_4711' });
    const res = await send(auth, { project_id: project.id, dm_id: ghost.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('user_doesnt_exist');
    const refuser = people.refusing[0]!;
    const closed = await buildDm(rig.db, project, { recipient: refuser });
    const res2 = await send(auth, { project_id: project.id, dm_id: closed.id });
    expect(res2.json()).toMatchObject({ code: 'not_whitelisted' });
    expect(await dmById(rig.db, closed.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'not_whitelisted',
    });
    const list = await rig.db.select().from(suppressions).where(eq(suppressions.ownerUserId, project.userId));
    expect(list.map((s) => [s.usernameKey, s.reason]).sort()).toEqual(
      [
        ['no_such_user_4711', 'user_doesnt_exist'],
        [refuser.toLowerCase(), 'not_whitelisted'],
      ].sort(),
    );
    // Refusals free the quota: they were claimed, never counted as contacts.
    const fresh = await buildDm(rig.db, project, { recipient: person() });
    expect((await send(auth, { project_id: project.id, dm_id: fresh.id })).json().state).toBe('sent');
  });

  it('keeps a DM Reddit refused as failed, with its reason, when Send is pressed again', async () => {
    const { project, auth } = await workspace();
    const refuser = people.refusing[0]!;
    const closed = await buildDm(rig.db, project, { recipient: refuser });
    expect((await send(auth, { project_id: project.id, dm_id: closed.id })).json().code).toBe(
      'not_whitelisted',
    );
    const refused = await dmById(rig.db, closed.id);
    rig.clock.t += 60_000;
    const again = await send(auth, { project_id: project.id, dm_id: closed.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('suppressed');
    expect(await dmById(rig.db, closed.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'not_whitelisted',
      outcomeReason: refused.outcomeReason,
      failedAt: refused.failedAt,
    });
    const stats = await rig.t.app.inject({
      method: 'GET',
      url: `/api/v1/campaign-statistics?project_id=${project.id}`,
      headers: auth,
    });
    expect(stats.json()).toMatchObject({ generated: 1, failed: 1, pending: 0 });
  });

  it("queues the DM for Reddit's stated wait on RATELIMIT and holds the account back", async () => {
    // fresh_account composes twice an hour on the simulator; we know it as a 400-day-old account.
    const { project, accounts, auth } = await workspace([{ username: 'fresh_account' }]);
    for (let i = 0; i < 2; i++) {
      const dm = await buildDm(rig.db, project, { recipient: person() });
      expect((await send(auth, { project_id: project.id, dm_id: dm.id })).json().state).toBe('sent');
    }
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const res = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.state).toBe('queued');
    const row = await dmById(rig.db, dm.id);
    expect(row).toMatchObject({ state: 'queued', outcomeCode: 'rate_limited', claimedAt: null, attempts: 1 });
    // The simulator asked for an hour (two composes in the hour); the DM and the account wait that long.
    const wait = row.scheduledFor!.getTime() - rig.clock.t;
    expect(wait).toBeGreaterThan(3_500_000);
    expect(wait).toBeLessThanOrEqual(3_602_000);
    expect((await accountById(rig.db, accounts[0]!.id)).nextSendAt).toEqual(row.scheduledFor);
    expect(rig.jobs.at(-1)).toMatchObject({ name: 'send-dm', data: { dmId: dm.id } });
    // Meanwhile the account is not ready for a person's Send either.
    const other = await buildDm(rig.db, project, { recipient: person() });
    const refused = await send(auth, { project_id: project.id, dm_id: other.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('rate_limited');
  });

  it('disables a suspended sender and sends from the next account', async () => {
    const { project, accounts, auth } = await workspace([
      { username: 'suspended_seller', dailyMessageLimit: 30 },
      { username: 'demo_founder', dailyMessageLimit: 10 },
    ]);
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    const res = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(res.json()).toMatchObject({ state: 'sent', account: 'demo_founder' });
    const suspended = await accountById(rig.db, accounts[0]!.id);
    expect(suspended.disabledReason).toMatch(/403 Forbidden/);
    expect(delivered(to)).toHaveLength(1);
    expect((await dmById(rig.db, dm.id)).attempts).toBe(2);
  });

  it('marks an account whose grant Reddit refuses Auth Required and tries the next', async () => {
    const { project, accounts, auth } = await workspace([
      { username: 'demo_founder', dailyMessageLimit: 30 },
      { username: 'growth_marketer', dailyMessageLimit: 10 },
    ]);
    // The first account holds a refresh token Reddit does not know (revoked on Reddit's side).
    const revoked = rig.ctx.secrets.encrypt('revoked-token', refreshTokenRef(accounts[0]!.id));
    await rig.db
      .update(redditAccounts)
      .set({ refreshTokenCiphertext: revoked })
      .where(eq(redditAccounts.id, accounts[0]!.id));
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const res = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(res.json()).toMatchObject({ state: 'sent', account: 'growth_marketer' });
    expect((await accountById(rig.db, accounts[0]!.id)).authStatus).toBe('expired');
  });

  it('never sends twice when Reddit fails (5xx) or the connection resets: unknown, then reconciled', async () => {
    const { project, accounts, auth } = await workspace();
    const target = { projectId: project.id, accountId: accounts[0]!.id };
    const toA = person();
    const toB = person();
    const a = await buildDm(rig.db, project, { recipient: toA });
    const b = await buildDm(rig.db, project, { recipient: toB });
    // A 503 is answered before the compose takes effect; a reset after it did.
    rig.sim.faults.add({ kind: 'status', status: 503, path: '/api/compose', count: 1 });
    const res = await send(auth, { project_id: project.id, dm_id: a.id });
    expect(res.json()).toMatchObject({ state: 'unknown' });
    rig.sim.faults.add({ kind: 'reset', path: '/api/compose', count: 1 });
    expect((await send(auth, { project_id: project.id, dm_id: b.id })).json().state).toBe('unknown');
    expect(rig.jobs.filter((j) => j.name === 'reconcile-dms').at(-1)).toMatchObject({ data: target });
    // While unknown, the person counts as contacted: another Send is refused, Reddit saw nothing more.
    expect((await send(auth, { project_id: project.id, dm_id: b.id })).json().code).toBe('send_in_progress');
    expect(delivered(toA)).toHaveLength(0);
    expect(delivered(toB)).toHaveLength(1);

    // The first look: b is in the sent messages; a is not, but it is too early to say.
    rig.clock.t += 60_000;
    const first = await reconcileAccount(rig.ctx, target);
    expect(first).toMatchObject({ confirmed: 1, waiting: 1 });
    expect(await dmById(rig.db, b.id)).toMatchObject({ state: 'sent', outcomeCode: 'sent' });
    expect((await dmById(rig.db, a.id)).state).toBe('unknown');
    // After the safe delay a was not delivered: queued again, it goes once.
    rig.clock.t += 10 * 60_000;
    const second = await reconcileAccount(rig.ctx, target);
    expect(second).toMatchObject({ requeued: 1, waiting: 0 });
    const requeued = await dmById(rig.db, a.id);
    expect(requeued).toMatchObject({ state: 'queued', outcomeCode: 'not_delivered' });
    rig.clock.t = Math.max(rig.clock.t, requeued.scheduledFor!.getTime());
    expect((await sendQueuedDm(rig.ctx, { projectId: project.id, dmId: a.id })).outcome).toBe('sent');
    expect(delivered(toA)).toHaveLength(1);
    expect(delivered(toB)).toHaveLength(1);
  });

  it('never sends a DM whose sender was held up past the sweep, once recovery gave it to another', async () => {
    const { project, accounts } = await workspace();
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const atClaim = new Promise<void>((resolve) => (claimed = resolve));
    // Claimed, then held up (a paused process, a wait for a connection) before Reddit is called.
    const stalled = sendDmNow(
      rig.ctx,
      project.id,
      { dmId: dm.id },
      {
        onStep: async (step) => {
          if (step !== 'after-claim') return;
          claimed();
          await held;
        },
      },
    );
    await atClaim;
    rig.clock.t += 11 * 60_000;
    await sweepSends(rig.ctx);
    const report = await reconcileAccount(rig.ctx, { projectId: project.id, accountId: accounts[0]!.id });
    expect(report.requeued).toBe(1);
    rig.clock.t = Math.max(rig.clock.t, (await dmById(rig.db, dm.id)).scheduledFor!.getTime());
    expect((await sendQueuedDm(rig.ctx, { projectId: project.id, dmId: dm.id })).outcome).toBe('sent');

    release();
    await stalled.catch(() => undefined);
    expect(delivered(to)).toHaveLength(1);
    expect((await dmById(rig.db, dm.id)).state).toBe('sent');
  });

  it('leaves the outcome of a DM given to another sender to that sender, when its first sender comes back', async () => {
    const { project, accounts } = await workspace();
    const target = { projectId: project.id, accountId: accounts[0]!.id };
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    const hold = () => {
      let release!: () => void;
      let reached!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const atStep = new Promise<void>((resolve) => (reached = resolve));
      const onStep = async (step: string, at: 'after-claim' | 'after-reddit') => {
        if (step !== at) return;
        reached();
        await released;
      };
      return { release, atStep, onStep };
    };
    // The first sender's compose is refused (not delivered); it is held up before writing that outcome.
    rig.sim.faults.add({ kind: 'status', status: 503, path: '/api/compose', count: 1 });
    const first = hold();
    const firstSend = sendDmNow(
      rig.ctx,
      project.id,
      { dmId: dm.id },
      { onStep: (step) => first.onStep(step, 'after-reddit') },
    );
    await first.atStep;
    rig.clock.t += 11 * 60_000;
    await sweepSends(rig.ctx);
    expect(await reconcileAccount(rig.ctx, target)).toMatchObject({ requeued: 1 });
    // Queued again, a second sender claims it; the first comes back while the second is at Reddit.
    rig.clock.t = Math.max(rig.clock.t, (await dmById(rig.db, dm.id)).scheduledFor!.getTime());
    const second = hold();
    const secondSend = sendQueuedDm(
      rig.ctx,
      { projectId: project.id, dmId: dm.id },
      { onStep: (step) => second.onStep(step, 'after-claim') },
    );
    await second.atStep;
    const claimed = await dmById(rig.db, dm.id);
    first.release();
    await firstSend.catch(() => undefined);
    expect(await dmById(rig.db, dm.id)).toMatchObject({ state: 'sending', claimedAt: claimed.claimedAt });

    second.release();
    expect((await secondSend).outcome).toBe('sent');
    expect(delivered(to)).toHaveLength(1);
    expect((await dmById(rig.db, dm.id)).state).toBe('sent');
  });

  it('decides nothing about a DM of unknown outcome from a partial read of the sent messages', async () => {
    const { project, accounts, auth } = await workspace();
    const target = { projectId: project.id, accountId: accounts[0]!.id };
    const dm = await buildDm(rig.db, project, { recipient: person() });
    await rig.db
      .update(dmMessages)
      .set({ state: 'unknown', accountId: accounts[0]!.id, claimedAt: new Date(rig.clock.t - 20 * 60_000) })
      .where(eq(dmMessages.id, dm.id));
    // Two later sends: one page of one message does not reach back to the DM's claim.
    for (const other of [
      await buildDm(rig.db, project, { recipient: person() }),
      await buildDm(rig.db, project, { recipient: person() }),
    ]) {
      expect((await send(auth, { project_id: project.id, dm_id: other.id })).json().state).toBe('sent');
    }
    const partial = await reconcileAccount(rig.ctx, target, { sentPages: { size: 1, max: 1 } });
    expect(partial).toMatchObject({ requeued: 0, failed: 0, waiting: 1 });
    expect(partial.retryAtMs).toBeGreaterThan(rig.clock.t);
    expect((await dmById(rig.db, dm.id)).state).toBe('unknown');
    // Read to the claim, it was not delivered.
    expect(await reconcileAccount(rig.ctx, target)).toMatchObject({ requeued: 1, waiting: 0 });
  });

  it('takes a DM of unknown outcome that its recipient answered as sent, not as one to send again', async () => {
    const { project, accounts } = await workspace();
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const claimedAt = new Date(rig.clock.t - 20 * 60_000);
    await rig.db
      .update(dmMessages)
      .set({ state: 'unknown', accountId: accounts[0]!.id, claimedAt, repliedAt: new Date(rig.clock.t) })
      .where(eq(dmMessages.id, dm.id));
    const report = await reconcileAccount(rig.ctx, { projectId: project.id, accountId: accounts[0]!.id });
    expect(report).toMatchObject({ confirmed: 1, requeued: 0 });
    expect(await dmById(rig.db, dm.id)).toMatchObject({
      state: 'sent',
      sentAt: claimedAt,
      outcomeCode: 'sent',
    });
  });

  it('tells the customer to re-authenticate an account whose unknown DMs cannot be checked without its grant', async () => {
    const { project, accounts } = await workspace();
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    const claimedAt = new Date(rig.clock.t - 20 * 60_000);
    await rig.db
      .update(dmMessages)
      .set({
        state: 'unknown',
        accountId: accounts[0]!.id,
        claimedAt,
        outcomeCode: 'unknown_outcome',
        outcomeReason:
          "Reddit did not confirm the DM (Reddit answered 500); checking u/demo_founder's sent messages before anything is sent again",
      })
      .where(eq(dmMessages.id, dm.id));
    await rig.db
      .update(redditAccounts)
      .set({ authStatus: 'expired' })
      .where(eq(redditAccounts.id, accounts[0]!.id));
    const report = await reconcileAccount(rig.ctx, { projectId: project.id, accountId: accounts[0]!.id });
    expect(report).toMatchObject({ confirmed: 0, requeued: 0, failed: 0, waiting: 1 });
    const waiting = await dmById(rig.db, dm.id);
    expect(waiting).toMatchObject({ state: 'unknown', claimedAt, outcomeCode: 'unknown_outcome' });
    expect(waiting.outcomeReason).toBe(
      `Reddit did not confirm the DM. Re-authenticate u/demo_founder so its sent messages can be checked; until then u/${to} counts as contacted and is not sent it again.`,
    );
    // Signed in again, within the safe delay: the check is under way, and the DM says so.
    await rig.db
      .update(redditAccounts)
      .set({ authStatus: 'valid' })
      .where(eq(redditAccounts.id, accounts[0]!.id));
    await rig.db
      .update(dmMessages)
      .set({ claimedAt: new Date(rig.clock.t - 60_000) })
      .where(eq(dmMessages.id, dm.id));
    expect(
      await reconcileAccount(rig.ctx, { projectId: project.id, accountId: accounts[0]!.id }),
    ).toMatchObject({
      waiting: 1,
    });
    expect((await dmById(rig.db, dm.id)).outcomeReason).toBe(
      "Reddit did not confirm the DM; checking u/demo_founder's sent messages before anything is sent again",
    );
  });

  it('checks the unknown DMs of a signed-out account again within a minute, so a re-authentication is followed at once', async () => {
    const { project, accounts } = await workspace();
    const dm = await buildDm(rig.db, project, { recipient: person() });
    await rig.db
      .update(dmMessages)
      .set({ state: 'unknown', accountId: accounts[0]!.id, claimedAt: new Date(rig.clock.t - 20 * 60_000) })
      .where(eq(dmMessages.id, dm.id));
    await rig.db
      .update(redditAccounts)
      .set({ authStatus: 'expired' })
      .where(eq(redditAccounts.id, accounts[0]!.id));
    const target = { projectId: project.id, accountId: accounts[0]!.id };
    const signedOut = await reconcileAccount(rig.ctx, target);
    expect(signedOut).toMatchObject({ waiting: 1 });
    expect(signedOut.retryAtMs).toBeLessThanOrEqual(rig.clock.t + 60_000);
    // Signed in again: the next look decides (not delivered, 20 minutes after the claim: queued again).
    await rig.db
      .update(redditAccounts)
      .set({ authStatus: 'valid' })
      .where(eq(redditAccounts.id, accounts[0]!.id));
    rig.clock.t = signedOut.retryAtMs!;
    expect(await reconcileAccount(rig.ctx, target)).toMatchObject({ requeued: 1, waiting: 0 });
  });

  it('fails as not delivered after the last attempt', async () => {
    const { project, accounts } = await workspace();
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const claimedAt = new Date(rig.clock.t - 20 * 60_000);
    await rig.db
      .update(dmMessages)
      .set({ state: 'unknown', accountId: accounts[0]!.id, claimedAt, attempts: 3 })
      .where(and(eq(dmMessages.id, dm.id)));
    const report = await reconcileAccount(rig.ctx, { projectId: project.id, accountId: accounts[0]!.id });
    expect(report.failed).toBe(1);
    expect(await dmById(rig.db, dm.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'not_delivered',
      outcomeReason: 'not delivered',
    });
  });

  it('turns a claim left in sending by a dead process into unknown after the sweep', async () => {
    const { project, accounts } = await workspace();
    const dm = await buildDm(rig.db, project, { recipient: person() });
    await rig.db
      .update(dmMessages)
      .set({ state: 'sending', accountId: accounts[0]!.id, claimedAt: new Date(rig.clock.t - 6 * 60_000) })
      .where(eq(dmMessages.id, dm.id));
    const sweep = await sweepSends(rig.ctx);
    expect(sweep.interrupted).toBeGreaterThanOrEqual(1);
    expect(sweep.accounts).toContainEqual({ projectId: project.id, accountId: accounts[0]!.id });
    expect((await dmById(rig.db, dm.id)).state).toBe('unknown');
  });
});

describe('a single Send refused before Reddit', () => {
  it('answers the spec texts: no account, an account under 7 days', async () => {
    const { project, auth } = await workspace([]);
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const none = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ code: 'no_accounts', detail: SENDING_TEXTS.noAccounts });
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, { ageDays: 6 });
    const young = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(young.statusCode).toBe(422);
    expect(young.json()).toEqual({ code: 'account_too_young', detail: SENDING_TEXTS.accountTooYoung });
    expect((await dmById(rig.db, dm.id)).state).toBe('approved');
  });

  it('answers when every account reached its daily limit', async () => {
    const { project, auth } = await workspace([
      { username: 'demo_founder', dailyMessageLimit: 1 },
      { username: 'growth_marketer', dailyMessageLimit: 1 },
    ]);
    for (let i = 0; i < 2; i++) {
      const dm = await buildDm(rig.db, project, { recipient: person() });
      expect((await send(auth, { project_id: project.id, dm_id: dm.id })).json().state).toBe('sent');
    }
    const dm = await buildDm(rig.db, project, { recipient: person() });
    const res = await send(auth, { project_id: project.id, dm_id: dm.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'daily_limit_reached',
      detail: 'Every Reddit account of this project reached its daily limit',
    });
  });

  it('says a person was already contacted, not that the accounts must wait, when no account can send now', async () => {
    const { project, auth } = await workspace([{ username: 'demo_founder', dailyMessageLimit: 1 }]);
    const to = person();
    const first = await buildDm(rig.db, project, { recipient: to });
    const other = await buildSendingProject(rig, project.owner);
    const second = await buildDm(rig.db, other, { recipient: to });
    await connectAccount(rig.ctx, rig.sim, rig.credential, other, { dailyMessageLimit: 1 });
    expect((await send(auth, { project_id: project.id, dm_id: first.id })).json().state).toBe('sent');
    // The only account of `other` is at its daily limit (the same Reddit account): still, the answer is
    // that this person is never contacted again, not to wait until tomorrow.
    const res = await send(auth, { project_id: other.id, dm_id: second.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'already_contacted',
      detail: `u/${to} was already contacted from this workspace`,
    });
    expect(await dmById(rig.db, second.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'already_contacted',
    });
    expect(delivered(to)).toHaveLength(1);
  });

  it('counts the daily limit of a Reddit account connected to two projects once, across both', async () => {
    const first = await workspace([{ username: 'demo_founder', dailyMessageLimit: 1 }]);
    const second = await buildSendingProject(rig, first.project.owner);
    const again = await connectAccount(rig.ctx, rig.sim, rig.credential, second, {
      username: 'demo_founder',
      dailyMessageLimit: 1,
    });
    const dm = await buildDm(rig.db, first.project, { recipient: person() });
    expect((await send(first.auth, { project_id: first.project.id, dm_id: dm.id })).json().state).toBe(
      'sent',
    );

    const other = await buildDm(rig.db, second, { recipient: person() });
    const res = await send(first.auth, { project_id: second.id, dm_id: other.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('daily_limit_reached');
    expect((await dmById(rig.db, other.id)).state).toBe('approved');
    const listed = await rig.t.app.inject({
      url: `/api/v1/projects/${second.id}/accounts`,
      headers: first.auth,
    });
    expect(listed.json().items.find((a: { id: string }) => a.id === again.id)).toMatchObject({
      remaining_today: 0,
    });
  });

  it('expires, unsent, a DM whose lead grew older than DM_EXPIRY_DAYS before expire-dms ran, with an account ready or not', async () => {
    const { project, auth } = await workspace();
    const about = async (leadDaysAgo: number) => {
      const lead = await buildLead(rig.db, project.id, {
        itemCreatedAt: new Date(rig.clock.t - leadDaysAgo * DAY_MS),
      });
      const dm = await buildDm(rig.db, project, { recipient: person() });
      await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
      return dm;
    };
    const expired = { code: 'dm_expired', detail: 'This DM expired with its lead and can no longer be sent' };
    // DM_EXPIRY_DAYS is 14.
    const old = await about(14.1);
    const res = await send(auth, { project_id: project.id, dm_id: old.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(expired);
    expect((await dmById(rig.db, old.id)).state).toBe('expired');
    expect(delivered(old.recipientUsername)).toHaveLength(0);

    // Without an account that could send, the answer is still that it expired, not to wait.
    await rig.db
      .update(redditAccounts)
      .set({ isActive: false })
      .where(eq(redditAccounts.projectId, project.id));
    const another = await about(20);
    const paused = await send(auth, { project_id: project.id, dm_id: another.id });
    expect(paused.json()).toEqual(expired);
    expect((await dmById(rig.db, another.id)).state).toBe('expired');

    const fresh = await about(13.9);
    await rig.db
      .update(redditAccounts)
      .set({ isActive: true })
      .where(eq(redditAccounts.projectId, project.id));
    expect((await send(auth, { project_id: project.id, dm_id: fresh.id })).json().state).toBe('sent');
  });

  it('expires a queued DM whose lead grew too old before its turn came, instead of sending it', async () => {
    const { project, accounts } = await workspace();
    const lead = await buildLead(rig.db, project.id, {
      itemCreatedAt: new Date(rig.clock.t - 13.9 * DAY_MS),
    });
    const dm = await buildDm(rig.db, project, {
      recipient: person(),
      state: 'queued',
      accountId: accounts[0]!.id,
      scheduledFor: new Date(rig.clock.t + 0.2 * DAY_MS),
    });
    await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
    rig.clock.t += 0.2 * DAY_MS;
    const result = await sendQueuedDm(rig.ctx, { projectId: project.id, dmId: dm.id });
    expect(result).toEqual({ outcome: 'not_claimable', retryAtMs: null });
    expect((await dmById(rig.db, dm.id)).state).toBe('expired');
    expect(delivered(dm.recipientUsername)).toHaveLength(0);
  });

  it('refuses to send again a failed DM whose lead grew older than DM_EXPIRY_DAYS, and keeps it failed', async () => {
    const { project, accounts, auth } = await workspace();
    const failedAbout = async (leadDaysAgo: number) => {
      const lead = await buildLead(rig.db, project.id, {
        itemCreatedAt: new Date(rig.clock.t - leadDaysAgo * DAY_MS),
      });
      const dm = await buildDm(rig.db, project, { recipient: person(), state: 'failed' });
      const failedAt = new Date(rig.clock.t - DAY_MS);
      await rig.db
        .update(dmMessages)
        .set({
          leadId: lead.id,
          failedAt,
          outcomeCode: 'compose_refused',
          outcomeReason: 'Reddit refused the DM (400)',
        })
        .where(eq(dmMessages.id, dm.id));
      return dmById(rig.db, dm.id);
    };
    const old = await failedAbout(14.1);
    const res = await send(auth, { project_id: project.id, dm_id: old.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'dm_expired',
      detail: 'This DM expired with its lead and can no longer be sent',
    });
    // Its failure stays what the statistics count, as expire-dms leaves it.
    await expireStaleDms(rig.ctx);
    expect(await dmById(rig.db, old.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'compose_refused',
      failedAt: old.failedAt,
      attempts: old.attempts,
    });
    // The claim refuses it too, whoever asks.
    const claimed = await attemptSend(rig.ctx, {
      projectId: project.id,
      dmId: old.id,
      accountId: accounts[0]!.id,
      paced: false,
    });
    expect(claimed).toMatchObject({ kind: 'not_claimable', tooOld: true });
    expect((await dmById(rig.db, old.id)).state).toBe('failed');
    expect(delivered(old.recipientUsername)).toHaveLength(0);
    const stats = await rig.t.app.inject({
      url: `/api/v1/campaign-statistics?project_id=${project.id}`,
      headers: auth,
    });
    expect(stats.json()).toMatchObject({ failed: 1, expired: 0 });

    // One about a recent lead is sent again.
    const recent = await failedAbout(13.9);
    expect((await send(auth, { project_id: project.id, dm_id: recent.id })).json().state).toBe('sent');
  });

  it('finds the DM by the post_id the DM list shows for it, as well as by its reddit_post_id', async () => {
    const { project, auth } = await workspace();
    const to = person();
    const lead = await buildLead(rig.db, project.id, { author: to });
    const dm = await buildDm(rig.db, project, { recipient: to });
    await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
    const res = await send(auth, { project_id: project.id, post_id: lead.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ recipient: to, state: 'sent' });
  });

  it('asks for post_id or dm_id, and answers 404 for a DM that is not there', async () => {
    const { project, auth } = await workspace();
    expect((await send(auth, { project_id: project.id })).statusCode).toBe(400);
    const missing = await send(auth, { project_id: project.id, post_id: 't3_nothing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'not_found', detail: 'DM not found' });
  });

  it("refuses another tenant's DM and never sends from another tenant's account", async () => {
    const mine = await workspace();
    const theirs = await workspace();
    const theirDm = await buildDm(rig.db, theirs.project, { recipient: person() });
    // Their DM named through my own project, or through theirs: not found either way.
    for (const project_id of [mine.project.id, theirs.project.id]) {
      const res = await send(mine.auth, { project_id, dm_id: theirDm.id });
      expect(res.statusCode).toBe(404);
    }
    // A DM of mine queued on their account (a row no API writes) is not sent from it.
    const dm = await buildDm(rig.db, mine.project, {
      recipient: person(),
      state: 'queued',
      accountId: theirs.accounts[0]!.id,
      scheduledFor: new Date(rig.clock.t),
    });
    const result = await sendQueuedDm(rig.ctx, { projectId: mine.project.id, dmId: dm.id });
    expect(result.outcome).toBe('scheduled');
    const row = await dmById(rig.db, dm.id);
    expect(row.accountId).toBe(mine.accounts[0]!.id);
    expect(rig.sim.inspect.messages({ to: dm.recipientUsername })).toHaveLength(0);
  });
});

describe('dm-sending-status', () => {
  const status = (auth: { authorization: string }, query = '') =>
    rig.t.app.inject({ url: `/api/v1/dm-sending-status${query}`, headers: auth });

  it('counts by state and lists each DM with its account and reason, a page at a time', async () => {
    const { project, auth } = await workspace();
    const sent = await buildDm(rig.db, project, { recipient: person() });
    expect((await send(auth, { project_id: project.id, dm_id: sent.id })).json().state).toBe('sent');
    const refused = await buildDm(rig.db, project, { recipient: people.refusing[1]! });
    await send(auth, { project_id: project.id, dm_id: refused.id });
    const queuedAt = new Date(rig.clock.t + 3_600_000);
    await buildDm(rig.db, project, { recipient: person(), state: 'queued', scheduledFor: queuedAt });
    await buildDm(rig.db, project, { recipient: person() }); // approved: not in the status

    const res = await status(auth, `?project_id=${project.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.counts).toEqual({
      queued: 1,
      sending: 0,
      sent: 1,
      failed: 1,
      withheld: 0,
      unknown: 0,
      delivery_unknown: 0,
      queued_by_agent: 0,
    });
    expect(body.next_scheduled_for).toBe(queuedAt.toISOString());
    expect(body.next_wait).toBeNull(); // planned on no account
    expect(body.total).toBe(3);
    // On their way first, then the rest.
    expect(body.items.map((i: { state: string }) => i.state)).toEqual([
      'queued',
      expect.any(String),
      expect.any(String),
    ]);
    const failed = body.items.find((i: { state: string }) => i.state === 'failed');
    expect(failed).toMatchObject({
      recipient_username: people.refusing[1],
      outcome_code: 'not_whitelisted',
      account_username: 'demo_founder',
    });
    expect(failed.outcome_reason).toMatch(/does not accept messages/);

    const onePage = (await status(auth, `?project_id=${project.id}&limit=1&offset=1`)).json();
    expect(onePage).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(onePage.items).toHaveLength(1);
    const failedOnly = (await status(auth, `?project_id=${project.id}&state=failed`)).json();
    expect(failedOnly.items.map((i: { id: string }) => i.id)).toEqual([refused.id]);
  });

  it('says why the next queued DM waits: its account is outside working hours, or pacing', async () => {
    const weekday = new Date(rig.clock.t).getUTCDay() || 7;
    const { project, accounts, auth } = await workspace([
      { username: 'demo_founder', workingDays: [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== weekday) },
      { username: 'growth_marketer' },
    ]);
    const [offToday, open] = accounts;
    const hourAhead = new Date(rig.clock.t + 3_600_000);
    await buildDm(rig.db, project, {
      recipient: person(),
      state: 'queued',
      accountId: offToday!.id,
      scheduledFor: hourAhead,
    });
    await buildDm(rig.db, project, {
      recipient: person(),
      state: 'queued',
      accountId: open!.id,
      scheduledFor: new Date(hourAhead.getTime() + 60_000),
    });
    const statusNow = async () => (await status(auth, `?project_id=${project.id}`)).json();

    expect((await statusNow()).next_wait).toEqual({
      account_username: 'demo_founder',
      reason: 'Outside working hours.',
    });

    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(hourAhead.getTime() + 120_000) })
      .where(eq(dmMessages.accountId, offToday!.id));
    expect((await statusNow()).next_wait).toEqual({
      account_username: 'growth_marketer',
      reason: 'Waiting between messages.',
    });
    // It could send now, but its DM was planned for another day (a failure since freed today's room).
    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(rig.clock.t + 3 * 86_400_000) })
      .where(eq(dmMessages.accountId, offToday!.id));
    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(rig.clock.t + 2 * 86_400_000) })
      .where(eq(dmMessages.accountId, open!.id));
    expect((await statusNow()).next_wait).toEqual({
      account_username: 'growth_marketer',
      reason: "Planned for a later day: the account's day was full when it was queued.",
    });
    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(hourAhead.getTime() + 120_000) })
      .where(eq(dmMessages.accountId, offToday!.id));
    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(hourAhead.getTime() + 60_000) })
      .where(eq(dmMessages.accountId, open!.id));

    // The earliest queued DM has no account yet: no reason, and none borrowed from a later DM's account.
    const accountless = await buildDm(rig.db, project, {
      recipient: person(),
      state: 'queued',
      scheduledFor: new Date(hourAhead.getTime() - 60_000),
    });
    const withAccountless = await statusNow();
    expect(withAccountless.next_scheduled_for).toBe(new Date(hourAhead.getTime() - 60_000).toISOString());
    expect(withAccountless.next_wait).toBeNull();
    await rig.db.delete(dmMessages).where(eq(dmMessages.id, accountless.id));

    // Due now: it is not waiting for anything.
    await rig.db
      .update(dmMessages)
      .set({ scheduledFor: new Date(rig.clock.t) })
      .where(eq(dmMessages.accountId, open!.id));
    expect((await statusNow()).next_wait).toBeNull();

    // Due, but its account was signed out: it waits for the account, whatever time it was planned for.
    await rig.db.update(redditAccounts).set({ authStatus: 'expired' }).where(eq(redditAccounts.id, open!.id));
    rig.clock.t += 3_600_000;
    expect((await statusNow()).next_wait).toEqual({
      account_username: 'growth_marketer',
      reason: 'Auth Required: sign this account in to Reddit again.',
    });
  });

  it("without a project covers all of one's own projects and nobody else's", async () => {
    const mine = await workspace();
    const second = await buildSendingProject(rig, mine.project.owner);
    const theirs = await workspace();
    const a = await buildDm(rig.db, mine.project, { recipient: person(), state: 'queued' });
    const b = await buildDm(rig.db, second, { recipient: person(), state: 'queued' });
    await buildDm(rig.db, theirs.project, { recipient: person(), state: 'queued' });
    const body = (await status(mine.auth)).json();
    expect(body.items.map((i: { id: string }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(body.counts.queued).toBe(2);
    expect((await status(mine.auth, `?project_id=${theirs.project.id}`)).statusCode).toBe(404);
  });
});
