import { SENDING_TEXTS } from '@threadreach/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCapacity, redditAccounts, zonedParts, type RedditAccountRow } from '../accounts';
import { removeAccount } from '../accounts/accounts.service';
import { dmMessages, type DmMessageRow } from '../dms/dms.table';
import { buildLead } from '../leads/leads.test-support';
import { users } from '../users/users.table';
import { dayKey, seededRandom } from './pacing';
import { pullQueueForwardJob } from './pull-queue-forward.job';
import { sendDmJob, SendLaterError } from './send-dm.job';
import { rescheduleDm } from './scheduling';
import { addDoNotContact } from '../suppressions/suppressions.service';
import { cancelQueuedDms, queueProjectDms } from './sending.service';
import {
  buildDm as buildDmWritten,
  buildSendingProject,
  connectAccount,
  dmById,
  dmsOf,
  recipientPool,
  runQueuedSends,
  startSendingRig,
  type RecipientPool,
  type SendingRig,
} from './sending.test-support';

/**
 * Send All on the simulator, its clock standing still between sends: the project's DMs are queued, then
 * every due send-dm job runs at its scheduled instant, as the workers would, until none is left. What
 * the simulator received is measured: the gaps between one account's DMs, the local hours and days,
 * each account's count per day, and the split between accounts.
 */
const ZONE = 'America/New_York';
/** Friday 9 January 2026, 10:00 UTC: 05:00 in New York, before working hours. */
const FRIDAY = Date.UTC(2026, 0, 9, 10);
const HOUR = 3_600_000;
/** An account sending 09:00–17:00 on weekdays in New York, a minute or two apart. */
const WEEKDAYS_IN_NEW_YORK = {
  username: 'demo_founder',
  workingDays: [1, 2, 3, 4, 5],
  workingHoursStart: 9,
  workingHoursEnd: 17,
  timezone: ZONE,
  delayRangeMin: 60,
  delayRangeMax: 120,
};

let rig: SendingRig;
let people: RecipientPool;
let next = 0;
const person = () => people.accepting[next++]!;

beforeAll(async () => {
  rig = await startSendingRig(FRIDAY);
  people = await recipientPool();
}, 120_000);
afterAll(() => rig?.close());

/** A DM written a day before the rig's clock, as the clock moves from test to test: it has not expired. */
const buildDm = (...[db, project, spec]: Parameters<typeof buildDmWritten>) =>
  buildDmWritten(db, project, { createdAt: new Date(rig.clock.t - 24 * HOUR), ...spec });

const runQueued = (projectId: string, random: () => number, until?: number) =>
  runQueuedSends(rig.ctx, rig.clock, projectId, { random, ...(until !== undefined ? { until } : {}) });

interface Delivery {
  from: string;
  at: number;
}

function deliveriesFrom(accounts: RedditAccountRow[], since: number): Delivery[] {
  const names = new Set(accounts.map((a) => a.redditUsername));
  return rig.sim.inspect
    .messages()
    .filter((m) => names.has(m.from) && m.createdMs >= since)
    .map((m) => ({ from: m.from, at: m.createdMs }))
    .sort((a, b) => a.at - b.at);
}

