import type { TSendOutcomeCode } from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { dailyCapacity, type RedditAccountRow, usedToday } from '../accounts';
import { agentMaySend, intentOfDms, leadTimesOfDms } from '../dms';
import { unqueuedChanges, type DmMessageRow } from '../dms/dms.table';
import { alreadyAnswered, onTheList, suppressedAmong } from '../suppressions';
import { accountReadiness, explainNoAccount, type NotReady } from './account-readiness';
import {
  lastClaimAt,
  lockApprovedDms,
  lockDm,
  lockQueuedDms,
  projectAccounts,
  queuedTimes,
  updateDm,
  workspaceDmsTo,
} from './claim.repository';
import { dayKey, nextWorkingWindow, planSends, type PacingAccount, type PlannedSend } from './pacing';

/**
 * Whether paced sends may be planned on the account: everything a send needs except today's room
 * (a full day or a wait from Reddit only moves its sends later) and at least one working day.
 */
export function planningProblem(account: RedditAccountRow, nowMs: number): NotReady | null {
  const readiness = accountReadiness(account, 0, nowMs, { ignoreToday: true });
  if (!readiness.ready) return readiness;
  if (!nextWorkingWindow(account, nowMs)) {
    return {
      code: 'outside_working_hours',
      reason: `u/${account.redditUsername} has no working days set`,
      retryAtMs: null,
    };
  }
  return null;
}

/**
 * An account as pacing sees it: its settings, its warm-up cap by day, what it already claimed today
 * and has queued by day, its last send, its queued sends, and any wait Reddit asked for. `exceptDmId`
 * is a DM being planned again, left out of what is booked.
 */
export async function pacingAccount(
  db: DbOrTx,
  account: RedditAccountRow,
  nowMs: number,
  exceptDmId: string | null = null,
): Promise<PacingAccount> {
  const booked = new Map<number, number>();
  const today = dayKey(nowMs, account.timezone);
  booked.set(today, await usedToday(db, account, nowMs));
  const queued = (await queuedTimes(db, account, exceptDmId)).map((d) => d.getTime());
  for (const at of queued) {
    // An overdue send still counts for today, when it will go.
    const key = Math.max(dayKey(at, account.timezone), today);
    booked.set(key, (booked.get(key) ?? 0) + 1);
  }
  const last = (await lastClaimAt(db, account))?.getTime() ?? null;
  return {
    id: account.id,
    timezone: account.timezone,
    workingDays: account.workingDays,
    workingHoursStart: account.workingHoursStart,
    workingHoursEnd: account.workingHoursEnd,
    delayRangeMin: account.delayRangeMin,
    delayRangeMax: account.delayRangeMax,
    capacityAt: (atMs) => dailyCapacity(account, atMs),
    booked,
    lastAt: last,
    queuedAt: queued.sort((a, b) => a - b),
    notBefore: account.nextSendAt?.getTime() ?? null,
  };
}

/** Books (+1) or frees (-1) a queued send at `at` in what pacing knows of the account. */
function rebook(account: PacingAccount, at: number, nowMs: number, change: 1 | -1): void {
  const key = Math.max(dayKey(at, account.timezone), dayKey(nowMs, account.timezone));
  account.booked.set(key, Math.max(0, (account.booked.get(key) ?? 0) + change));
  if (change === 1) {
    account.queuedAt = [...account.queuedAt, at].sort((a, b) => a - b);
  } else {
    const i = account.queuedAt.indexOf(at);
    if (i >= 0) account.queuedAt = account.queuedAt.filter((_, j) => j !== i);
  }
}

/** A queued DM moved to an earlier day by `pullQueueForward`. */
export interface MovedDm extends PlannedSend {
  dmId: string;
}

/**
 * Moves the project's DMs queued for a later day to an earlier one where its accounts now have room: an
 * account was connected or its settings changed, a send failed (its place today is free again), an admin
 * reset the daily limits. DM by DM, in the order they go, each takes the first free slot over the ready
 * accounts within the limits it was queued with, and moves only if that slot is on an earlier local day
 * than its own: none goes later, none shifts within its day. Its send job is the caller's to queue.
 */
