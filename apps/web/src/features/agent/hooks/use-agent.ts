import { useCallback } from 'react';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import {
  AGENT_PATTERNS_REFRESH_MS,
  AGENT_TEXTS,
  BEHAVIOR_LOG_LIMIT_DEFAULT,
  type TAgentMode,
  type TAgentSettings,
  type TBehaviorAction,
  type TUpdateAgentSettingsRequest,
} from '@threadreach/contract';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { logger } from '../../../lib/logger';
import { useOnChange } from '../../../lib/use-on-change';
import {
  completeLearning,
  executeAgent,
  getAgentPatterns,
  getAgentSettings,
  getAgentStatus,
  listAgentActivityLogs,
  listBehaviorLogs,
  listMessageExamples,
  logBehavior,
  restartLearning,
  toggleAgentMode,
  updateAgentSettings,
} from '../api/agent.api';

/** Step 5's status and logs reload this often (spec section 9). */
export const AGENT_REFRESH_MS = 30_000;

export const agentKeys = {
  all: (projectId: string) => ['agent', projectId] as const,
  settings: (projectId: string) => ['agent', projectId, 'settings'] as const,
  status: (projectId: string) => ['agent', projectId, 'status'] as const,
  patterns: (projectId: string) => ['agent', projectId, 'patterns'] as const,
  activity: (projectId: string, page: number) => ['agent', projectId, 'activity', page] as const,
  behavior: (projectId: string) => ['agent', projectId, 'behavior'] as const,
  examples: (projectId: string) => ['agent', projectId, 'examples'] as const,
};

/**
 * The agent changes more than itself: its runs find leads, draft, queue and send DMs, and stopping it takes
 * its queued DMs back. Every query of the project (each feature keys its own [feature, projectId, …]) is
 * asked for again, so the leads, DMs, sending status, accounts' room and counts on screen agree.
 */
function reloadProject(queryClient: QueryClient, projectId: string) {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] === projectId });
}

/** Activity log entries per page of step 5. */
export const AGENT_LOGS_PAGE_SIZE = 20;

/**
 * The agent counts as running when learning is complete and it is active or running (spec section 4);
 * that is when the workspace goes under the overlay.
 */
export function isAgentRunning(
  settings: Pick<TAgentSettings, 'mode' | 'learning_stage_completed' | 'is_active' | 'is_running'>,
): boolean {
  return (
    settings.mode === 'agent' &&
    settings.learning_stage_completed &&
    (settings.is_active || settings.is_running)
  );
}

/** While a run is due or under way, the agent is read again this often, to show its end within seconds. */
export const AGENT_RUN_WATCH_MS = 2_000;
/** For at most this long after the run was due: a longer run shows its end at the next 30 s read. */
export const AGENT_RUN_WATCH_LIMIT_MS = 120_000;

/**
 * When to read the agent again: every AGENT_REFRESH_MS, but a run due sooner is looked for from its due
 * time until it has ended (its successor is then hours away), so its last run does not wait for the next
 * 30 s read. The first run comes 5 s after Complete Learning.
 */
export function agentRefreshMs(
  settings: Pick<
    TAgentSettings,
    'mode' | 'learning_stage_completed' | 'is_active' | 'is_running' | 'next_run_at'
  >,
  nowMs: number,
): number {
  const due = settings.next_run_at ? Date.parse(settings.next_run_at) : NaN;
  if (!isAgentRunning(settings) || Number.isNaN(due)) return AGENT_REFRESH_MS;
  const untilDue = due - nowMs;
  if (untilDue >= AGENT_REFRESH_MS) return AGENT_REFRESH_MS;
  if (untilDue > 0) return untilDue + AGENT_RUN_WATCH_MS;
  return -untilDue < AGENT_RUN_WATCH_LIMIT_MS ? AGENT_RUN_WATCH_MS : AGENT_REFRESH_MS;
}

/** The agent's settings and schedule; while it runs, read again as often as step 5's status. */
export function useAgentSettings(projectId: string) {
  return useQuery({
    queryKey: agentKeys.settings(projectId),
    queryFn: () => getAgentSettings(projectId),
    // Runs change the next and last run under the overlay: without this they stay as first read.
    refetchInterval: (query) =>
      query.state.data && isAgentRunning(query.state.data)
        ? agentRefreshMs(query.state.data, Date.now())
        : false,
  });
}

/**
 * Each time a run of the agent starts or ends (as its schedule, read every 30 s while it runs, shows), the
 * project is read again: the run searched, drafted, queued and sent, so the leads, DMs, sending status,
 * accounts' room and counts on screen follow it instead of waiting for a reload.
 */
