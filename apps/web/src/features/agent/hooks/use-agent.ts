import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { AGENT_TEXTS, type TAgentMode, type TAgentSettings } from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { getAgentSettings, getAgentStatus, toggleAgentMode } from '../api/agent.api';

/** Step 5's status and logs reload this often (spec section 9). */
export const AGENT_REFRESH_MS = 30_000;

export const agentKeys = {
  all: (projectId: string) => ['agent', projectId] as const,
  settings: (projectId: string) => ['agent', projectId, 'settings'] as const,
  status: (projectId: string) => ['agent', projectId, 'status'] as const,
  patterns: (projectId: string) => ['agent', projectId, 'patterns'] as const,
  activity: (projectId: string, page: number) => ['agent', projectId, 'activity', page] as const,
  behavior: (projectId: string) => ['agent', projectId, 'behavior'] as const,
};

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

export function useAgentSettings(projectId: string) {
  return useQuery({
    queryKey: agentKeys.settings(projectId),
    queryFn: () => getAgentSettings(projectId),
  });
}

export function useAgentStatus(projectId: string) {
  return useQuery({
    queryKey: agentKeys.status(projectId),
    queryFn: () => getAgentStatus(projectId),
    refetchInterval: AGENT_REFRESH_MS,
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
    onError: (error) =>
      notifications.show({ color: 'red', message: errorMessage(error, AGENT_TEXTS.toggleFailed) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all(projectId) }),
  });
}
