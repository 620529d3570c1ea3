import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { endAgentSearch } from '../discovery';
import { runAgent, type RunOptions } from './agent-run';
import { AGENT_SEARCH_STOPPED } from './agent.presenter';
import { findSettings, overdueAgents } from './agent.repository';

class AgentBusyError extends Error {
  override name = 'AgentBusyError';
  constructor(readonly retryAtMs: number) {
    super(`Another run of this agent holds the lease until ${new Date(retryAtMs).toISOString()}`);
  }
}

/**
 * The autonomous schedule of one project's agent, a chain of one job at a time per project (singleton
 * key: the project). Each run queues the next for 2 hours later on ctx.clock; a stopped, paused or
 * learning agent ends the chain. A run whose search Reddit did not answer queues itself instead for the
 * search's backoff instant, with its next `attempt` (1 when absent); one whose search's requests are held
 * back, for when they may go again, with the same attempt. A worker killed mid-run leaves the
 * job to expire and run again; the run's lease and the DMs' own uniqueness keep that from drafting or
 * sending twice.
 */
export const agentRunJob = defineJob({
  name: 'agent-run',
  schema: z.object({ projectId: z.uuid(), attempt: z.number().int().min(2).optional() }),
  policy: 'stately',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  // Longer than a run's lease, so a retried run finds the dead one's lease stale.
  expireInSeconds: 20 * 60,
  async handler(ctx, data) {
    await runScheduled(ctx, data.projectId, data.attempt ? { attempt: data.attempt } : {});
  },
});

/** The scheduled run of a project's agent and its successor; `options` reach the run (crash tests). */
export async function runScheduled(
  ctx: AppContext,
  projectId: string,
  options: RunOptions = {},
): Promise<void> {
  const settings = await findSettings(ctx.db, projectId);
  if (!settings?.isActive || settings.mode !== 'agent' || !settings.learningStageCompleted) {
    // Stopped while its search waited for Reddit: nothing takes that search up now.
    if (settings) await endStoppedSearch(ctx, projectId);
    return;
  }
  const due = settings.nextRunAt?.getTime() ?? ctx.clock.now();
  // Early (a duplicate from before a restart): the chain's next job is already set for then.
  if (due > ctx.clock.now() + 1000) {
    await queueAgentRun(ctx, projectId, due, options.attempt);
    return;
  }
  const outcome = await runAgent(ctx, projectId, 'schedule', options);
  if (outcome.kind === 'busy') throw new AgentBusyError(outcome.retryAtMs);
  const after = await findSettings(ctx.db, projectId);
  if (after?.isActive && after.nextRunAt && !after.pausedReason) {
    const attempt = outcome.kind === 'again' ? outcome.attempt : undefined;
    await queueAgentRun(ctx, projectId, after.nextRunAt.getTime(), attempt);
  } else {
    // The chain ends (stopped or paused during the run, or by it): a search it left waiting ends too.
    await endStoppedSearch(ctx, projectId);
  }
}

/**
 * Ends the agent's own search still waiting for Reddit once its chain has ended. Stop Agent, Restart
 * Learning and a pause end it as they stop the agent; one left by a run that held it then is ended here.
 */
async function endStoppedSearch(ctx: AppContext, projectId: string): Promise<void> {
  await endAgentSearch(ctx.db, projectId, AGENT_SEARCH_STOPPED, new Date(ctx.clock.now()));
}

/**
 * Queues the project's next run for `atMs`, in place of a waiting one due later (the chain of an agent
 * stopped and started again, whose old run would otherwise hold the project's one place for hours);
 * false when no job queue runs on this server. `attempt`: a run trying its search again (the first
 * attempt is queued without it).
 */
export async function queueAgentRun(
  ctx: AppContext,
  projectId: string,
  atMs: number,
  attempt?: number,
): Promise<boolean> {
  if (!ctx.queue) return false;
  await ctx.queue.enqueue(agentRunJob, attempt && attempt > 1 ? { projectId, attempt } : { projectId }, {
    startAfter: new Date(atMs),
    singletonKey: projectId,
    earliest: true,
  });
  return true;
}

/** A run this late means its chain broke (its job lost): the sweep starts it again. */
const OVERDUE_AFTER_MS = 10 * 60_000;
const SWEEP_BATCH = 100;

/** Every 10 minutes, re-arms the chains of active agents whose next run is long overdue. */
export const agentSweepJob = defineJob({
  name: 'agent-sweep',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '*/10 * * * *',
  async handler(ctx) {
    const overdue = await overdueAgents(ctx.db, new Date(ctx.clock.now() - OVERDUE_AFTER_MS), SWEEP_BATCH);
    for (const projectId of overdue) await queueAgentRun(ctx, projectId, ctx.clock.now());
  },
});
