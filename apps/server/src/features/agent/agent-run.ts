import {
  plural,
  AGENT_RUN_INTERVAL_SECONDS,
  SENDING_TEXTS,
  type TAgentTimezone,
  type TOperationResult,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/errors';
import { RedditBudgetExhaustedError } from '../../integrations/reddit';
import { MIN_SENDING_AGE_DAYS, dailyCapacity, isWithinWorkingHours, nextWorkingInstant } from '../accounts';
import {
  agentSearchRunning,
  clockTime,
  getSearchStatus,
  runProjectSearch,
  startProjectSearch,
  type TProjectSearchOptions,
} from '../discovery';
import { draftDmsForBestLeads } from '../dms';
import { ownerHasPlan } from '../projects';
import { formatInstant, NO_PLAN_UNQUEUED, queueProjectDms } from '../sending';
import { RUN_LEASE_MS } from './agent.presenter';
import {
  activeAgentsOfOwner,
  claimRunLease,
  composeRefusalsSince,
  countExamples,
  countLeadsFoundBetween,
  countAgentPendingDms,
  countProjectAccounts,
  countSentSince,
  findPatterns,
  findProjectRow,
  findSettings,
  listSendingAccountLimits,
  lockSettings,
  releaseRunLease,
} from './agent.repository';
import { learnProjectPatterns, pauseAgent, writeAgentLog } from './agent.service';
import { reauthenticateFirst, signedOutAccounts } from './signed-out-accounts';
import type { AgentSettingsRow } from './agent.table';
import type { ProjectRow } from '../projects/projects.table';

/** A run drafts at most this many DMs, whatever room the accounts have. */
export const AGENT_DRAFTS_PER_RUN_MAX = 25;
/** The search each run of the agent starts: posts and comments, stored as leads, no profiles. */
export const AGENT_SEARCH_OPTIONS: TProjectSearchOptions = {
  trigger: 'agent',
  include_posts: true,
  include_comments: true,
  include_profiles: false,
  persist_posts: true,
  limit: 100,
};
/** Why an agent whose owner's plan has ended stops: it searches, drafts and sends for a subscription. */
export const NO_PLAN_PAUSE =
  "Paused: the project owner's subscription has ended. Subscribe again, then complete learning again to restart the agent.";
/** Its queued DMs say what the send job's own check says of a DM it takes back for the same reason. */
const NO_PLAN_UNQUEUED_DMS = {
  code: 'subscription_required',
  reason: `Not sent: ${NO_PLAN_UNQUEUED}`,
} as const;

/**
 * The owner's last plan has ended (docs/decisions/012-billing-fulfilment.md): each of their agents that is
 * on pauses now, as its next run would (up to 2 hours later), taking back its queued DMs. Returns how many.
 */
export async function pauseAgentsWithoutPlan(ctx: AppContext, ownerId: string): Promise<number> {
  const projectIds = await activeAgentsOfOwner(ctx.db, ownerId);
  for (const projectId of projectIds) await pauseAgent(ctx, projectId, NO_PLAN_PAUSE, NO_PLAN_UNQUEUED_DMS);
  return projectIds.length;
}

/**
 * Why the agent pauses when none of the project's accounts can send and those switched on are signed out
 * of Reddit (Auth Required), or null. Running on would only log each time that nothing can be sent, and
 * a running agent covers the accounts panel: paused, its Re-authenticate buttons can be reached.
 */
async function signedOutPause(ctx: AppContext, projectId: string): Promise<string | null> {
  const signedOut = await signedOutAccounts(ctx, projectId);
  return signedOut
    ? `Paused: ${reauthenticateFirst(signedOut)}, then complete learning again to restart the agent.`
    : null;
}

/** This many compose refusals since the last run (within a day) pause the project's agent. */
export const COMPOSE_REFUSALS_TO_PAUSE = 3;
const DAY_MS = 86_400_000;

export type RunTrigger = 'schedule' | 'execute';
/** Boundaries of a run, for the crash tests: after the search, the drafts and the queueing. */
export const AGENT_RUN_STEPS = ['after-search', 'after-draft', 'after-queue'] as const;
export type AgentRunStep = (typeof AGENT_RUN_STEPS)[number];
export interface RunOptions {
  onStep?: (step: AgentRunStep) => void | Promise<void>;
  /** Called in the queueing transaction once the agent's settings are locked (the race tests). */
  whileQueueing?: () => void | Promise<void>;
  /** The how-manyth try of a scheduled run at its search (1 for the first). */
  attempt?: number;
}
/**
 * 'again': Reddit did not answer the search, or its requests are held back (a spent budget, a pause Reddit
 * asked for); the run comes back at `retryAtMs` for its `attempt`.
 */
export type RunOutcome =
  | { kind: 'busy'; retryAtMs: number }
  | { kind: 'done'; result: TOperationResult }
  | { kind: 'again'; retryAtMs: number; attempt: number; result: TOperationResult };

/** What a run that finds its agent stopped (Stop Agent, Restart Learning, a pause) logs and answers. */
export const RUN_STOPPED = 'Run stopped: the agent was stopped during the run';

/** Thrown by a run that finds its agent stopped since it began: it ends there, quietly. */
class AgentStoppedError extends Error {
  override name = 'AgentStoppedError';
}

/**
 * Throws AgentStoppedError when the agent was stopped since the run began (`started`, its settings
 * then): it may not run now, or it was on and is off.
 */
function checkNotStopped(now: AgentSettingsRow | null, started: AgentSettingsRow, trigger: RunTrigger): void {
  if (!now || notReady(now, trigger) || (started.isActive && !now.isActive)) throw new AgentStoppedError();
}

function emptyResult(): TOperationResult {
  return {
    status: 'completed',
    reason: null,
    searches_performed: 0,
    posts_found: 0,
    comments_found: 0,
    profiles_found: 0,
    messages_generated: 0,
    messages_sent: 0,
    messages_queued: 0,
    patterns_applied: false,
  };
}

/** Why the agent may not run now, or null when it may. */
function notReady(settings: AgentSettingsRow, trigger: RunTrigger): string | null {
  if (settings.mode !== 'agent') return 'The project is in assistant mode';
  if (!settings.learningStageCompleted) return 'Learning is not complete yet';
  if (settings.pausedReason) return settings.pausedReason;
  if (trigger === 'schedule' && !settings.isActive) return 'The agent is stopped';
  return null;
}

const agentWindow = (s: AgentSettingsRow) => ({
  timezone: s.timezone as TAgentTimezone,
  workingDays: s.workingDays,
  workingHoursStart: s.workingHoursStart,
  workingHoursEnd: s.workingHoursEnd,
});

/**
 * One autonomous run of a project's agent (DESIGN.md §4 "Agent mode"): learn from new edits, search,
 * draft DMs for new leads with the learned patterns, queue them through the sending pacing, and log
 * each step. One run at a time per project (the lease); 'busy' while another holds it. A scheduled run
 * whose search Reddit does not answer stops there and comes back at the search's backoff instant, up to
 * the Reddit client's last attempt; after that, and for Execute, the run goes on with the leads it has.
 * A search whose requests are held back stops a scheduled run until they may go again, however often
 * (it is not an attempt), and Execute's run at once, saying when to run it again.
 */
export async function runAgent(
  ctx: AppContext,
  projectId: string,
  trigger: RunTrigger,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const leaseAt = new Date(ctx.clock.now());
  const settings = await claimRunLease(
    ctx.db,
    projectId,
    leaseAt,
    new Date(leaseAt.getTime() - RUN_LEASE_MS),
  );
  if (!settings) return { kind: 'busy', retryAtMs: leaseAt.getTime() + RUN_LEASE_MS };
  const result = emptyResult();
  let scheduleNext = trigger === 'schedule';
  let againAtMs: number | null = null;
  try {
    const blocked = notReady(settings, trigger);
    if (blocked) {
      scheduleNext = false;
      return { kind: 'done', result: { ...result, status: 'skipped', reason: blocked } };
    }
    if (!(await ownerHasPlan(ctx.db, projectId))) {
      await pauseAgent(ctx, projectId, NO_PLAN_PAUSE, NO_PLAN_UNQUEUED_DMS);
      scheduleNext = false;
      return { kind: 'done', result: { ...result, status: 'skipped', reason: NO_PLAN_PAUSE } };
    }
    const lastRun = settings.lastRunAt?.getTime() ?? null;
    const refusals = await composeRefusalsSince(
      ctx.db,
      projectId,
      new Date(Math.max(leaseAt.getTime() - DAY_MS, lastRun ?? 0)),
    );
    if (refusals.count >= COMPOSE_REFUSALS_TO_PAUSE) {
      const reason =
        `Paused: Reddit refused ${refusals.count} DMs from this project's accounts ` +
        `${lastRun !== null && lastRun > leaseAt.getTime() - DAY_MS ? 'since the last run' : 'in the last day'}` +
        `${refusals.lastReason ? ` (last: ${refusals.lastReason})` : ''}. ` +
        'Check the accounts, then complete learning again to restart the agent.';
      await pauseAgent(ctx, projectId, reason);
      scheduleNext = false;
      return { kind: 'done', result: { ...result, status: 'skipped', reason } };
    }
    const signedOut = await signedOutPause(ctx, projectId);
    if (signedOut) {
      // Its queued DMs go back to the unsent ones, as for every pause: the send job would return them
      // there anyway, since no account can take them, and the first run after resuming queues them again.
      await pauseAgent(ctx, projectId, signedOut);
      scheduleNext = false;
      return { kind: 'done', result: { ...result, status: 'skipped', reason: signedOut } };
    }

    if (settings.learnedUntil && (await countExamples(ctx.db, projectId, settings.learnedUntil)) > 0) {
      const used = await learnProjectPatterns(ctx, projectId);
      await writeAgentLog(ctx, projectId, 'other', true, `Learned again from ${used} saved edits`, {
        examples_used: used,
      });
    }

    // Only the schedule can come back for another attempt; Execute answers a person now.
    const attempt = options.attempt ?? 1;
    const held = await search(ctx, projectId, result, trigger === 'schedule' ? { attempt } : undefined);
    if (held) {
      const skipped = { ...result, status: 'skipped' as const, reason: held.reason };
      if (held.kind === 'stop') return { kind: 'done', result: skipped };
      againAtMs = held.retryAtMs;
      return { kind: 'again', retryAtMs: held.retryAtMs, attempt: held.attempt, result: skipped };
    }
    await options.onStep?.('after-search');
    // A stop while the run searched: nothing is drafted for an agent the customer stopped.
    checkNotStopped(await findSettings(ctx.db, projectId), settings, trigger);
    // Drafting and handing over are both sized by what the signed-in accounts may send in a day.
    const accounts = await sendingDay(ctx, projectId, settings);
    await draft(ctx, projectId, settings, accounts, result);
    await options.onStep?.('after-draft');
    await send(ctx, projectId, settings, accounts, result, async (tx) => {
      checkNotStopped(await lockSettings(tx, projectId), settings, trigger);
      await options.whileQueueing?.();
    });
    await options.onStep?.('after-queue');
    result.messages_sent = lastRun === null ? 0 : await countSentSince(ctx.db, projectId, new Date(lastRun));
    await writeAgentLog(
      ctx,
      projectId,
      'other',
      true,
      `Run completed: ${plural(result.posts_found, 'post')} and ${plural(result.comments_found, 'comment')} found, ` +
        `${plural(result.messages_generated, 'DM')} drafted, ${result.messages_queued} queued, ${result.messages_sent} sent since the last run`,
      { ...result, trigger },
    );
    return { kind: 'done', result };
  } catch (error) {
    if (error instanceof AgentStoppedError) {
      // The stop took back what was queued and ended the chain; this run adds nothing after it.
      scheduleNext = false;
      const stopped = { ...result, status: 'skipped' as const, reason: RUN_STOPPED };
      await writeAgentLog(ctx, projectId, 'other', true, RUN_STOPPED, { ...stopped, trigger });
      return { kind: 'done', result: stopped };
    }
    ctx.log.error({ err: error, projectId, job: 'agent-run' }, 'agent run failed');
    const reason = error instanceof AppError ? error.detail : 'Unexpected error during the run';
    await writeAgentLog(ctx, projectId, 'error', false, `Run failed: ${reason}`, { trigger });
    return { kind: 'done', result: { ...result, status: 'failed', reason } };
  } finally {
    const nowMs = ctx.clock.now();
    await releaseRunLease(ctx.db, projectId, leaseAt, {
      lastRunAt: new Date(nowMs),
      ...(scheduleNext
        ? { nextRunAt: new Date(againAtMs ?? nowMs + AGENT_RUN_INTERVAL_SECONDS * 1000) }
        : {}),
    });
  }
}

const searchAgain = (atMs: number) =>
  `Reddit did not answer the search; the run tries again at ${clockTime(atMs)}`;

/**
 * A search that stopped the run: a scheduled run comes back for `attempt` at `retryAtMs`; Execute
 * ('stop') answers `reason` now.
 */
type SearchHeld =
  { kind: 'again'; retryAtMs: number; attempt: number; reason: string } | { kind: 'stop'; reason: string };

/**
 * The run's search, inline. With `job` (a scheduled run), Reddit not answering before the client's last
 * attempt, or requests held back (a spent budget, a pause Reddit asked for), leaves the search running
 * and answers when to try again; held back requests count as no attempt. Without `job` (Execute), held
 * back requests end the search and stop the run. Otherwise null: the run goes on.
 */
async function search(
  ctx: AppContext,
  projectId: string,
  result: TOperationResult,
  job?: { attempt: number },
): Promise<SearchHeld | null> {
  const project = await findProjectRow(ctx.db, projectId);
  if (!project) return null;
  // The agent's own search left for its next attempt (or by a run that died) is taken up, not refused.
  if (!(await agentSearchRunning(ctx, projectId))) {
    const started = await startSearch(ctx, projectId, project);
    if (!started) return null;
  }
  const attempt = job?.attempt ?? 1;
  let outcome;
  try {
    outcome = await runProjectSearch(ctx, projectId, job);
  } catch (error) {
    if (!(error instanceof RedditBudgetExhaustedError)) throw error;
    const at = clockTime(error.retryAtMs);
    const reason = job
      ? `${error.reason}; the run tries again at ${at}`
      : `${error.reason} until ${at}; run the agent again then`;
    await writeAgentLog(ctx, projectId, 'search', false, reason, { attempt, source: error.source });
    return job ? { kind: 'again', retryAtMs: error.retryAtMs, attempt, reason } : { kind: 'stop', reason };
  }
  if (outcome.kind === 'again') {
    const reason = searchAgain(outcome.retryAtMs);
    await writeAgentLog(ctx, projectId, 'search', false, reason, { attempt });
    return { kind: 'again', retryAtMs: outcome.retryAtMs, attempt: attempt + 1, reason };
  }
  await recordSearch(ctx, projectId, result);
  return null;
}

/** Starts the project's search for the agent; false (and logged) when it cannot start. */
async function startSearch(ctx: AppContext, projectId: string, project: ProjectRow): Promise<boolean> {
  try {
    await startProjectSearch(ctx, project, AGENT_SEARCH_OPTIONS);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const running = error.statusCode === 409;
    await writeAgentLog(
      ctx,
      projectId,
      'search',
      running,
      running
        ? 'A search of this project was already running; its leads are used'
        : `Search: ${error.detail}`,
      { code: error.code },
    );
    return false;
  }
  return true;
}

/** What the finished search found, in the run's result and log. */
async function recordSearch(ctx: AppContext, projectId: string, result: TOperationResult): Promise<void> {
  const status = await getSearchStatus(ctx, projectId);
  if (status.status !== 'completed' || !status.result) {
    await writeAgentLog(ctx, projectId, 'search', false, `Search failed: ${status.error ?? 'Unknown error'}`);
    return;
  }
  // Found means new: a search matches again what earlier ones stored, and those are no news.
  const now = ctx.clock.now();
  const fresh = await countLeadsFoundBetween(
    ctx.db,
    projectId,
    new Date(status.started_at ?? now),
    new Date(status.finished_at ?? now),
  );
  const matched = status.result.posts_found + status.result.comments_found;
  result.searches_performed += 1;
  result.posts_found += fresh.posts;
  result.comments_found += fresh.comments;
  result.profiles_found += status.result.profiles_found;
  const seenBefore = matched - fresh.posts - fresh.comments;
  await writeAgentLog(
    ctx,
    projectId,
    'search',
    true,
    `Searched: ${plural(fresh.posts, 'new post')} and ${plural(fresh.comments, 'new comment')} found` +
      (seenBefore > 0 ? `; ${seenBefore} ${seenBefore === 1 ? 'match' : 'matches'} seen before` : ''),
    { ...status.result, new_posts: fresh.posts, new_comments: fresh.comments },
  );
}

/** The project's sending accounts, and how many DMs they may send in a day between them. */
interface SendingDay {
  accounts: number;
  sends: number;
}

/**
 * A day's sends: each account's own daily cap (its limit, lowered while it warms up) or the agent's daily
 * DMs per profile, whichever is lower; an account too young to send counts with its first sending day.
 */
async function sendingDay(
  ctx: AppContext,
  projectId: string,
  settings: AgentSettingsRow,
): Promise<SendingDay> {
  const nowMs = ctx.clock.now();
  const accounts = await listSendingAccountLimits(ctx.db, projectId);
  const sends = accounts.reduce((sum, account) => {
    const created = account.accountCreatedAt?.getTime();
    const firstDay = created === undefined ? nowMs : Math.max(nowMs, created + MIN_SENDING_AGE_DAYS * DAY_MS);
    return sum + Math.min(settings.dailyDmLimitPerProfile, dailyCapacity(account, firstDay));
  }, 0);
  return { accounts: accounts.length, sends };
}

async function draft(
  ctx: AppContext,
  projectId: string,
  settings: AgentSettingsRow,
  { accounts, sends }: SendingDay,
  result: TOperationResult,
): Promise<void> {
  if (accounts === 0) {
    // Connected accounts that cannot send (switched off or disabled; had those switched on been signed out,
    // the run would have paused) are not "no account".
    const connected = await countProjectAccounts(ctx.db, projectId);
    await writeAgentLog(
      ctx,
      projectId,
      'dm_generation',
      false,
      connected === 0
        ? SENDING_TEXTS.noAccountsBulk
        : `None of this project's Reddit accounts can send (${connected} connected): re-authenticate or ` +
            'switch them on in the accounts panel. No DMs drafted.',
    );
    return;
  }
  const waiting = await countAgentPendingDms(ctx.db, projectId, settings.minIntentScore);
  const pending = waiting.queued + waiting.approved;
  // No more drafts than the accounts may send in a day: the rest of the leads wait for the next run.
  const room = Math.min(AGENT_DRAFTS_PER_RUN_MAX, sends - pending);
  if (room <= 0) {
    await writeAgentLog(
      ctx,
      projectId,
      'dm_generation',
      true,
      `${pending} DMs are still waiting to go; none drafted`,
    );
    return;
  }
  const patterns = (await findPatterns(ctx.db, projectId))?.patterns ?? null;
  try {
    const report = await draftDmsForBestLeads(ctx, projectId, {
      minScore: settings.minIntentScore,
      limit: room,
      patterns,
    });
    result.messages_generated += report.generated;
    result.patterns_applied = patterns !== null && report.generated > 0;
    await writeAgentLog(
      ctx,
      projectId,
      'dm_generation',
      report.failed === 0,
      `Drafted ${plural(report.generated, 'DM')}${patterns ? ' with your learned patterns' : ''}` +
        (report.skipped ? `; ${report.skipped} ${report.skipped === 1 ? 'person' : 'people'} skipped` : '') +
        (report.failed ? `; ${report.failed} failed` : ''),
      { ...report, min_intent_score: settings.minIntentScore },
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await writeAgentLog(ctx, projectId, 'dm_generation', false, error.detail, { code: error.code });
  }
}

async function send(
  ctx: AppContext,
  projectId: string,
  settings: AgentSettingsRow,
  { accounts, sends }: SendingDay,
  result: TOperationResult,
  beforeQueue: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const nowMs = ctx.clock.now();
  const window = agentWindow(settings);
  if (!isWithinWorkingHours(window, nowMs)) {
    const next = nextWorkingInstant(window, nowMs);
    // Nothing was sent: not a 'DM sent' entry.
    await writeAgentLog(
      ctx,
      projectId,
      'other',
      true,
      `Outside the agent's working hours: DMs wait for the next run${next ? ` after ${formatInstant(next, settings.timezone)}` : ''}`,
    );
    return;
  }
  // A day's sends at most stay queued, so Stop Agent takes back little, new settings apply by the next
  // day, and better leads found meanwhile go before older ones.
  const { queued: alreadyQueued } = await countAgentPendingDms(ctx.db, projectId, settings.minIntentScore);
  const room = sends - alreadyQueued;
  if (accounts > 0 && room <= 0) {
    await writeAgentLog(
      ctx,
      projectId,
      'other',
      true,
      `${alreadyQueued} DMs are queued already, a day's sends; none more handed over`,
    );
    return;
  }
  try {
    // The agent's delays and daily DMs per profile apply on top of each account's: the stricter one wins.
    // It sends only DMs about leads whose intent reaches its minimum, or that the customer edited.
    const queued = await queueProjectDms(ctx, projectId, {
      senderLimits: {
        min: settings.delayRangeMin,
        max: settings.delayRangeMax,
        dailyCap: settings.dailyDmLimitPerProfile,
      },
      pick: { minIntentScore: settings.minIntentScore, max: Math.max(room, 0) },
      // Checked under the settings row's lock, which a stop takes first: either the stop waits and
      // takes these DMs back, or this finds the agent stopped and queues none.
      beforeQueue,
    });
    result.messages_queued = queued.queued;
    await writeAgentLog(ctx, projectId, 'dm_sent', true, queued.message, {
      queued: queued.queued,
      skipped: queued.skipped,
      first_at: queued.first_at,
      last_at: queued.last_at,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const nothing = error.code === 'no_unsent_messages';
    const detail = nothing
      ? `No DM to hand over: none unsent is about a lead with an intent of ${settings.minIntentScore} or more, or edited by you`
      : error.detail;
    await writeAgentLog(ctx, projectId, 'dm_sent', nothing, detail, { code: error.code });
  }
}
