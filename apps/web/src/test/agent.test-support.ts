import {
  agentEndpoints,
  DEFAULT_AGENT_SETTINGS,
  type TAgentSettings,
  type TAgentStatus,
  type TLearningPatterns,
} from '@threadreach/contract';
import { mockEndpoint } from './api-mock.test-support';
import { page } from './discovery.test-support';

export function buildAgentSettings(overrides: Partial<TAgentSettings> = {}): TAgentSettings {
  return {
    ...DEFAULT_AGENT_SETTINGS,
    working_days: [...DEFAULT_AGENT_SETTINGS.working_days],
    project_id: '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d',
    paused_reason: null,
    next_run_at: null,
    last_run_at: null,
    ...overrides,
  };
}

/** Settings of an agent that learned and runs on its schedule. */
export function runningAgentSettings(overrides: Partial<TAgentSettings> = {}): TAgentSettings {
  return buildAgentSettings({
    mode: 'agent',
    learning_stage_completed: true,
    is_active: true,
    next_run_at: '2026-11-27T12:00:05.000Z',
    ...overrides,
  });
}

export function buildAgentStatus(overrides: Partial<TAgentStatus> = {}): TAgentStatus {
  const settings = overrides.settings ?? buildAgentSettings();
  return {
    mode: settings.mode,
    is_active: settings.is_active,
    is_running: settings.is_running,
    learning_stage_completed: settings.learning_stage_completed,
    settings,
    recent_activity: [],
    operations_completed: 0,
    error_count: 0,
    last_activity: null,
    paused_reason: settings.paused_reason,
    next_run_at: settings.next_run_at,
    daily_summary: { date: '2026-11-27', sent: 0, replies: 0, messages: [] },
    ...overrides,
  };
}

export function buildPatterns(): TLearningPatterns {
  return {
    structure: {
      preferred_length: 180,
      avg_sentence_count: 3.3,
      sentence_patterns: [
        { position: 'opening', type: 'greeting', description: 'Opens with a greeting', frequency: 1 },
      ],
      confidence: 0.6,
      sample_size: 3,
    },
    style: {
      brevity_level: 'brief',
      transition_phrases: ['by the way', 'also', 'anyway', 'honestly', 'so'],
      confidence: 0.5,
      sample_size: 3,
    },
    tone: {
      dominant_tone: 'friendly',
      formality_score: 0.3,
      enthusiasm_level: 'medium',
      confidence: 0.7,
      sample_size: 3,
    },
  };
}

/**
 * The agent endpoints every screen with step 4 or the workspace reads: assistant mode by default, no
 * saved edits, and behaviour logs taken.
 */
export function mockAgentAtRest(settings: TAgentSettings = buildAgentSettings()) {
  return {
    settings: mockEndpoint(agentEndpoints.getSettings, ({ params }) => ({
      ...settings,
      project_id: params.projectId,
    })),
    examples: mockEndpoint(agentEndpoints.listMessageExamples, page([], 0, 1)),
    behavior: mockEndpoint(agentEndpoints.logBehavior, { logged: 1 }),
  };
}
