import type { AppContext } from '../../context';
import { ownerHasPlan } from '../projects';
import { LASTING_PROBLEMS } from './account-readiness';
import { unqueuedChanges } from '../dms/dms.table';
import { agentStopped, findProjectDm, updateDm } from './claim.repository';
import { attemptSend, type AttemptResult, type OnSendStep } from './send-attempt';
import { rescheduleDm, unqueueDm, type Rescheduled } from './scheduling';

/**
 * Why a queued DM was taken back when its project's owner no longer has a plan (after "Not sent: "),
 * and how to send it once they have one again.
 */
export const NO_PLAN_UNQUEUED =
  "the project owner's subscription ended before it went. Send All queues it again.";

/** Why a DM the agent queued went back to the unsent DMs: Stop Agent's words, also at a later send. */
export const AGENT_STOPPED_UNQUEUED = 'The agent was stopped before this DM went';

/** What became of a paced send, and when its job should run again (null: never). */
export interface QueuedSendResult {
  outcome: AttemptResult['kind'] | Rescheduled['kind'] | 'no_plan' | 'agent_stopped';
  retryAtMs: number | null;
}

export interface PacedSendOptions {
  random?: () => number;
  onStep?: OnSendStep;
}

/**
 * The send-dm job's work: a queued DM goes from its account when due. Every check of the claim runs
 * again, so a schedule made earlier never oversends: a full day, working hours, a delay or a wait from
 * Reddit plan the DM later on the same account; an account that cannot send any more hands it to
 * the project's account with the most room. A DM whose project's owner no longer has a plan goes back
 * to the unsent DMs: it was queued while they had one (spec §5, "Subscription gate"); so does one the
 * agent queued once the agent is stopped.
 */
export async function sendQueuedDm(
  ctx: AppContext,
  target: { projectId: string; dmId: string },
  options: PacedSendOptions = {},
): Promise<QueuedSendResult> {
  const random = options.random ?? Math.random;
  const dm = await findProjectDm(ctx.db, target.projectId, { dmId: target.dmId });
  if (!dm || dm.state !== 'queued') return { outcome: 'gone', retryAtMs: null };
  const due = dm.scheduledFor?.getTime() ?? 0;
  if (dm.accountId && due > ctx.clock.now()) return { outcome: 'not_claimable', retryAtMs: due };
  if (!(await ownerHasPlan(ctx.db, target.projectId))) {
    const why = { code: 'subscription_required', reason: NO_PLAN_UNQUEUED } as const;
    const taken = await unqueueDm(ctx.db, target, why, new Date(ctx.clock.now()));
    return { outcome: taken ? 'no_plan' : 'gone', retryAtMs: null };
  }
  // Stop Agent takes back the agent's queued DMs, but one being sent then comes back to the queue when
  // it did not leave (Reddit unreachable, a wait, not delivered after all): it is not sent after the stop.
  if (dm.dailyCap !== null && (await agentStopped(ctx.db, target.projectId))) {
    const changes = unqueuedChanges(null, AGENT_STOPPED_UNQUEUED, new Date(ctx.clock.now()));
    const taken = await updateDm(ctx.db, { ...target, from: ['queued'] }, changes);
    return { outcome: taken ? 'agent_stopped' : 'gone', retryAtMs: null };
  }
  if (!dm.accountId) return rescheduled(await rescheduleDm(ctx, target, { random }));

  const result = await attemptSend(ctx, {
    ...target,
    accountId: dm.accountId,
    paced: true,
    onStep: options.onStep,
  });
  switch (result.kind) {
    case 'sent':
    case 'unknown':
    case 'failed':
      return { outcome: result.kind, retryAtMs: null };
    case 'not_claimable':
    case 'retry_same':
      return { outcome: result.kind, retryAtMs: result.retryAtMs };
    case 'retry_elsewhere':
      return rescheduled(await rescheduleDm(ctx, target, { excludeAccountIds: [result.account.id], random }));
    case 'account_not_ready': {
      const accountId = dm.accountId;
      const lasting = !result.account || LASTING_PROBLEMS.includes(result.code);
      return rescheduled(
        await rescheduleDm(
          ctx,
          target,
          lasting ? { excludeAccountIds: [accountId], random } : { accountId, random },
        ),
      );
    }
  }
}

function rescheduled(r: Rescheduled): QueuedSendResult {
  return { outcome: r.kind, retryAtMs: r.kind === 'scheduled' ? r.at : null };
}