export function useReloadOnAgentRuns(projectId: string, settings: TAgentSettings | undefined) {
  const queryClient = useQueryClient();
  const run = settings ? `${settings.is_running} ${settings.last_run_at}` : null;
  useOnChange(run, () => void reloadProject(queryClient, projectId));
}

export function useAgentStatus(projectId: string) {
  return useQuery({
    queryKey: agentKeys.status(projectId),
    queryFn: () => getAgentStatus(projectId),
    refetchInterval: (query) =>
      query.state.data ? agentRefreshMs(query.state.data.settings, Date.now()) : AGENT_REFRESH_MS,
  });
}

/** The AI mode toggle and Stop Agent: agent mode starts learning, assistant mode stops the agent. */
export function useToggleAgentMode(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mode: TAgentMode) => toggleAgentMode(projectId, mode),
    onSuccess: (result) => {
      queryClient.setQueryData(agentKeys.settings(projectId), result.settings);
      notifications.show({ color: 'green', message: result.message });
    },
    onError: (error) => {
      // 'Error toggling agent mode' (spec section 8), with the server's reason under it when there is one.
      const reason = error instanceof ApiError && error.detail ? error.message : null;
      notifications.show(
        reason && reason !== AGENT_TEXTS.toggleFailed
          ? { color: 'red', title: AGENT_TEXTS.toggleFailed, message: reason }
          : { color: 'red', message: AGENT_TEXTS.toggleFailed },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all(projectId) }),
  });
}

export function useUpdateAgentSettings(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateAgentSettingsRequest) => updateAgentSettings(projectId, body),
    onSuccess: (settings) => {
      queryClient.setQueryData(agentKeys.settings(projectId), settings);
      void queryClient.invalidateQueries({ queryKey: agentKeys.status(projectId) });
    },
  });
}

/** How many saved edits the project has to learn from (only the total is read). */
export function useSavedEditsCount(projectId: string) {
  return useQuery({
    queryKey: agentKeys.examples(projectId),
    queryFn: () => listMessageExamples(projectId, { limit: 1, offset: 0 }),
    select: (page) => page.total,
  });
}

export function useAgentPatterns(projectId: string) {
  return useQuery({
    queryKey: agentKeys.patterns(projectId),
    queryFn: () => getAgentPatterns(projectId),
  });
}

/**
 * Complete Learning. The server learns at once; the patterns viewer re-reads 2 s later (spec section 9),
 * when the first run's logs have begun too.
 */
export function useCompleteLearning(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => completeLearning(projectId),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      void queryClient.invalidateQueries({ queryKey: agentKeys.settings(projectId) });
      setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: agentKeys.patterns(projectId) }),
        AGENT_PATTERNS_REFRESH_MS,
      );
    },
  });
}

export function useRestartLearning(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => restartLearning(projectId),
    onSuccess: (result) => {
      queryClient.setQueryData(agentKeys.settings(projectId), result.settings);
      notifications.show({ color: 'green', message: result.message });
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: errorMessage(error, 'Error restarting learning') }),
    // The patterns go, and so do the agent's queued DMs: the sending status, the DMs and the counts change.
    onSettled: () => reloadProject(queryClient, projectId),
  });
}

/** Admins' Run Agent Now: one autonomous run at once, answered with what it did. */
export function useExecuteAgent(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => executeAgent(projectId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all(projectId) }),
  });
}

export function useAgentActivityLogs(projectId: string, page: number) {
  return useQuery({
    queryKey: agentKeys.activity(projectId, page),
    queryFn: () =>
      listAgentActivityLogs(projectId, {
        limit: AGENT_LOGS_PAGE_SIZE,
        offset: (page - 1) * AGENT_LOGS_PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: AGENT_REFRESH_MS,
  });
}

/** The admin panel's edit history: the latest 100 message_edited actions (spec section 7). */
export function useEditBehaviorLogs(projectId: string) {
  return useQuery({
    queryKey: agentKeys.behavior(projectId),
    queryFn: () =>
      listBehaviorLogs(projectId, {
        limit: BEHAVIOR_LOG_LIMIT_DEFAULT,
        offset: 0,
        actionType: 'message_edited',
      }),
  });
}

/**
 * Records what the customer did with a draft, for the agent to learn from. Fire-and-forget: a lost entry
 * must never stand in the customer's way.
 */
export function useLogBehavior(projectId: string) {
  return useCallback(
    (action: TBehaviorAction, metadata: Record<string, unknown>) => {
      logBehavior(projectId, { action, metadata }).catch((error: unknown) =>
        logger.warn('behaviour log not recorded', { action, error: errorMessage(error, 'unknown') }),
      );
    },
    [projectId],
  );
}
