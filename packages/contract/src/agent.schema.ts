import { z } from 'zod';
import { ACCOUNT_TIMEZONES } from './accounts.schema';
import { LEARNING_MIN_EXAMPLES, ZDmSourceType, ZLearningPatterns, ZMessageExample } from './ai.schema';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';

/** Spec section 2's overlay while the agent runs. */
const RUNNING_AUTONOMOUSLY = 'Agent is running autonomously';

/** Texts of spec section 8 for agent mode, shown as they are. */
export const AGENT_TEXTS = {
  updateSettingsFailed: 'Error updating agent settings',
  toggleFailed: 'Error toggling agent mode',
  notEnoughTrainingData: 'Not enough training data!',
  /** The explanation and steps that follow 'Not enough training data!'. */
  trainingSteps: (saved: number) =>
    `Agent mode learns how you write from DMs you edited and saved: it needs at least ${LEARNING_MIN_EXAMPLES}, and this project has ${saved}. ` +
    `1. Generate DMs for leads in step 4 (Posts & Messages). ` +
    `2. Edit ${LEARNING_MIN_EXAMPLES - Math.min(saved, LEARNING_MIN_EXAMPLES)} more of them the way you would write them. ` +
    `3. Save your edits, then complete learning again.`,
  runInProgress: 'The agent is already running for this project',
  /** The overlay over the accounts and the project's content while the agent runs. */
  runningAutonomously: RUNNING_AUTONOMOUSLY,
  /** A person's Send or Send All while the agent runs: its schedule sends the project's DMs. */
  stopAgentToSend: `${RUNNING_AUTONOMOUSLY}: it sends this project's DMs on its own schedule. Stop the agent first to send DMs yourself.`,
} as const;

export const AGENT_MODES = ['assistant', 'agent'] as const;
export const ZAgentMode = z.enum(AGENT_MODES, { error: 'mode must be assistant or agent' });
export type TAgentMode = z.infer<typeof ZAgentMode>;

/** Bounds and defaults of spec sections 5 and 9. */
export const AGENT_DAILY_DM_LIMIT_MIN = 1;
export const AGENT_DAILY_DM_LIMIT_MAX = 100;
export const AGENT_DELAY_MIN_FLOOR = 10;
export const AGENT_DELAY_MAX_FLOOR = 30;
/** Message delay bounds of spec section 9 cap both delays. */
export const AGENT_DELAY_CEILING = 3600;
/** The first autonomous run follows the start by 5 s, then one every 2 hours (spec sections 4 and 9). */
export const AGENT_FIRST_RUN_DELAY_SECONDS = 5;
export const AGENT_RUN_INTERVAL_SECONDS = 2 * 60 * 60;
/** Step 5 refreshes the logs this often; the patterns viewer re-reads 2 s after completing. */
export const AGENT_LOGS_REFRESH_SECONDS = 30;
export const AGENT_PATTERNS_REFRESH_MS = 2000;
/** Behaviour logs are fetched 100 at a time (spec section 9). */
export const BEHAVIOR_LOG_LIMIT_DEFAULT = 100;

/**
 * "UTC plus about 25 regions" (spec section 5; the full list is not shown): UTC, the account time zones,
 * and the business hubs of the other continents.
 */
export const AGENT_TIMEZONES = [
  ...ACCOUNT_TIMEZONES,
  'America/Anchorage',
  'America/Phoenix',
  'America/Toronto',
  'America/Mexico_City',
  'America/Sao_Paulo',
  'America/Argentina/Buenos_Aires',
  'Pacific/Honolulu',
  'Europe/Paris',
  'Europe/Madrid',
  'Europe/Amsterdam',
  'Europe/Stockholm',
  'Europe/Warsaw',
  'Europe/Athens',
  'Europe/Moscow',
  'Africa/Johannesburg',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Seoul',
  'Australia/Sydney',
  'Australia/Perth',
  'Pacific/Auckland',
] as const;
export type TAgentTimezone = (typeof AGENT_TIMEZONES)[number];

const failed = (why: string) => `${AGENT_TEXTS.updateSettingsFailed}: ${why}`;