export async function pullQueueForward(
  ctx: AppContext,
  projectId: string,
  random: () => number,
): Promise<MovedDm[]> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs);
  return ctx.db.transaction(async (tx): Promise<MovedDm[]> => {
    // DMs first, then accounts: the order every claim locks them in.
    const dms = await lockQueuedDms(tx, projectId);
    if (dms.length === 0) return [];
    const accounts = await projectAccounts(tx, projectId, { lock: true });
    const byId = new Map(accounts.map((a) => [a.id, a]));
    const later = dms.filter((dm) => {
      const account = byId.get(dm.accountId!);
      return (
        account && dayKey(dm.scheduledFor!.getTime(), account.timezone) > dayKey(nowMs, account.timezone)
      );
    });
    if (later.length === 0) return [];
    const pacing = new Map<string, PacingAccount>();
    for (const account of accounts) {
      if (!planningProblem(account, nowMs)) pacing.set(account.id, await pacingAccount(tx, account, nowMs));
    }
    const moved: MovedDm[] = [];
    for (const dm of later) {
      const from = byId.get(dm.accountId!)!;
      const fromAt = dm.scheduledFor!.getTime();
      const own = pacing.get(from.id);
      if (own) rebook(own, fromAt, nowMs, -1);
      const limits = queuedWithLimits(dm);
      const [slot] = planSends(
        [...pacing.values()].map((p) => withSenderLimits(p, limits)),
        1,
        nowMs,
        random,
      );
      if (slot && slot.at < dayKey(fromAt, from.timezone)) {
        await updateDm(
          tx,
          { projectId, dmId: dm.id, from: ['queued'] },
          { accountId: slot.accountId, scheduledFor: new Date(slot.at), updatedAt: now },
        );
        rebook(pacing.get(slot.accountId)!, slot.at, nowMs, 1);
        moved.push({ dmId: dm.id, ...slot });
      } else if (own) {
        rebook(own, fromAt, nowMs, 1);
      }
    }
    return moved;
  });
}

export type Rescheduled =
  | { kind: 'scheduled'; accountId: string; at: number }
  /** No account of the project can take it: the DM is unsent (approved) again, with the reason. */
  | { kind: 'unassigned'; problem: NotReady }
  /** The DM is not queued any more. */
  | { kind: 'gone' };

/** A queued DM back among the unsent ones, with the reason it was not sent; false if it was not queued. */
export async function unqueueDm(
  db: DbOrTx,
  target: { projectId: string; dmId: string },
  why: { code: TSendOutcomeCode; reason: string },
  now: Date,
): Promise<boolean> {
  const changes = unqueuedChanges(why.code, `Not sent: ${why.reason}`, now);
  return (await updateDm(db, { ...target, from: ['queued'] }, changes)) !== null;
}

/**
 * Plans a queued DM again, at an account's first free slot among its paced sends: on `accountId` when given
 * (a full day, outside hours, a wait), otherwise on the project's account with the most room, leaving
 * out `excludeAccountIds` (it cannot send). With no account to take it, the DM returns to the unsent
 * DMs with the reason, for a later Send or Send All.
 */
export async function rescheduleDm(
  ctx: AppContext,
  target: { projectId: string; dmId: string },
  options: { accountId?: string | null; excludeAccountIds?: readonly string[]; random: () => number },
): Promise<Rescheduled> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs);
  return ctx.db.transaction(async (tx): Promise<Rescheduled> => {
    const dm = await lockDm(tx, target.projectId, target.dmId);
    if (!dm || dm.state !== 'queued') return { kind: 'gone' };
    const accounts = await projectAccounts(tx, target.projectId, { lock: true });
    const problems: NotReady[] = [];
    const candidates: RedditAccountRow[] = [];
    for (const account of accounts) {
      if (options.excludeAccountIds?.includes(account.id)) continue;
      if (options.accountId && account.id !== options.accountId) continue;
      const problem = planningProblem(account, nowMs);
      if (problem) problems.push(problem);
      else candidates.push(account);
    }
    const pacing: PacingAccount[] = [];
    const limits = queuedWithLimits(dm);
    for (const account of candidates)
      pacing.push(withSenderLimits(await pacingAccount(tx, account, nowMs, dm.id), limits));
    const [slot] = planSends(pacing, 1, nowMs, options.random);
    if (!slot) {
      const problem = explainNoAccount(problems, 'No Reddit account of this project can send it');
      await unqueueDm(tx, target, problem, now);
      return { kind: 'unassigned', problem };
    }
    await updateDm(
      tx,
      { projectId: dm.projectId, dmId: dm.id, from: ['queued'] },
      { accountId: slot.accountId, scheduledFor: new Date(slot.at), updatedAt: now },
    );
    return { kind: 'scheduled', accountId: slot.accountId, at: slot.at };
  });
}

/**
 * A DM of the batch that will not be queued, and why. A final one fails with its reason; one that is not
 * (another DM to the same person is queued) stays unsent, as that other DM may still be taken back.
 */
export interface SkippedDm {
  dm: DmMessageRow;
  code: TSendOutcomeCode;
  reason: string;
  final: boolean;
}

