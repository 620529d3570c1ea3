import {
  AGENT_DELAY_ORDER_ERROR,
  AGENT_SUMMARY_MESSAGES_MAX,
  AGENT_FIRST_RUN_DELAY_SECONDS,
  AGENT_TEXTS,
  LEARNING_MIN_EXAMPLES,
  plural,
  type TAgentLogType,
  type TAgentMode,
  type TAgentPatternsResponse,
  type TAgentSettings,
  type TAgentDailySummary,
  type TAgentStatus,
  type TBehaviorAction,
  type TBehaviorLogsResponse,
  type TCompleteLearningResponse,
  type TAgentLogList,
  type TMessageExampleList,
  type TRestartLearningResponse,
  type TSendOutcomeCode,
  type TSaveMessageExamplesResponse,
  type TToggleModeResponse,
} from '@threadreach/contract';
import type { z } from 'zod';
import type { ZSaveMessageExamplesRequest, ZUpdateAgentSettingsRequest } from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../http/errors';
import { endAgentSearch } from '../discovery';
import { AGENT_STOPPED_UNQUEUED } from '../sending';
import {
  agentLogSummary,
  cancelQueuedSends,
  countBehaviorLogs,
  countExamples,
  deletePatterns,
  findPatterns,
  findSettings,
  insertAgentLog,
  insertBehaviorLogs,
  insertExamples,
  listAgentLogs,
  listBehaviorLogs,
  listExamples,
  recentExampleTexts,
  savePatterns,
  saveSettings,
  sentSince,
  type AgentSettingsChange,
} from './agent.repository';
import {
  AGENT_SEARCH_STOPPED,
  presentAgentLog,
  presentBehaviorLog,
  presentExample,
  presentSettings,
} from './agent.presenter';
import type { AgentSettingsRow } from './agent.table';
import { queueAgentRun } from './agent-run.job';
import { reauthenticateFirst, signedOutAccounts } from './signed-out-accounts';

/** Patterns are learned from at most this many of the newest saved edits. */
export const LEARNING_EXAMPLES_MAX = 200;
/** Step 5 shows this many recent operations in its overview. */
const RECENT_ACTIVITY = 10;

const now = (ctx: AppContext) => new Date(ctx.clock.now());

export async function getAgentSettings(ctx: AppContext, projectId: string): Promise<TAgentSettings> {
  return presentSettings(projectId, await findSettings(ctx.db, projectId), ctx.clock.now());
}

export async function updateAgentSettings(
  ctx: AppContext,
  projectId: string,
  change: z.output<typeof ZUpdateAgentSettingsRequest>,
): Promise<TAgentSettings> {
  const current = await getAgentSettings(ctx, projectId);
  const min = change.delay_range_min ?? current.delay_range_min;
  const max = change.delay_range_max ?? current.delay_range_max;
  // Each field was checked alone; together they must still be in order.
  if (min > max) throw badRequest(AGENT_DELAY_ORDER_ERROR, 'invalid_agent_settings');
  const values: AgentSettingsChange = {
    ...(change.daily_dm_limit_per_profile !== undefined
      ? { dailyDmLimitPerProfile: change.daily_dm_limit_per_profile }
      : {}),
    ...(change.delay_range_min !== undefined ? { delayRangeMin: change.delay_range_min } : {}),
    ...(change.delay_range_max !== undefined ? { delayRangeMax: change.delay_range_max } : {}),
    ...(change.working_days !== undefined
      ? { workingDays: [...change.working_days].sort((a, b) => a - b) }
      : {}),
    ...(change.working_hours_start !== undefined ? { workingHoursStart: change.working_hours_start } : {}),
    ...(change.working_hours_end !== undefined ? { workingHoursEnd: change.working_hours_end } : {}),
    ...(change.timezone !== undefined ? { timezone: change.timezone } : {}),
    ...(change.min_intent_score !== undefined ? { minIntentScore: change.min_intent_score } : {}),
  };
  const row = await saveSettings(ctx.db, projectId, values, now(ctx));
  return presentSettings(projectId, row, ctx.clock.now());
}

export async function writeAgentLog(
  ctx: AppContext,
  projectId: string,
  activityType: TAgentLogType,
  success: boolean,
  message: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await insertAgentLog(ctx.db, { projectId, activityType, success, message, details }, now(ctx));
}