const wholeNumber = (name: string, min: number, max: number) => {
  const error = failed(`${name} must be a whole number from ${min} to ${max}`);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const ZAgentWorkingDays = z
  .array(wholeNumber('working_days', 1, 7), {
    error: failed('working_days must be a list of days 1 (Monday) to 7 (Sunday)'),
  })
  .min(1, { error: failed('select at least one working day') })
  .max(7, { error: failed('working_days must be days 1 (Monday) to 7 (Sunday)') })
  .refine((days) => new Set(days).size === days.length, {
    error: failed('working_days must not repeat a day'),
  });

const editable = {
  daily_dm_limit_per_profile: wholeNumber(
    'daily_dm_limit_per_profile',
    AGENT_DAILY_DM_LIMIT_MIN,
    AGENT_DAILY_DM_LIMIT_MAX,
  ),
  delay_range_min: wholeNumber('delay_range_min', AGENT_DELAY_MIN_FLOOR, AGENT_DELAY_CEILING),
  delay_range_max: wholeNumber('delay_range_max', AGENT_DELAY_MAX_FLOOR, AGENT_DELAY_CEILING),
  working_days: ZAgentWorkingDays,
  working_hours_start: wholeNumber('working_hours_start', 0, 23),
  working_hours_end: wholeNumber('working_hours_end', 0, 23),
  timezone: z.enum(AGENT_TIMEZONES, {
    error: failed(`timezone must be one of ${AGENT_TIMEZONES.join(', ')}`),
  }),
  /** The agent writes only to leads whose intent score reaches this (0-100). */
  min_intent_score: wholeNumber('min_intent_score', 0, 100),
};

export const AGENT_DELAY_ORDER_ERROR = failed('delay_range_min must not be greater than delay_range_max');

/** Spec section 9's defaults, which every project starts with. */
export const DEFAULT_AGENT_SETTINGS = {
  mode: 'assistant',
  learning_stage_completed: false,
  is_active: false,
  is_running: false,
  daily_dm_limit_per_profile: 30,
  delay_range_min: 30,
  delay_range_max: 120,
  working_days: [1, 2, 3, 4, 5],
  working_hours_start: 9,
  working_hours_end: 17,
  timezone: 'UTC',
  min_intent_score: 40,
} as const;

/** A project's agent settings (spec section 3), with why the agent paused itself if it did. */
export const ZAgentSettings = z
  .object({
    project_id: z.string(),
    mode: ZAgentMode,
    learning_stage_completed: z.boolean(),
    /** The autonomous schedule is on. */
    is_active: z.boolean(),
    /** A run is in progress right now. */
    is_running: z.boolean(),
    ...editable,
    /** Why the agent stopped itself (e.g. Reddit refusing its accounts' messages); null while it may run. */
    paused_reason: z.string().nullable(),
    next_run_at: ZIsoDateTime.nullable(),
    last_run_at: ZIsoDateTime.nullable(),
  })
  .meta({ id: 'AgentSettings' });
export type TAgentSettings = z.infer<typeof ZAgentSettings>;

/**
 * What GET agent-settings answers besides the settings: a client may send the settings back (all but
 * project_id, which the path names), and these are not read (the mode changes with toggle-mode, the
 * schedule with learning and Stop Agent).
 */
const readBackOnly = {
  mode: ZAgentMode.optional(),
  learning_stage_completed: z.boolean().optional(),
  is_active: z.boolean().optional(),
  is_running: z.boolean().optional(),
  paused_reason: z.string().max(2000).nullable().optional(),
  next_run_at: z.string().max(100).nullable().optional(),
  last_run_at: z.string().max(100).nullable().optional(),
};

/** POST agent-settings: the settings to change; fields left out keep their value. */
export const ZUpdateAgentSettingsRequest = z
  .object({
    ...readBackOnly,
    daily_dm_limit_per_profile: editable.daily_dm_limit_per_profile.optional(),
    delay_range_min: editable.delay_range_min.optional(),
    delay_range_max: editable.delay_range_max.optional(),
    working_days: editable.working_days.optional(),
    working_hours_start: editable.working_hours_start.optional(),
    working_hours_end: editable.working_hours_end.optional(),
    timezone: editable.timezone.optional(),
    min_intent_score: editable.min_intent_score.optional(),
  })
  .refine(
    (s) =>
      s.delay_range_min === undefined ||
      s.delay_range_max === undefined ||
      s.delay_range_min <= s.delay_range_max,
    { error: AGENT_DELAY_ORDER_ERROR, path: ['delay_range_max'] },
  );
export type TUpdateAgentSettingsRequest = z.input<typeof ZUpdateAgentSettingsRequest>;

/** POST toggle-mode: without a body the mode flips; with `mode`, it is set (the same mode twice is a no-op). */
export const ZToggleModeRequest = z
  .object({
    mode: z.enum(AGENT_MODES, { error: `${AGENT_TEXTS.toggleFailed}: mode must be assistant or agent` }),
  })
  .partial()
  // No body at all arrives as null.
  .nullish();
export type TToggleModeRequest = z.input<typeof ZToggleModeRequest>;

export const ZToggleModeResponse = z.object({
  mode: ZAgentMode,
  message: z.string(),
  /** Queued sends of the agent that stopping it took back. */
  sends_cancelled: z.number().int(),
  settings: ZAgentSettings,
});
export type TToggleModeResponse = z.infer<typeof ZToggleModeResponse>;

/** What one autonomous run did (spec section 7's operation_result). */
export const ZOperationResult = z
  .object({
    status: z.enum(['completed', 'skipped', 'failed']),
    reason: z.string().nullable(),
    searches_performed: z.number().int(),
    posts_found: z.number().int(),
    comments_found: z.number().int(),
    profiles_found: z.number().int(),
    messages_generated: z.number().int(),
    /** DMs of the agent delivered since the previous run: sends are paced, so they go between runs. */
    messages_sent: z.number().int(),
    /** DMs this run handed to the sending queue. */
    messages_queued: z.number().int(),
    /** Whether the drafts were written with learned patterns. */
    patterns_applied: z.boolean(),
  })
  .meta({ id: 'OperationResult' });
export type TOperationResult = z.infer<typeof ZOperationResult>;

export const ZExecuteAgentResponse = z.object({ operation_result: ZOperationResult });
export type TExecuteAgentResponse = z.infer<typeof ZExecuteAgentResponse>;

export const ZRestartLearningResponse = z.object({ message: z.string(), settings: ZAgentSettings });
export type TRestartLearningResponse = z.infer<typeof ZRestartLearningResponse>;

export const ZCompleteLearningResponse = z.object({
  patterns_created: z.number().int(),
  total_actions_analyzed: z.number().int(),
  continuous_agent_started: z.boolean(),
  message: z.string(),
});
export type TCompleteLearningResponse = z.infer<typeof ZCompleteLearningResponse>;

/** GET patterns: what was learned, or null while learning. */
export const ZAgentPatternsResponse = z.object({
  patterns: ZLearningPatterns.nullable(),
  learned_at: ZIsoDateTime.nullable(),
  examples_used: z.number().int(),
});
export type TAgentPatternsResponse = z.infer<typeof ZAgentPatternsResponse>;

/** What the customer did in step 4 that the agent learns from. */
export const BEHAVIOR_ACTIONS = [
  'message_edited',
  'message_approved',
  'message_deleted',
  'message_sent',
] as const;
export const ZBehaviorAction = z.enum(BEHAVIOR_ACTIONS, {
  error: `action must be one of ${BEHAVIOR_ACTIONS.join(', ')}`,
});
export type TBehaviorAction = z.infer<typeof ZBehaviorAction>;

const METADATA_MAX_CHARS = 4000;
/** Free-form details of an action (the DM id, its texts before and after), kept small. */
const ZBehaviorMetadata = z
  .record(ZText().max(100), z.unknown())
  .default({})
  .refine((m) => JSON.stringify(m).length <= METADATA_MAX_CHARS, {
    error: `metadata must be at most ${METADATA_MAX_CHARS} characters of JSON`,
  })
  .refine((m) => !/\\u0000/.test(JSON.stringify(m)), { error: 'metadata must not hold NUL characters' });

export const ZBehaviorEntry = z.object({ action: ZBehaviorAction, metadata: ZBehaviorMetadata });
export const ZLogBehaviorRequest = ZBehaviorEntry;
export type TLogBehaviorRequest = z.input<typeof ZLogBehaviorRequest>;
export const BEHAVIOR_BATCH_MAX = 100;
export const ZLogBehaviorBatchRequest = z.object({
  actions: z
    .array(ZBehaviorEntry)
    .min(1, { error: 'actions must not be empty' })
    .max(BEHAVIOR_BATCH_MAX, { error: `At most ${BEHAVIOR_BATCH_MAX} actions at once` }),
});
export type TLogBehaviorBatchRequest = z.input<typeof ZLogBehaviorBatchRequest>;
export const ZLogBehaviorResponse = z.object({ logged: z.number().int() });
export type TLogBehaviorResponse = z.infer<typeof ZLogBehaviorResponse>;

export const ZBehaviorLog = z
  .object({
    id: z.string(),
    action_type: ZBehaviorAction,
    metadata: z.record(z.string(), z.unknown()),
    user_id: z.string(),
    timestamp: ZIsoDateTime,
  })
  .meta({ id: 'BehaviorLog' });
export type TBehaviorLog = z.infer<typeof ZBehaviorLog>;

export const ZBehaviorLogsQuery = ZPageQuery.extend({ action_type: ZBehaviorAction.optional() });
export type TBehaviorLogsQuery = z.input<typeof ZBehaviorLogsQuery>;
/** GET behavior-logs (spec section 7: logs, total_found), with the page it is. */
export const ZBehaviorLogsResponse = z.object({
  logs: z.array(ZBehaviorLog),
  total_found: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TBehaviorLogsResponse = z.infer<typeof ZBehaviorLogsResponse>;

/** POST message-examples: examples of the customer's writing given directly (the project is the path's). */
export const ZMessageExampleInput = z.object({
  final_message: ZText().trim().min(1).max(400),
  original_generated: ZText().max(4000).default(''),
  original_context: z
    .object({ source_type: ZDmSourceType, source_id: ZText().trim().min(1).max(120) })
    .optional(),
  post_title: ZText().max(300).nullable().default(null),
  post_content: ZText().max(40_000).nullable().default(null),
  subreddit: ZText().max(50).nullable().default(null),
});
export const ZSaveMessageExamplesRequest = z.object({
  examples: z
    .array(ZMessageExampleInput)
    .min(1, { error: 'examples must not be empty' })
    .max(50, { error: 'At most 50 examples at once' }),
});
export type TSaveMessageExamplesRequest = z.input<typeof ZSaveMessageExamplesRequest>;
export const ZSaveMessageExamplesResponse = z.object({ saved: z.number().int(), total: z.number().int() });
export type TSaveMessageExamplesResponse = z.infer<typeof ZSaveMessageExamplesResponse>;

export const ZMessageExampleItem = ZMessageExample.extend({
  id: z.string(),
  created_at: ZIsoDateTime,
}).meta({ id: 'MessageExampleItem' });
export type TMessageExampleItem = z.infer<typeof ZMessageExampleItem>;
export const ZMessageExamplesQuery = ZPageQuery;
export const ZMessageExampleList = ZPage(ZMessageExampleItem);
export type TMessageExampleList = z.infer<typeof ZMessageExampleList>;

export const AGENT_LOG_TYPES = ['search', 'dm_generation', 'dm_sent', 'error', 'other'] as const;
export const ZAgentLogType = z.enum(AGENT_LOG_TYPES);
export type TAgentLogType = z.infer<typeof ZAgentLogType>;

/** One step of an autonomous run (spec section 3 "Agent log"). */
export const ZAgentLog = z
  .object({
    id: z.string(),
    activity_type: ZAgentLogType,
    success: z.boolean(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
    timestamp: ZIsoDateTime,
  })
  .meta({ id: 'AgentLog' });
export type TAgentLog = z.infer<typeof ZAgentLog>;
export const ZAgentLogsQuery = ZPageQuery.extend({ activity_type: ZAgentLogType.optional() });
export const ZAgentLogList = ZPage(ZAgentLog);
export type TAgentLogList = z.infer<typeof ZAgentLogList>;

/** DMs of a daily summary: at most this many, newest first. */
export const AGENT_SUMMARY_MESSAGES_MAX = 100;

/** What the project sent today (UTC), to whom and from which account, and who answered. */
export const ZAgentDailySummary = z.object({
  date: z.string(),
  sent: z.number().int(),
  replies: z.number().int(),
  messages: z.array(
    z.object({
      dm_id: z.string(),
      recipient_username: z.string(),
      account_username: z.string().nullable(),
      sent_at: ZIsoDateTime,
      replied_at: ZIsoDateTime.nullable(),
    }),
  ),
});
export type TAgentDailySummary = z.infer<typeof ZAgentDailySummary>;

/** GET agent-status: the step 5 overview (spec section 3 "Agent status"), with today's summary. */
export const ZAgentStatus = z
  .object({
    mode: ZAgentMode,
    is_active: z.boolean(),
    is_running: z.boolean(),
    learning_stage_completed: z.boolean(),
    settings: ZAgentSettings,
    recent_activity: z.array(
      z.object({
        activity_type: z.enum(['operation_completed', 'error']),
        timestamp: ZIsoDateTime,
        message: z.string(),
      }),
    ),
    operations_completed: z.number().int(),
    error_count: z.number().int(),
    last_activity: ZIsoDateTime.nullable(),
    paused_reason: z.string().nullable(),
    next_run_at: ZIsoDateTime.nullable(),
    daily_summary: ZAgentDailySummary,
  })
  .meta({ id: 'AgentStatus' });
export type TAgentStatus = z.infer<typeof ZAgentStatus>;
