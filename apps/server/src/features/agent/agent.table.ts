import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TAgentLogType, TAgentMode, TBehaviorAction, TLearningPatterns } from '@threadreach/contract';
import { projects } from '../projects/projects.table';
import { users } from '../users/users.table';

/**
 * A project's agent (spec section 3 "Agent settings"): mode, learning, the schedule of its runs and the
 * caps it keeps. A row appears on the first change; until then the spec's defaults apply.
 */
export const agentSettings = pgTable('agent_settings', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  mode: text('mode').$type<TAgentMode>().notNull().default('assistant'),
  learningStageCompleted: boolean('learning_stage_completed').notNull().default(false),
  /** The autonomous schedule is on. */
  isActive: boolean('is_active').notNull().default(false),
  dailyDmLimitPerProfile: integer('daily_dm_limit_per_profile').notNull().default(30),
  delayRangeMin: integer('delay_range_min').notNull().default(30),
  delayRangeMax: integer('delay_range_max').notNull().default(120),
  workingDays: integer('working_days')
    .array()
    .notNull()
    .default(sql`ARRAY[1,2,3,4,5]::integer[]`),
  workingHoursStart: integer('working_hours_start').notNull().default(9),
  workingHoursEnd: integer('working_hours_end').notNull().default(17),
  timezone: text('timezone').notNull().default('UTC'),
  /** Leads scoring below this intent are not written to by the agent. */
  minIntentScore: integer('min_intent_score').notNull().default(40),
  /** Why the agent stopped itself; null while it may run. */
  pausedReason: text('paused_reason'),
  /** The lease of the run in progress: set when a run starts, cleared when it ends. */
  runStartedAt: timestamp('run_started_at', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
  /** Saved edits up to this instant have been learned from. */
  learnedUntil: timestamp('learned_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
export type AgentSettingsRow = typeof agentSettings.$inferSelect;

/** What the agent learned of the customer's writing (spec section 3 "Learning patterns"). */
export const agentPatterns = pgTable('agent_patterns', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  patterns: jsonb('patterns').$type<TLearningPatterns>().notNull(),
  examplesUsed: integer('examples_used').notNull(),
  learnedAt: timestamp('learned_at', { withTimezone: true }).notNull(),
});
export type AgentPatternsRow = typeof agentPatterns.$inferSelect;

/** What the customer did with a DM (edited, approved, deleted, sent), for the agent to learn from. */
export const behaviorLogs = pgTable(
  'behavior_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** Who did it: the owner, or an admin on the owner's project. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actionType: text('action_type').$type<TBehaviorAction>().notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('behavior_logs_project_idx').on(t.projectId, t.createdAt)],
);
export type BehaviorLogRow = typeof behaviorLogs.$inferSelect;

/** One step of an autonomous run (spec section 3 "Agent log"). */
export const agentLogs = pgTable(
  'agent_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    activityType: text('activity_type').$type<TAgentLogType>().notNull(),
    success: boolean('success').notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('agent_logs_project_idx').on(t.projectId, t.createdAt)],
);
export type AgentLogRow = typeof agentLogs.$inferSelect;
