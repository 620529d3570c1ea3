import {
  DEFAULT_AGENT_SETTINGS,
  type TAgentLog,
  type TAgentSettings,
  type TAgentTimezone,
  type TBehaviorLog,
  type TMessageExampleItem,
} from '@threadreach/contract';
import type { MessageExampleRow } from '../dms/dms.table';
import type { AgentLogRow, AgentSettingsRow, BehaviorLogRow } from './agent.table';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The settings as the API shows them; a project without a row has the spec's defaults. */
export function presentSettings(
  projectId: string,
  row: AgentSettingsRow | null,
  nowMs: number,
): TAgentSettings {
  if (!row) {
    return {
      ...DEFAULT_AGENT_SETTINGS,
      working_days: [...DEFAULT_AGENT_SETTINGS.working_days],
      project_id: projectId,
      paused_reason: null,
      next_run_at: null,
      last_run_at: null,
    };
  }
  return {
    project_id: projectId,
    mode: row.mode,
    learning_stage_completed: row.learningStageCompleted,
    is_active: row.isActive,
    is_running: isRunning(row, nowMs),
    daily_dm_limit_per_profile: row.dailyDmLimitPerProfile,
    delay_range_min: row.delayRangeMin,
    delay_range_max: row.delayRangeMax,
    working_days: row.workingDays,
    working_hours_start: row.workingHoursStart,
    working_hours_end: row.workingHoursEnd,
    timezone: row.timezone as TAgentTimezone,
    min_intent_score: row.minIntentScore,
    paused_reason: row.pausedReason,
    next_run_at: iso(row.nextRunAt),
    last_run_at: iso(row.lastRunAt),
  };
}

/** A run holds its lease this long at most; an older lease belonged to a process that died. */
export const RUN_LEASE_MS = 5 * 60_000;

/** The error of the agent's own search ended because the agent stopped while it waited for Reddit. */
export const AGENT_SEARCH_STOPPED = 'The agent stopped before its search finished; search again now';

export function isRunning(row: AgentSettingsRow, nowMs: number): boolean {
  return row.runStartedAt !== null && row.runStartedAt.getTime() > nowMs - RUN_LEASE_MS;
}

export function presentAgentLog(row: AgentLogRow): TAgentLog {
  return {
    id: row.id,
    activity_type: row.activityType,
    success: row.success,
    message: row.message,
    details: row.details,
    timestamp: row.createdAt.toISOString(),
  };
}

export function presentBehaviorLog(row: BehaviorLogRow): TBehaviorLog {
  return {
    id: row.id,
    action_type: row.actionType,
    metadata: row.metadata,
    user_id: row.userId,
    timestamp: row.createdAt.toISOString(),
  };
}

export function presentExample(row: MessageExampleRow): TMessageExampleItem {
  return {
    id: row.id,
    project_id: row.projectId,
    example_type: 'user_approved',
    final_message: row.finalMessage,
    original_generated: row.originalGenerated,
    original_context: row.originalContext,
    post_title: row.postTitle,
    post_content: row.postContent,
    subreddit: row.subreddit,
    created_at: row.createdAt.toISOString(),
  };
}