export type QueuePlan =
  | { kind: 'no_accounts' }
  | { kind: 'no_dms' }
  | { kind: 'no_ready_account'; problems: NotReady[] }
  | {
      kind: 'queued';
      queued: { dm: DmMessageRow; slot: PlannedSend }[];
      /** DMs failed because their person may not be contacted. */
      skipped: SkippedDm[];
      /** DMs left unsent because another DM to their person is queued. */
      held: number;
      /** DMs left unsent because no working day within the planning horizon had room. */
      unplanned: number;
      /** DMs left unsent because their lead was already older than DM_EXPIRY_DAYS: they expire unsent. */
      tooOld: number;
      accounts: RedditAccountRow[];
    };

/**
 * Send All: every approved DM of the project is queued in one transaction, paced over the project's
 * accounts (planSends). People the workspace may not contact (suppressed, answered, contacted) are not
 * queued: those DMs fail with the reason instead. A person another DM of the workspace is already queued
 * to is not queued twice: that DM stays unsent.
 */
/** What a sender (the agent) asks on top of each account's own pacing. */
export interface SenderLimits {
  /** Seconds between two sends of an account, at least. */
  min: number;
  max: number;
  /** DMs one account sends in a day at most (its own cap and warm-up still apply); null: no more. */
  dailyCap: number | null;
}

/**
 * What the agent hands over: only DMs it may send on its own (edited by the customer, or about a lead
 * whose intent reaches the minimum), the edited ones and then the most intent first, `max` at most.
 */
export interface AgentPick {
  minIntentScore: number;
  max: number;
}

async function pickForAgent(tx: DbOrTx, dms: DmMessageRow[], pick: AgentPick): Promise<DmMessageRow[]> {
  const intent = await intentOfDms(
    tx,
    dms.map((d) => d.id),
  );
  const rank = (dm: DmMessageRow) => (dm.editedAt ? Number.POSITIVE_INFINITY : (intent.get(dm.id) ?? 0));
  // Sorting is stable: among equals the oldest goes first, as for Send All.
  return [...dms].sort((a, b) => rank(b) - rank(a)).slice(0, Math.max(0, pick.max));
}

/** The limits the DM was queued with, if any. */
function queuedWithLimits(dm: DmMessageRow): SenderLimits | null {
  return dm.delayFloorMin === null || dm.delayFloorMax === null
    ? null
    : { min: dm.delayFloorMin, max: dm.delayFloorMax, dailyCap: dm.dailyCap };
}

/**
 * The stricter of the account's pacing and the sender's: never sent faster, nor more in a day, than
 * either asks. A day's count is the account's, whoever sent: the cap is the sender's per account.
 */
function withSenderLimits(account: PacingAccount, limits: SenderLimits | null): PacingAccount {
  if (!limits) return account;
  const cap = limits.dailyCap;
  return {
    ...account,
    delayRangeMin: Math.max(account.delayRangeMin, limits.min),
    delayRangeMax: Math.max(account.delayRangeMax, limits.max),
    capacityAt: cap === null ? account.capacityAt : (atMs) => Math.min(account.capacityAt(atMs), cap),
  };
}