/**
 * Stops the agent: no more runs, every queued send of the project taken back at once, and its own search
 * left waiting for Reddit (for a run that now does nothing) ended, so the customer may search at once.
 * `change` (assistant mode, learning again, the pause's reason) is made in the same transaction: a run
 * queueing meanwhile sees the agent stopped for good, never only switched off.
 */
async function stopAgent(
  ctx: AppContext,
  projectId: string,
  why: string,
  change: AgentSettingsChange,
  code: TSendOutcomeCode | null = null,
): Promise<{ cancelled: number; row: AgentSettingsRow }> {
  return ctx.db.transaction(async (tx) => {
    const at = now(ctx);
    // The settings row first, then the DMs: the order the agent's queueing locks them in
    // (agent-run.ts), so a run queueing now either finishes first, its DMs taken back below, or
    // waits and finds the agent stopped.
    const row = await saveSettings(tx, projectId, { ...change, isActive: false, nextRunAt: null }, at);
    await endAgentSearch(tx, projectId, AGENT_SEARCH_STOPPED, at);
    return { cancelled: await cancelQueuedSends(tx, projectId, why, at, code), row };
  });
}

/**
 * Toggle-mode: entering agent mode starts learning (spec section 4); returning to assistant mode is
 * Stop Agent, which also takes back every queued send. A `mode` equal to the current one changes nothing.
 */
export async function toggleAgentMode(
  ctx: AppContext,
  projectId: string,
  requested: TAgentMode | undefined,
): Promise<TToggleModeResponse> {
  const current = (await findSettings(ctx.db, projectId))?.mode ?? 'assistant';
  const target: TAgentMode = requested ?? (current === 'agent' ? 'assistant' : 'agent');
  if (target === current) {
    const settings = await getAgentSettings(ctx, projectId);
    return { mode: target, message: `Already in ${target} mode`, sends_cancelled: 0, settings };
  }
  if (target === 'agent') {
    const row = await saveSettings(
      ctx.db,
      projectId,
      { mode: 'agent', learningStageCompleted: false, isActive: false, nextRunAt: null, pausedReason: null },
      now(ctx),
    );
    const saved = await countExamples(ctx.db, projectId);
    return {
      mode: 'agent',
      message: `Agent mode: learning how you write. Edit and save at least ${LEARNING_MIN_EXAMPLES} DMs (${saved} so far), then complete learning.`,
      sends_cancelled: 0,
      settings: presentSettings(projectId, row, ctx.clock.now()),
    };
  }
  const { cancelled, row } = await stopAgent(ctx, projectId, AGENT_STOPPED_UNQUEUED, {
    mode: 'assistant',
  });
  await writeAgentLog(
    ctx,
    projectId,
    'other',
    true,
    `Agent stopped; ${plural(cancelled, 'queued send')} taken back`,
    {
      sends_cancelled: cancelled,
    },
  );
  return {
    mode: 'assistant',
    message:
      cancelled > 0
        ? `Assistant mode: the agent stopped and ${plural(cancelled, 'queued DM')} will not be sent.`
        : 'Assistant mode: the agent stopped.',
    sends_cancelled: cancelled,
    settings: presentSettings(projectId, row, ctx.clock.now()),
  };
}

/** Learns the project's patterns from its newest saved edits and stores them; the number of examples used. */
export async function learnProjectPatterns(ctx: AppContext, projectId: string): Promise<number> {
  const texts = await recentExampleTexts(ctx.db, projectId, LEARNING_EXAMPLES_MAX);
  const patterns = ctx.ai.learnPatterns(texts.map((final_message) => ({ final_message })));
  const at = now(ctx);
  await savePatterns(ctx.db, { projectId, patterns, examplesUsed: texts.length, learnedAt: at });
  await saveSettings(ctx.db, projectId, { learnedUntil: at }, at);
  return texts.length;
}

/**
 * Complete learning: refused with 'Not enough training data!' and the steps below 3 saved edits;
 * otherwise learns the patterns and starts the schedule, its first run 5 s from now.
 */