describe('Send All, paced on the simulator', () => {
  it('keeps delays, working hours and days in New York, daily caps and the warm-up, split by room left', async () => {
    const project = await buildSendingProject(rig);
    const hours = { workingDays: [1, 2, 3, 4, 5], workingHoursStart: 9, workingHoursEnd: 17, timezone: ZONE };
    const a = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...hours,
      username: 'demo_founder',
      delayRangeMin: 600,
      delayRangeMax: 1800,
    });
    const b = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...hours,
      username: 'growth_marketer',
      delayRangeMin: 600,
      delayRangeMax: 1800,
    });
    // Ten days old: its warm-up cap is 3 today, not its limit of 10.
    const c = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...hours,
      username: 'fresh_account',
      ageDays: 10,
      delayRangeMin: 1800,
      delayRangeMax: 3600,
    });
    // A already sent 4 today (Friday, New York): 6 left.
    for (let i = 0; i < 4; i++) {
      const dm = await buildDm(rig.db, project, { recipient: person(), state: 'sent' });
      await rig.db
        .update(dmMessages)
        .set({
          accountId: a.id,
          claimedAt: new Date(FRIDAY - HOUR),
          senderKey: a.redditUsername.toLowerCase(),
          sentAt: new Date(FRIDAY - HOUR),
        })
        .where(eq(dmMessages.id, dm.id));
    }
    const queuedDms = [];
    for (let i = 0; i < 45; i++) queuedDms.push(await buildDm(rig.db, project, { recipient: person() }));

    const random = seededRandom(2026);
    const answer = await queueProjectDms(rig.ctx, project.id, { random });
    expect(answer.queued).toBe(45);
    expect(answer.first_at).toBe('2026-01-09T14:00:00.000Z');
    expect(answer.message).toMatch(
      /^Queued 45 DMs over 3 accounts: the first goes at 2026-01-09 09:00 America\/New_York, the last at 2026-01-13 \d\d:\d\d America\/New_York\.$/,
    );
    expect(rig.jobs.filter((j) => j.name === 'send-dm')).toHaveLength(45);
    const firstJob = rig.jobs.find((j) => j.name === 'send-dm')!;
    expect(firstJob.options.singletonKey).toBe((firstJob.data as { dmId: string }).dmId);

    const runs = await runQueued(project.id, random);
    const rows = await dmsOf(rig.db, project.id);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(49);
    expect(rows.filter((r) => r.state !== 'sent')).toEqual([]);
    // Every run sent: no schedule had to be corrected at send time.
    expect(runs).toBe(45);

    const deliveries = deliveriesFrom([a, b, c], FRIDAY);
    expect(deliveries).toHaveLength(45);
    const perDay: Record<string, Record<string, number>> = {};
    const gaps: Record<string, number[]> = {};
    const last: Record<string, number> = {};
    for (const d of deliveries) {
      const local = zonedParts(d.at, ZONE);
      expect(local.weekday).toBeLessThanOrEqual(5);
      expect(local.hour).toBeGreaterThanOrEqual(9);
      expect(local.hour).toBeLessThan(17);
      const day = `${local.month}-${local.day}`;
      (perDay[day] ??= {})[d.from] = (perDay[day]![d.from] ?? 0) + 1;
      const prev = last[d.from];
      if (prev !== undefined && dayKey(prev, ZONE) === dayKey(d.at, ZONE))
        (gaps[d.from] ??= []).push((d.at - prev) / 1000);
      last[d.from] = d.at;
    }
    // Friday: what each had left (6, 10, 3); Monday: full caps, C warmed up to 13 days; Tuesday: the rest.
    const cMonday = dailyCapacity(c, Date.UTC(2026, 0, 12, 15));
    expect(cMonday).toBe(4);
    expect(perDay).toEqual({
      '1-9': { demo_founder: 6, growth_marketer: 10, fresh_account: 3 },
      '1-12': { demo_founder: 10, growth_marketer: 10, fresh_account: cMonday },
      '1-13': { demo_founder: 1, growth_marketer: 1 },
    });
    for (const [from, list] of Object.entries(gaps)) {
      const [min, max] = from === 'fresh_account' ? [1800, 3600] : [600, 1800];
      expect(Math.min(...list)).toBeGreaterThanOrEqual(min);
      expect(Math.max(...list)).toBeLessThanOrEqual(max);
    }
    const summary = Object.entries(gaps).map(
      ([from, list]) => `${from}: ${list.length} gaps ${Math.min(...list)}-${Math.max(...list)} s`,
    );
    console.info(`pacing measured: ${JSON.stringify(perDay)}; ${summary.join('; ')}`);
  });

  it('re-checks at send time: a cap lowered after queueing moves the rest to the next working day', async () => {
    rig.clock.t = Date.UTC(2026, 0, 20, 13); // Tuesday 08:00 in New York
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      dailyMessageLimit: 5,
    });
    for (let i = 0; i < 5; i++) await buildDm(rig.db, project, { recipient: person() });
    const random = seededRandom(9);
    expect((await queueProjectDms(rig.ctx, project.id, { random })).queued).toBe(5);
    const planned = await dmsOf(rig.db, project.id);
    expect(new Set(planned.map((d) => dayKey(d.scheduledFor!.getTime(), ZONE))).size).toBe(1);
    await rig.db
      .update(redditAccounts)
      .set({ dailyMessageLimit: 2 })
      .where(eq(redditAccounts.id, account.id));
    await runQueued(project.id, random, Date.UTC(2026, 0, 20, 23));
    const after = await dmsOf(rig.db, project.id);
    expect(after.filter((d) => d.state === 'sent')).toHaveLength(2);
    const moved = after.filter((d) => d.state === 'queued');
    expect(moved).toHaveLength(3);
    // Each goes at the account's first free slot: two fit Wednesday, the third Thursday.
    expect(moved.map((d) => zonedParts(d.scheduledFor!.getTime(), ZONE).day).sort()).toEqual([21, 21, 22]);
    await runQueued(project.id, random);
    const done = await dmsOf(rig.db, project.id);
    const days = done.map((d) => zonedParts(d.sentAt!.getTime(), ZONE).day);
    expect(days.sort()).toEqual([20, 20, 21, 21, 22]);
  });

  it('queues no DM to go after it expires: those leave their slot to the next, stay approved, and the answer says so', async () => {
    rig.clock.t = Date.UTC(2026, 0, 20, 13); // Tuesday 08:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      dailyMessageLimit: 2,
    });
    const about = async (leadDaysAgo: number, written = new Date(rig.clock.t - 24 * HOUR)) => {
      const lead = await buildLead(rig.db, project.id, {
        itemCreatedAt: new Date(rig.clock.t - leadDaysAgo * 24 * HOUR),
      });
      const dm = await buildDm(rig.db, project, { recipient: person(), createdAt: written });
      await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
      return dm.id;
    };
    // Send All takes the oldest written first. DM_EXPIRY_DAYS is 14: the last, written just now about a
    // lead 13.5 days old, expires tonight, after today's room (two sends) is taken.
    const fresh = [await about(1), await about(2), await about(3)];
    const lateToday = await about(13.5, new Date(rig.clock.t));
    const answer = await queueProjectDms(rig.ctx, project.id, { random: seededRandom(20) });
    expect(answer.queued).toBe(3);
    expect(answer.message).toMatch(
      /^Queued 3 DMs over 1 account: the first goes at 2026-01-20 09:00 America\/New_York, the last at 2026-01-21 \d\d:\d\d America\/New_York\. 1 DM found no room before it expires, 14 days after its lead, and stays unsent\.$/,
    );
    const rows = new Map((await dmsOf(rig.db, project.id)).map((d) => [d.id, d]));
    expect(rows.get(lateToday)).toMatchObject({ state: 'approved', scheduledFor: null });
    const day = (id: string) => zonedParts(rows.get(id)!.scheduledFor!.getTime(), ZONE).day;
    expect(fresh.map(day).sort()).toEqual([20, 20, 21]);
  });

  it('says a DM about a lead already older than DM_EXPIRY_DAYS is too old, not that it found no room', async () => {
    rig.clock.t = Date.UTC(2026, 0, 20, 13); // Tuesday 08:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    const about = async (leadDaysAgo: number) => {
      const lead = await buildLead(rig.db, project.id, {
        itemCreatedAt: new Date(rig.clock.t - leadDaysAgo * 24 * HOUR),
      });
      const dm = await buildDm(rig.db, project, { recipient: person() });
      await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
      return dm.id;
    };
    // The discovery backfill finds posts weeks old: a DM written about one has expired before Send All.
    const fresh = await about(1);
    const old = [await about(40), await about(20)];
    // The DM list counts beforehand what Send All then queues.
    const list = await rig.t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(list.json()).toMatchObject({ total: 3, ready_to_send: 1 });
    const answer = await queueProjectDms(rig.ctx, project.id, { random: seededRandom(21) });
    expect(answer.queued).toBe(1);
    expect(answer.message).toBe(
      'Queued 1 DM on 1 account: it goes at 2026-01-20 09:00 America/New_York. 2 DMs are about posts or comments ' +
        'older than 14 days: they expire unsent.',
    );
    const rows = new Map((await dmsOf(rig.db, project.id)).map((d) => [d.id, d]));
    expect(rows.get(fresh)).toMatchObject({ state: 'queued' });
    for (const id of old) expect(rows.get(id)).toMatchObject({ state: 'approved', scheduledFor: null });
  });

  it('queues a later DM to a person whose first DM is about a lead too old, and says nothing is held', async () => {
    rig.clock.t = Date.UTC(2026, 0, 21, 13); // Wednesday 08:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    const someone = person();
    const about = async (leadDaysAgo: number) => {
      const lead = await buildLead(rig.db, project.id, {
        itemCreatedAt: new Date(rig.clock.t - leadDaysAgo * 24 * HOUR),
      });
      const dm = await buildDm(rig.db, project, { recipient: someone });
      await rig.db.update(dmMessages).set({ leadId: lead.id }).where(eq(dmMessages.id, dm.id));
      return dm.id;
    };
    const old = await about(30);
    const recent = await about(2);
    const list = await rig.t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(list.json()).toMatchObject({ total: 2, ready_to_send: 1 });
    const answer = await queueProjectDms(rig.ctx, project.id, { random: seededRandom(22) });
    expect(answer.queued).toBe(1);
    expect(answer.message).toBe(
      'Queued 1 DM on 1 account: it goes at 2026-01-21 09:00 America/New_York. 1 DM is about a post or comment ' +
        'older than 14 days: it expires unsent.',
    );
    const rows = new Map((await dmsOf(rig.db, project.id)).map((d) => [d.id, d]));
    expect(rows.get(recent)).toMatchObject({ state: 'queued' });
    expect(rows.get(old)).toMatchObject({ state: 'approved', scheduledFor: null });
  });

  it("spaces sends by the stricter of the account's delays and the sender's floor (the agent's)", async () => {
    rig.clock.t = Date.UTC(2026, 0, 27, 15); // Tuesday 10:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 4; i++) await buildDm(rig.db, project, { recipient: person() });
    const answer = await queueProjectDms(rig.ctx, project.id, {
      random: seededRandom(27),
      senderLimits: { min: 600, max: 900, dailyCap: null },
    });
    expect(answer.queued).toBe(4);
    const times = (await dmsOf(rig.db, project.id))
      .map((d) => d.scheduledFor!.getTime())
      .sort((x, y) => x - y);
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i]! - times[i - 1]!) / 1000;
      expect(gap).toBeGreaterThanOrEqual(600);
      expect(gap).toBeLessThanOrEqual(900);
    }
  });

  it('keeps the floor when a DM queued with one is planned again', async () => {
    rig.clock.t = Date.UTC(2026, 0, 28, 15); // Wednesday 10:00 in New York
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 3; i++) await buildDm(rig.db, project, { recipient: person() });
    await queueProjectDms(rig.ctx, project.id, {
      random: seededRandom(28),
      senderLimits: { min: 600, max: 900, dailyCap: null },
    });
    const [first] = (await dmsOf(rig.db, project.id)).sort(
      (x, y) => x.scheduledFor!.getTime() - y.scheduledFor!.getTime(),
    );
    // Planned again, it keeps the floor from the others, wherever it goes.
    const again = await rescheduleDm(
      rig.ctx,
      { projectId: project.id, dmId: first!.id },
      { accountId: account.id, random: seededRandom(29) },
    );
    expect(again.kind).toBe('scheduled');
    const times = (await dmsOf(rig.db, project.id))
      .map((d) => d.scheduledFor!.getTime())
      .sort((x, y) => x - y);
    expect(times).toContain(again.kind === 'scheduled' ? again.at : null);
    for (let i = 1; i < times.length; i++) {
      expect((times[i]! - times[i - 1]!) / 1000).toBeGreaterThanOrEqual(600);
    }
    // Sent by hand, without a floor, the account's own delays apply again.
    await rig.db
      .update(dmMessages)
      .set({ state: 'approved', accountId: null, scheduledFor: null })
      .where(eq(dmMessages.projectId, project.id));
    await queueProjectDms(rig.ctx, project.id, { random: seededRandom(30) });
    expect((await dmsOf(rig.db, project.id)).map((d) => [d.delayFloorMin, d.delayFloorMax])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
  });

  it("keeps the sender's daily DMs per account (the agent's) although the account may send more", async () => {
    rig.clock.t = Date.UTC(2026, 0, 28, 15); // Wednesday 10:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 5; i++) await buildDm(rig.db, project, { recipient: person() });
    const limits = { min: 600, max: 900, dailyCap: 2 };
    const answer = await queueProjectDms(rig.ctx, project.id, {
      random: seededRandom(31),
      senderLimits: limits,
    });
    expect(answer.queued).toBe(5);
    const days = async () =>
      (await dmsOf(rig.db, project.id)).map((d) => zonedParts(d.scheduledFor!.getTime(), ZONE).day).sort();
    // Two a day although the account itself may send 10: Wednesday, Thursday, Friday.
    expect(await days()).toEqual([28, 28, 29, 29, 30]);
    expect((await dmsOf(rig.db, project.id)).every((d) => d.dailyCap === 2)).toBe(true);
  });

  it("keeps the sender's daily DMs per account when a DM queued with them is planned again", async () => {
    rig.clock.t = Date.UTC(2026, 0, 28, 15); // Wednesday 10:00 in New York
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 2; i++) await buildDm(rig.db, project, { recipient: person() });
    const limits = { min: 600, max: 900, dailyCap: 1 };
    await queueProjectDms(rig.ctx, project.id, { random: seededRandom(33), senderLimits: limits });
    const dayOf = (d: DmMessageRow) => zonedParts(d.scheduledFor!.getTime(), ZONE).day;
    const [wednesday, thursday] = (await dmsOf(rig.db, project.id)).sort((x, y) => dayOf(x) - dayOf(y));
    expect([dayOf(wednesday!), dayOf(thursday!)]).toEqual([28, 29]);
    // Wednesday's one went out meanwhile through Send (a claim of the account today): planned again, the
    // DM goes on Friday, as Wednesday and Thursday have their one (the account alone would take it today).
    const sentToday = await buildDm(rig.db, project, { recipient: person() });
    await rig.db
      .update(dmMessages)
      .set({
        state: 'sent',
        accountId: account.id,
        claimedAt: new Date(rig.clock.t),
        sentAt: new Date(rig.clock.t),
        senderKey: account.redditUsername.toLowerCase(),
      })
      .where(eq(dmMessages.id, sentToday.id));
    const again = await rescheduleDm(
      rig.ctx,
      { projectId: project.id, dmId: wednesday!.id },
      { accountId: account.id, random: seededRandom(34) },
    );
    expect(again.kind === 'scheduled' && zonedParts(again.at, ZONE).day).toBe(30);
  });

  it('hands the agent only DMs it may send (intent at its minimum, or edited), the best first, up to its room', async () => {
    rig.clock.t = Date.UTC(2026, 0, 28, 15); // Wednesday 10:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    const about = async (intent: number, edited = false) => {
      const lead = await buildLead(rig.db, project.id, { intentScore: intent });
      const dm = await buildDm(rig.db, project, { recipient: person() });
      await rig.db
        .update(dmMessages)
        .set({ leadId: lead.id, editedAt: edited ? new Date(rig.clock.t) : null })
        .where(eq(dmMessages.id, dm.id));
      return dm.id;
    };
    const low = await about(10);
    const fair = await about(55);
    const high = await about(80);
    const good = await about(60);
    const lowButEdited = await about(5, true);
    const answer = await queueProjectDms(rig.ctx, project.id, {
      random: seededRandom(35),
      pick: { minIntentScore: 50, max: 3 },
    });
    expect(answer.queued).toBe(3);
    const stateOf = async (id: string) => (await dmById(rig.db, id)).state;
    expect(await Promise.all([lowButEdited, high, good].map(stateOf))).toEqual([
      'queued',
      'queued',
      'queued',
    ]);
    // Room for 3: the fourth that qualifies waits for a later run; one below the minimum is never picked.
    expect(await stateOf(fair)).toBe('approved');
    expect(await stateOf(low)).toBe('approved');
    const again = await queueProjectDms(rig.ctx, project.id, {
      random: seededRandom(36),
      pick: { minIntentScore: 50, max: 3 },
    });
    expect(again.queued).toBe(1);
    expect(await stateOf(low)).toBe('approved');
    // Send All, the customer's own, sends it.
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(37) })).queued).toBe(1);
  });

  it('answers with the spec texts when nothing can be queued', async () => {
    const project = await buildSendingProject(rig);
    const none = rig.t.app.inject({
      method: 'POST',
      url: '/api/v1/send-dm-messages-bulk',
      headers: project.owner.auth,
      payload: { project_id: project.id },
    });
    expect((await none).json()).toEqual({ code: 'no_accounts', detail: SENDING_TEXTS.noAccountsBulk });
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, { ageDays: 3 });
    const call = () =>
      rig.t.app.inject({
        method: 'POST',
        url: '/api/v1/send-dm-messages-bulk',
        headers: project.owner.auth,
        payload: { project_id: project.id },
      });
    expect((await call()).json()).toEqual({
      code: 'no_unsent_messages',
      detail: SENDING_TEXTS.noUnsentMessages,
    });
    await buildDm(rig.db, project, { recipient: person() });
    const young = await call();
    expect(young.statusCode).toBe(422);
    expect(young.json()).toEqual({ code: 'account_too_young', detail: SENDING_TEXTS.accountTooYoung });
  });

  it('does not queue people the workspace may not contact, and says so', async () => {
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project);
    const twice = person();
    const contacted = person();
    await buildDm(rig.db, project, { recipient: contacted, state: 'sent' });
    const ok = await buildDm(rig.db, project, { recipient: twice });
    const dup = await buildDm(rig.db, project, { recipient: twice.toLowerCase() });
    const again = await buildDm(rig.db, project, { recipient: contacted });
    const res = await rig.t.app.inject({
      method: 'POST',
      url: '/api/v1/send-dm-messages-bulk',
      headers: project.owner.auth,
      payload: { project_id: project.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ queued: 1, skipped: 1 });
    expect(res.json().message).toMatch(/1 DM not queued: the recipient may not be contacted/);
    expect(res.json().message).toMatch(
      /1 DM stays unsent: another DM to the same person is already queued in this workspace\./,
    );
    // Of two DMs to one person, one is queued (whichever comes first), the other stays unsent: the
    // queued one may yet be taken back.
    const pair = [await dmById(rig.db, ok.id), await dmById(rig.db, dup.id)];
    expect(pair.map((d) => d.state).sort()).toEqual(['approved', 'queued']);
    expect(await dmById(rig.db, again.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'already_contacted',
    });
  });

  it('plans new sends into the room of days before a send queued later, not after it', async () => {
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      workingDays: [1, 2, 3, 4, 5, 6, 7],
      workingHoursStart: 0,
      workingHoursEnd: 0,
    });
    // One DM already queued on this account four days from now.
    const ahead = await buildDm(rig.db, project, { recipient: person() });
    const aheadAt = new Date(rig.clock.t + 4 * 24 * HOUR);
    await rig.db
      .update(dmMessages)
      .set({ state: 'queued', accountId: account.id, scheduledFor: aheadAt })
      .where(eq(dmMessages.id, ahead.id));
    for (let i = 0; i < 3; i++) await buildDm(rig.db, project, { recipient: person() });
    const plan = await queueProjectDms(rig.ctx, project.id, { random: seededRandom(4) });
    expect(plan.queued).toBe(3);
    // Today has room: they go now, a minute or two apart, not after the send four days ahead.
    expect(Date.parse(plan.last_at!)).toBeLessThan(rig.clock.t + HOUR);
  });

  it('takes the queued DMs of a removed account back to the unsent ones, for Send All to queue again', async () => {
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project);
    const dms = [await buildDm(rig.db, project, { recipient: person() })];
    dms.push(await buildDm(rig.db, project, { recipient: person() }));
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(1) })).queued).toBe(2);
    await removeAccount(rig.ctx, project.id, account.id);
    for (const dm of dms) {
      expect(await dmById(rig.db, dm.id)).toMatchObject({
        state: 'approved',
        accountId: null,
        scheduledFor: null,
        outcomeCode: 'account_removed',
        outcomeReason: 'Not sent: u/demo_founder was removed before it went. Send All queues it again.',
      });
    }
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, { username: 'growth_marketer' });
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(2) })).queued).toBe(2);
  });

  it('keeps a DM unsent while another project has its person queued, and queues it once that is taken back', async () => {
    const alpha = await buildSendingProject(rig);
    const beta = await buildSendingProject(rig, alpha.owner);
    await connectAccount(rig.ctx, rig.sim, rig.credential, alpha);
    await connectAccount(rig.ctx, rig.sim, rig.credential, beta, { username: 'growth_marketer' });
    const to = person();
    await buildDm(rig.db, alpha, { recipient: to });
    const waiting = await buildDm(rig.db, beta, { recipient: to });
    expect((await queueProjectDms(rig.ctx, alpha.id, { random: seededRandom(1) })).queued).toBe(1);
    const held = await queueProjectDms(rig.ctx, beta.id, { random: seededRandom(2) });
    expect(held).toMatchObject({ queued: 0, skipped: 0 });
    expect(await dmById(rig.db, waiting.id)).toMatchObject({ state: 'approved', outcomeCode: null });
    await cancelQueuedDms(rig.ctx, alpha.id);
    expect((await queueProjectDms(rig.ctx, beta.id, { random: seededRandom(3) })).queued).toBe(1);
  });

  it('does not send a queued DM to someone put on the do-not-contact list after it was queued', async () => {
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    const to = person();
    const dm = await buildDm(rig.db, project, { recipient: to });
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(1) })).queued).toBe(1);
    // Spelled otherwise than the DM has it: Reddit's names ignore case.
    await addDoNotContact(rig.ctx, project.userId, { usernames: [to.toUpperCase()] });
    await runQueued(project.id, seededRandom(2));
    expect(await dmById(rig.db, dm.id)).toMatchObject({ state: 'failed', outcomeCode: 'suppressed' });
    expect(rig.sim.inspect.messages({ to })).toHaveLength(0);
  });

  it("takes queued DMs back once the project owner's subscription has ended, and sends them after Send All again", async () => {
    rig.clock.t = Date.UTC(2026, 1, 3, 14); // Tuesday 09:00 in New York
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 3; i++) await buildDm(rig.db, project, { recipient: person() });
    const random = seededRandom(4);
    expect((await queueProjectDms(rig.ctx, project.id, { random })).queued).toBe(3);
    const plan = (profilesLimit: number) =>
      rig.db.update(users).set({ profilesLimit }).where(eq(users.id, project.userId));

    const since = rig.clock.t;
    const [first] = (await dmsOf(rig.db, project.id)).sort(
      (a, b) => a.scheduledFor!.getTime() - b.scheduledFor!.getTime(),
    );
    await runQueued(project.id, random, first!.scheduledFor!.getTime());
    expect(deliveriesFrom([account], since)).toHaveLength(1);

    await plan(0);
    await runQueued(project.id, random);
    expect(deliveriesFrom([account], since)).toHaveLength(1);
    const taken = (await dmsOf(rig.db, project.id)).filter((d) => d.state !== 'sent');
    expect(taken).toHaveLength(2);
    for (const dm of taken) {
      expect(dm).toMatchObject({
        state: 'approved',
        accountId: null,
        scheduledFor: null,
        outcomeCode: 'subscription_required',
        outcomeReason:
          "Not sent: the project owner's subscription ended before it went. Send All queues it again.",
      });
    }

    await plan(1);
    expect((await queueProjectDms(rig.ctx, project.id, { random })).queued).toBe(2);
    await runQueued(project.id, random);
    expect((await dmsOf(rig.db, project.id)).every((d) => d.state === 'sent')).toBe(true);
    expect(deliveriesFrom([account], since)).toHaveLength(3);
  });

  it("Stop sending takes back the customer's queued DMs, not the agent's, and Send All queues them again", async () => {
    rig.clock.t = Date.UTC(2026, 1, 10, 14); // Tuesday 09:00 in New York
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project, WEEKDAYS_IN_NEW_YORK);
    for (let i = 0; i < 3; i++) await buildDm(rig.db, project, { recipient: person() });
    const random = seededRandom(5);
    expect((await queueProjectDms(rig.ctx, project.id, { random })).queued).toBe(3);
    // One more, queued by the agent (with its daily cap): Stop Agent's to take back, not this.
    const byAgent = await buildDm(rig.db, project, { recipient: person() });
    await rig.db
      .update(dmMessages)
      .set({ state: 'queued', scheduledFor: new Date(rig.clock.t + HOUR), dailyCap: 5 })
      .where(eq(dmMessages.id, byAgent.id));
    const status = await rig.t.app.inject({
      url: `/api/v1/dm-sending-status?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    // The status tells them apart, so Stop sending can name only the customer's.
    expect(status.json().counts).toMatchObject({ queued: 4, queued_by_agent: 1 });
    const stop = () =>
      rig.t.app.inject({
        method: 'POST',
        url: '/api/v1/cancel-queued-dm-messages',
        headers: project.owner.auth,
        payload: { project_id: project.id },
      });

    const stopped = await stop();
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toEqual({
      cancelled: 3,
      message: 'Sending stopped: 3 queued DMs went back to the unsent DMs. Send All queues them again.',
    });
    const dms = await dmsOf(rig.db, project.id);
    const taken = dms.filter((d) => d.id !== byAgent.id);
    for (const dm of taken) {
      expect(dm).toMatchObject({
        state: 'approved',
        accountId: null,
        scheduledFor: null,
        outcomeReason: 'Sending was stopped before this DM went',
      });
    }
    expect(dms.find((d) => d.id === byAgent.id)!.state).toBe('queued');
    expect((await stop()).json()).toEqual({ cancelled: 0, message: 'No DM you queued was waiting to go.' });

    // Nothing goes while nothing is queued; the agent's DM is handed back to the customer too.
    const since = rig.clock.t;
    await rig.db
      .update(dmMessages)
      .set({ state: 'approved', dailyCap: null })
      .where(eq(dmMessages.id, byAgent.id));
    await runQueued(project.id, random, rig.clock.t + 2 * HOUR);
    expect(deliveriesFrom([account], since)).toHaveLength(0);
    expect((await queueProjectDms(rig.ctx, project.id, { random })).queued).toBe(4);
    await runQueued(project.id, random);
    expect((await dmsOf(rig.db, project.id)).every((d) => d.state === 'sent')).toBe(true);
    expect(deliveriesFrom([account], since)).toHaveLength(4);

    const stranger = await buildSendingProject(rig);
    const refused = await rig.t.app.inject({
      method: 'POST',
      url: '/api/v1/cancel-queued-dm-messages',
      headers: stranger.owner.auth,
      payload: { project_id: project.id },
    });
    expect(refused.statusCode).toBe(404);
  });

  it('sends nothing once the project is deleted: its queued jobs find no DM and end', async () => {
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project);
    const to = person();
    const dm = await buildDm(rig.db, project, {
      recipient: to,
      state: 'queued',
      accountId: account.id,
      scheduledFor: new Date(rig.clock.t),
    });
    const gone = await rig.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(gone.statusCode).toBe(204);
    await expect(sendDmJob.handler(rig.ctx, { projectId: project.id, dmId: dm.id })).resolves.toBeUndefined();
    expect(rig.sim.inspect.messages({ to })).toHaveLength(0);
  });

  it('the job reschedules itself for when its DM is due, and is done once the DM is settled', async () => {
    const project = await buildSendingProject(rig);
    const account = await connectAccount(rig.ctx, rig.sim, rig.credential, project);
    const later = rig.clock.t + HOUR;
    const dm = await buildDm(rig.db, project, {
      recipient: person(),
      state: 'queued',
      accountId: account.id,
      scheduledFor: new Date(later),
    });
    const run = () => sendDmJob.handler(rig.ctx, { projectId: project.id, dmId: dm.id });
    await expect(run()).rejects.toEqual(expect.any(SendLaterError));
    await expect(run()).rejects.toMatchObject({ retryAtMs: later });
    rig.clock.t = later;
    await run();
    expect((await dmById(rig.db, dm.id)).state).toBe('sent');
    await run();
    const sent = await rig.db
      .select()
      .from(dmMessages)
      .where(inArray(dmMessages.id, [dm.id]));
    expect(sent[0]!.attempts).toBe(1);
  });

  it('moves DMs queued for later days to an account connected since, on the first day it has room', async () => {
    // Later than every test before: the simulator's messages of demo_founder are counted from a time on.
    rig.clock.t = Date.UTC(2026, 2, 3, 13); // Tuesday 08:00 in New York
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      dailyMessageLimit: 2,
    });
    for (let i = 0; i < 6; i++) await buildDm(rig.db, project, { recipient: person() });
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(5) })).queued).toBe(6);
    const day = (d: DmMessageRow) => zonedParts(d.scheduledFor!.getTime(), ZONE).day;
    const before = await dmsOf(rig.db, project.id);
    expect(before.map(day).sort()).toEqual([3, 3, 4, 4, 5, 5]);

    const second = await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      username: 'growth_marketer',
      dailyMessageLimit: 3,
    });
    // Saving an account's settings asks for the queue to be looked at again, as connecting one does.
    const saved = await rig.t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-accounts/${second.id}/settings`,
      headers: project.owner.auth,
      payload: { delay_range_max: 150 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(rig.jobs.at(-1)).toMatchObject({ name: 'pull-queue-forward', data: { projectId: project.id } });

    const jobsBefore = rig.jobs.length;
    await pullQueueForwardJob.handler(rig.ctx, { projectId: project.id });
    const after = await dmsOf(rig.db, project.id);
    // Three go today from growth_marketer; Thursday's last has room on Wednesday, where the first two were.
    expect(after.map(day).sort()).toEqual([3, 3, 3, 3, 3, 4]);
    expect(after.filter((d) => d.accountId === second.id && day(d) === 3)).toHaveLength(3);
    after.forEach((d, i) =>
      expect(d.scheduledFor!.getTime()).toBeLessThanOrEqual(before[i]!.scheduledFor!.getTime()),
    );
    const moved = after.filter((d, i) => d.scheduledFor!.getTime() !== before[i]!.scheduledFor!.getTime());
    expect(moved).toHaveLength(4);
    // Each moved DM's send job is moved up with it.
    expect(rig.jobs.slice(jobsBefore).map((j) => [j.name, (j.data as { dmId: string }).dmId])).toEqual(
      moved
        .sort((a, b) => a.scheduledFor!.getTime() - b.scheduledFor!.getTime())
        .map((d) => ['send-dm', d.id]),
    );
    // Nothing more to move: a second look changes nothing.
    await pullQueueForwardJob.handler(rig.ctx, { projectId: project.id });
    expect((await dmsOf(rig.db, project.id)).map((d) => d.scheduledFor)).toEqual(
      after.map((d) => d.scheduledFor),
    );

    await runQueued(project.id, seededRandom(6));
    const sent = await dmsOf(rig.db, project.id);
    expect(sent.map((d) => [d.state, zonedParts(d.sentAt!.getTime(), ZONE).day]).sort()).toEqual([
      ['sent', 3],
      ['sent', 3],
      ['sent', 3],
      ['sent', 3],
      ['sent', 3],
      ['sent', 4],
    ]);
  });

  it("gives a failed send's place today to a DM queued for a later day", async () => {
    rig.clock.t = Date.UTC(2026, 2, 10, 12); // Tuesday 08:00 in New York (summer time)
    const project = await buildSendingProject(rig);
    await connectAccount(rig.ctx, rig.sim, rig.credential, project, {
      ...WEEKDAYS_IN_NEW_YORK,
      dailyMessageLimit: 2,
    });
    // Written a minute apart: Send All queues them in that order.
    const written = (minutes: number) => new Date(rig.clock.t - 24 * HOUR + minutes * 60_000);
    const refused = await buildDm(rig.db, project, { recipient: people.refusing[0]!, createdAt: written(0) });
    await buildDm(rig.db, project, { recipient: person(), createdAt: written(1) });
    const tomorrow = await buildDm(rig.db, project, { recipient: person(), createdAt: written(2) });
    expect((await queueProjectDms(rig.ctx, project.id, { random: seededRandom(7) })).queued).toBe(3);
    expect(zonedParts((await dmById(rig.db, tomorrow.id)).scheduledFor!.getTime(), ZONE).day).toBe(11);

    rig.clock.t = (await dmById(rig.db, refused.id)).scheduledFor!.getTime();
    await sendDmJob.handler(rig.ctx, { projectId: project.id, dmId: refused.id });
    expect(await dmById(rig.db, refused.id)).toMatchObject({ state: 'failed' });
    expect(rig.jobs.at(-1)).toMatchObject({ name: 'pull-queue-forward', data: { projectId: project.id } });
    await pullQueueForwardJob.handler(rig.ctx, { projectId: project.id });
    expect(zonedParts((await dmById(rig.db, tomorrow.id)).scheduledFor!.getTime(), ZONE).day).toBe(10);

    await runQueued(project.id, seededRandom(8));
    const sent = (await dmsOf(rig.db, project.id)).filter((d) => d.state === 'sent');
    expect(sent.map((d) => zonedParts(d.sentAt!.getTime(), ZONE).day)).toEqual([10, 10]);
  });
});