export async function planProjectQueue(
  ctx: AppContext,
  projectId: string,
  random: () => number,
  limits: SenderLimits | null = null,
  pick: AgentPick | null = null,
  beforeQueue?: (tx: DbOrTx) => Promise<void>,
): Promise<QueuePlan> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs);
  return ctx.db.transaction(async (tx): Promise<QueuePlan> => {
    // The sender's own check (and lock) first; then DMs, then accounts: the order every claim locks them in.
    await beforeQueue?.(tx);
    const dms = await lockApprovedDms(tx, projectId, pick ? agentMaySend(pick.minIntentScore) : undefined);
    const accounts = await projectAccounts(tx, projectId, { lock: true });
    if (accounts.length === 0) return { kind: 'no_accounts' };
    if (dms.length === 0) return { kind: 'no_dms' };
    const problems: NotReady[] = [];
    const ready: RedditAccountRow[] = [];
    for (const account of accounts) {
      const problem = planningProblem(account, nowMs);
      if (problem) problems.push(problem);
      else ready.push(account);
    }
    if (ready.length === 0) return { kind: 'no_ready_account', problems };

    const expiresAt = await expiryOfDms(ctx, tx, dms);
    // A DM whose lead is already past its expiry (an old post the backfill found) gets no slot: no room
    // would ever be early enough, and saying it found none would send the customer looking for more.
    // Left out before people are counted, so a later DM to the same person about a recent lead goes.
    const fresh = dms.filter((dm) => (expiresAt.get(dm.id) ?? Infinity) > nowMs);
    const notQueued = fresh.length > 0 ? await recipientsToSkip(tx, fresh) : [];
    const skippedIds = new Set(notQueued.map((s) => s.dm.id));
    const skipped = notQueued.filter((s) => s.final);
    for (const s of skipped) {
      await updateDm(
        tx,
        { projectId, dmId: s.dm.id, from: ['approved'] },
        { state: 'failed', failedAt: now, outcomeCode: s.code, outcomeReason: s.reason, updatedAt: now },
      );
    }
    const sendable = fresh.filter((dm) => !skippedIds.has(dm.id));
    const toQueue = pick ? await pickForAgent(tx, sendable, pick) : sendable;
    const pacing: PacingAccount[] = [];
    for (const account of ready)
      pacing.push(withSenderLimits(await pacingAccount(tx, account, nowMs), limits));
    const slots = planSends(pacing, toQueue.length, nowMs, random);
    const queued: { dm: DmMessageRow; slot: PlannedSend }[] = [];
    for (const { dm, slot } of beforeExpiry(toQueue, slots, expiresAt)) {
      const row = await updateDm(
        tx,
        { projectId, dmId: dm.id, from: ['approved'] },
        {
          state: 'queued',
          accountId: slot.accountId,
          scheduledFor: new Date(slot.at),
          delayFloorMin: limits?.min ?? null,
          delayFloorMax: limits?.max ?? null,
          dailyCap: limits?.dailyCap ?? null,
          claimedAt: null,
          senderKey: null,
          outcomeCode: null,
          outcomeReason: null,
          updatedAt: now,
        },
      );
      if (row) queued.push({ dm: row, slot });
    }
    return {
      kind: 'queued',
      queued,
      skipped,
      held: notQueued.length - skipped.length,
      unplanned: toQueue.length - queued.length,
      tooOld: dms.length - fresh.length,
      accounts: ready,
    };
  });
}

const DAY_MS = 86_400_000;

/** When each DM expires: DM_EXPIRY_DAYS after its lead (expire-dms). */
async function expiryOfDms(ctx: AppContext, tx: DbOrTx, dms: DmMessageRow[]): Promise<Map<string, number>> {
  const leadTimes = await leadTimesOfDms(
    tx,
    dms.map((d) => d.id),
  );
  const days = ctx.config.dms.expiryDays;
  return new Map([...leadTimes].map(([id, at]) => [id, at + days * DAY_MS]));
}

/**
 * The DMs paired with the slots, both in order, each DM going before it expires: a DM that would go later
 * is left approved (it expires unsent) and the slot goes to the next. Slots only get later, so a DM too
 * late for one is too late for all that follow.
 */
export function beforeExpiry(
  dms: DmMessageRow[],
  slots: PlannedSend[],
  expiresAt: Map<string, number>,
): { dm: DmMessageRow; slot: PlannedSend }[] {
  const paired: { dm: DmMessageRow; slot: PlannedSend }[] = [];
  let next = 0;
  for (const slot of slots) {
    while (next < dms.length && (expiresAt.get(dms[next]!.id) ?? Infinity) <= slot.at) next++;
    if (next === dms.length) break;
    paired.push({ dm: dms[next++]!, slot });
  }
  return paired;
}

async function recipientsToSkip(tx: DbOrTx, dms: DmMessageRow[]): Promise<SkippedDm[]> {
  const owner = dms[0]!.ownerUserId;
  const keys = [...new Set(dms.map((d) => d.recipientKey))];
  const suppressed = await suppressedAmong(tx, owner, keys);
  const others = await workspaceDmsTo(tx, owner, keys);
  const seen = new Set<string>();
  const skipped: SkippedDm[] = [];
  for (const dm of dms) {
    const who = `u/${dm.recipientUsername}`;
    const mine = others.filter((o) => o.recipientKey === dm.recipientKey && o.id !== dm.id);
    const suppression = suppressed.get(dm.recipientKey);
    if (suppression) {
      skipped.push({
        dm,
        code: 'suppressed',
        reason: `${who} ${onTheList(suppression)}`,
        final: true,
      });
    } else if (dm.repliedAt || mine.some((o) => o.repliedAt)) {
      skipped.push({
        dm,
        code: 'replied',
        reason: alreadyAnswered(dm.recipientUsername),
        final: true,
      });
    } else if (mine.some((o) => o.state !== 'queued')) {
      skipped.push({
        dm,
        code: 'already_contacted',
        reason: `${who} was already contacted from this workspace`,
        final: true,
      });
    } else if (seen.has(dm.recipientKey) || mine.length > 0) {
      skipped.push({
        dm,
        code: 'already_contacted',
        reason: `Another DM to ${who} from this workspace is already queued`,
        final: false,
      });
    }
    seen.add(dm.recipientKey);
  }
  return skipped;
}