export async function completeLearning(
  ctx: AppContext,
  projectId: string,
): Promise<TCompleteLearningResponse> {
  const settings = await findSettings(ctx.db, projectId);
  if (settings?.mode !== 'agent') {
    throw new AppError(409, 'not_in_agent_mode', 'Switch to agent mode before completing learning');
  }
  // Started now, its first run would pause it again at once for the same accounts.
  const signedOut = await signedOutAccounts(ctx, projectId);
  if (signedOut) {
    throw new AppError(
      409,
      'accounts_signed_out',
      `${reauthenticateFirst(signedOut)}, then complete learning.`,
    );
  }
  const saved = await countExamples(ctx.db, projectId);
  if (saved < LEARNING_MIN_EXAMPLES) {
    throw new AppError(
      422,
      'not_enough_training_data',
      `${AGENT_TEXTS.notEnoughTrainingData} ${AGENT_TEXTS.trainingSteps(saved)}`,
      { saved_edits: saved, required: LEARNING_MIN_EXAMPLES },
    );
  }
  const used = await learnProjectPatterns(ctx, projectId);
  const patterns = (await findPatterns(ctx.db, projectId))!.patterns;
  const actions = used + (await countBehaviorLogs(ctx.db, projectId));
  const firstRunAt = ctx.clock.now() + AGENT_FIRST_RUN_DELAY_SECONDS * 1000;
  await saveSettings(
    ctx.db,
    projectId,
    { learningStageCompleted: true, isActive: true, pausedReason: null, nextRunAt: new Date(firstRunAt) },
    now(ctx),
  );
  const started = await queueAgentRun(ctx, projectId, firstRunAt);
  // Each learned trait counts: length, brevity and tone, each sentence pattern and transition phrase.
  const created = 3 + patterns.structure.sentence_patterns.length + patterns.style.transition_phrases.length;
  await writeAgentLog(ctx, projectId, 'other', true, `Learning completed from ${used} saved edits`, {
    patterns_created: created,
  });
  return {
    patterns_created: created,
    total_actions_analyzed: actions,
    continuous_agent_started: started,
    message: started
      ? `Learned from ${used} saved edits. The agent starts in ${AGENT_FIRST_RUN_DELAY_SECONDS} seconds, then runs every 2 hours.`
      : `Learned from ${used} saved edits. Background jobs are off on this server, so the agent runs only with Execute.`,
  };
}

/** Restart learning (after the customer confirmed): patterns forgotten, schedule stopped, learning again. */
export async function restartLearning(ctx: AppContext, projectId: string): Promise<TRestartLearningResponse> {
  const { row } = await stopAgent(ctx, projectId, 'Learning restarted before this DM went', {
    mode: 'agent',
    learningStageCompleted: false,
    pausedReason: null,
    learnedUntil: null,
  });
  await deletePatterns(ctx.db, projectId);
  await writeAgentLog(ctx, projectId, 'other', true, 'Learning restarted: patterns cleared');
  // The saved edits stay: learning again reads them with any saved since.
  const saved = await countExamples(ctx.db, projectId);
  return {
    message:
      saved >= LEARNING_MIN_EXAMPLES
        ? `Patterns cleared. Your ${saved} saved edits still count: edit more DMs if you like, then complete learning again.`
        : `Patterns cleared. Edit and save at least ${LEARNING_MIN_EXAMPLES} DMs (${saved} so far), then complete learning again.`,
    settings: presentSettings(projectId, row, ctx.clock.now()),
  };
}

export async function getPatterns(ctx: AppContext, projectId: string): Promise<TAgentPatternsResponse> {
  const row = await findPatterns(ctx.db, projectId);
  return {
    patterns: row?.patterns ?? null,
    learned_at: row?.learnedAt.toISOString() ?? null,
    examples_used: row?.examplesUsed ?? 0,
  };
}

export async function logBehavior(
  ctx: AppContext,
  projectId: string,
  userId: string,
  actions: { action: TBehaviorAction; metadata: Record<string, unknown> }[],
): Promise<{ logged: number }> {
  const rows = actions.map((a) => ({ projectId, userId, actionType: a.action, metadata: a.metadata }));
  return { logged: await insertBehaviorLogs(ctx.db, rows, now(ctx)) };
}

