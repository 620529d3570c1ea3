import { useEffect } from 'react';
import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { AGENT_TEXTS } from '@threadreach/contract';
import { isAgentRunning, useAgentSettings, useReloadOnAgentRuns } from '../hooks/use-agent';
import { RestartLearningButton } from './restart-learning-button';
import { StopAgentButton } from './stop-agent-button';

export interface TAgentOverlayProps {
  projectId: string;
  /** Owners and admins may stop the agent and restart its learning. */
  readOnly: boolean;
  /** Told whether the agent runs, so the page dims and disables what lies under the overlay. */
  onCover: (covered: boolean) => void;
}

/**
 * While the agent runs on its own, 'Agent is running autonomously' lies over what it works with (the
 * accounts, the project's content), with Stop Agent to take over again and Restart Learning to teach it
 * afresh. It is drawn beside that content, never around it, so loading it never remounts a form being
 * filled in. What lies under it, and step 5, is read again each time a run starts or ends.
 */
export function AgentOverlay({ projectId, readOnly, onCover }: TAgentOverlayProps) {
  const settings = useAgentSettings(projectId);
  useReloadOnAgentRuns(projectId, settings.data);
  const running = Boolean(settings.data && isAgentRunning(settings.data));
  useEffect(() => {
    onCover(running);
    return () => onCover(false);
  }, [running, onCover]);
  if (!running) return null;
  return (
    <Box pos="absolute" inset={0} style={{ zIndex: 2 }}>
      <Paper
        withBorder
        shadow="md"
        p="lg"
        radius="md"
        role="region"
        aria-label={AGENT_TEXTS.runningAutonomously}
        maw={420}
        mx="auto"
        mt="xl"
        style={{ position: 'sticky', top: 16 }}
      >
        <Stack gap="sm" align="center">
          <Text fw={700} size="lg">
            {AGENT_TEXTS.runningAutonomously}
          </Text>
          <Text size="sm" c="dimmed" ta="center">
            It finds, writes and sends DMs on its schedule. Its activity is in step 5.
          </Text>
          <Group gap="xs" justify="center">
            <RestartLearningButton projectId={projectId} readOnly={readOnly} />
            <StopAgentButton projectId={projectId} readOnly={readOnly} />
          </Group>
        </Stack>
      </Paper>
    </Box>
  );
}
