import {
  agentEndpoints,
  type TAgentLogList,
  type TAgentLogType,
  type TAgentMode,
  type TAgentPatternsResponse,
  type TAgentSettings,
  type TAgentStatus,
  type TBehaviorAction,
  type TBehaviorLogsResponse,
  type TCompleteLearningResponse,
  type TExecuteAgentResponse,
  type TLogBehaviorRequest,
  type TLogBehaviorResponse,
  type TMessageExampleList,
  type TRestartLearningResponse,
  type TToggleModeResponse,
  type TUpdateAgentSettingsRequest,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export function getAgentSettings(projectId: string): Promise<TAgentSettings> {
  return call(agentEndpoints.getSettings, { params: { projectId } });
}

export function updateAgentSettings(
  projectId: string,
  body: TUpdateAgentSettingsRequest,
): Promise<TAgentSettings> {
  return call(agentEndpoints.updateSettings, { params: { projectId }, body });
}

export function toggleAgentMode(projectId: string, mode: TAgentMode): Promise<TToggleModeResponse> {
  return call(agentEndpoints.toggleMode, { params: { projectId }, body: { mode } });
}

export function executeAgent(projectId: string): Promise<TExecuteAgentResponse> {
  return call(agentEndpoints.execute, { params: { projectId } });
}

export function restartLearning(projectId: string): Promise<TRestartLearningResponse> {
  return call(agentEndpoints.restart, { params: { projectId } });
}

export function completeLearning(projectId: string): Promise<TCompleteLearningResponse> {
  return call(agentEndpoints.complete, { params: { projectId } });
}

export function getAgentPatterns(projectId: string): Promise<TAgentPatternsResponse> {
  return call(agentEndpoints.patterns, { params: { projectId } });
}

export function logBehavior(projectId: string, entry: TLogBehaviorRequest): Promise<TLogBehaviorResponse> {
  return call(agentEndpoints.logBehavior, { params: { projectId }, body: entry });
}

export function logBehaviorBatch(
  projectId: string,
  actions: TLogBehaviorRequest[],
): Promise<TLogBehaviorResponse> {
  return call(agentEndpoints.logBehaviorBatch, { params: { projectId }, body: { actions } });
}

export function listMessageExamples(
  projectId: string,
  page: { limit: number; offset: number },
): Promise<TMessageExampleList> {
  return call(agentEndpoints.listMessageExamples, { params: { projectId }, query: page });
}

export function listAgentActivityLogs(
  projectId: string,
  page: { limit: number; offset: number; activityType?: TAgentLogType },
): Promise<TAgentLogList> {
  return call(agentEndpoints.activityLogs, {
    params: { projectId },
    query: {
      limit: page.limit,
      offset: page.offset,
      ...(page.activityType ? { activity_type: page.activityType } : {}),
    },
  });
}

export function getAgentStatus(projectId: string): Promise<TAgentStatus> {
  return call(agentEndpoints.status, { params: { projectId } });
}

export function listBehaviorLogs(
  projectId: string,
  page: { limit: number; offset: number; actionType?: TBehaviorAction },
): Promise<TBehaviorLogsResponse> {
  return call(agentEndpoints.behaviorLogs, {
    params: { projectId },
    query: {
      limit: page.limit,
      offset: page.offset,
      ...(page.actionType ? { action_type: page.actionType } : {}),
    },
  });
}