export async function getBehaviorLogs(
  ctx: AppContext,
  projectId: string,
  query: { action_type?: TBehaviorAction | undefined; limit: number; offset: number },
): Promise<TBehaviorLogsResponse> {
  const page = await listBehaviorLogs(ctx.db, projectId, {
    actionType: query.action_type,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    logs: page.rows.map(presentBehaviorLog),
    total_found: page.total,
    limit: query.limit,
    offset: query.offset,
  };
}

export async function saveMessageExamples(
  ctx: AppContext,
  projectId: string,
  examples: z.output<typeof ZSaveMessageExamplesRequest>['examples'],
): Promise<TSaveMessageExamplesResponse> {
  const at = now(ctx);
  const saved = await insertExamples(
    ctx.db,
    examples.map((e) => ({
      projectId,
      exampleType: 'user_approved',
      finalMessage: e.final_message,
      originalGenerated: e.original_generated,
      originalContext: e.original_context ?? { source_type: 'post', source_id: 'example' },
      postTitle: e.post_title,
      postContent: e.post_content,
      subreddit: e.subreddit,
      createdAt: at,
    })),
  );
  return { saved, total: await countExamples(ctx.db, projectId) };
}

export async function getMessageExamples(
  ctx: AppContext,
  projectId: string,
  page: { limit: number; offset: number },
): Promise<TMessageExampleList> {
  const { rows, total } = await listExamples(ctx.db, projectId, page);
  return { items: rows.map(presentExample), total, limit: page.limit, offset: page.offset };
}

export async function getAgentLogs(
  ctx: AppContext,
  projectId: string,
  query: { activity_type?: TAgentLogType | undefined; limit: number; offset: number },
): Promise<TAgentLogList> {
  const { rows, total } = await listAgentLogs(ctx.db, projectId, {
    activityType: query.activity_type,
    limit: query.limit,
    offset: query.offset,
  });
  return { items: rows.map(presentAgentLog), total, limit: query.limit, offset: query.offset };
}

export async function getAgentStatus(ctx: AppContext, projectId: string): Promise<TAgentStatus> {
  const row: AgentSettingsRow | null = await findSettings(ctx.db, projectId);
  const settings = presentSettings(projectId, row, ctx.clock.now());
  const summary = await agentLogSummary(ctx.db, projectId);
  const recent = await listAgentLogs(ctx.db, projectId, { limit: RECENT_ACTIVITY, offset: 0 });
  return {
    mode: settings.mode,
    is_active: settings.is_active,
    is_running: settings.is_running,
    learning_stage_completed: settings.learning_stage_completed,
    settings,
    recent_activity: recent.rows.map((r) => ({
      activity_type: r.success ? 'operation_completed' : 'error',
      timestamp: r.createdAt.toISOString(),
      message: r.message,
    })),
    operations_completed: summary.succeeded,
    error_count: summary.failed,
    last_activity: summary.last?.toISOString() ?? null,
    paused_reason: settings.paused_reason,
    next_run_at: settings.next_run_at,
    daily_summary: await dailySummary(ctx, projectId),
  };
}

/** Today's sends (UTC day of ctx.clock): to whom, from which account, and whether they answered. */
async function dailySummary(ctx: AppContext, projectId: string): Promise<TAgentDailySummary> {
  const dayStart = Math.floor(ctx.clock.now() / 86_400_000) * 86_400_000;
  const sent = await sentSince(ctx.db, projectId, new Date(dayStart), AGENT_SUMMARY_MESSAGES_MAX);
  return {
    date: new Date(dayStart).toISOString().slice(0, 10),
    sent: sent.total,
    replies: sent.replies,
    messages: sent.rows.map((r) => ({
      dm_id: r.id,
      recipient_username: r.recipient,
      account_username: r.account,
      sent_at: (r.sentAt ?? new Date(dayStart)).toISOString(),
      replied_at: r.repliedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Pauses the project's agent with the reason it shows, taking back its queued sends. They say the pause's
 * reason, or `unqueued` when the DMs have one of their own (a lapsed plan's, as the send job gives it).
 */
export async function pauseAgent(
  ctx: AppContext,
  projectId: string,
  reason: string,
  unqueued?: { code: TSendOutcomeCode; reason: string },
): Promise<number> {
  const { cancelled } = await stopAgent(
    ctx,
    projectId,
    unqueued?.reason ?? reason,
    { pausedReason: reason },
    unqueued?.code,
  );
  await writeAgentLog(ctx, projectId, 'error', false, reason, { sends_cancelled: cancelled });
  return cancelled;
}
