import type { ReactNode } from 'react';
import { Box, Paper, Stack, Text } from '@mantine/core';
import { isAgentRunning, useAgentSettings } from '../hooks/use-agent';
import { StopAgentButton } from './stop-agent-button';

export interface TAgentOverlayProps {
  projectId: string;
  /** Owners and admins may stop the agent. */
  readOnly: boolean;
  children: ReactNode;
}

/**
 * While the agent runs on its own, what it works with (accounts, the project's content) is dimmed and
 * out of reach under 'Agent is running autonomously', with Stop Agent to take over again.
 */
export function AgentOverlay({ projectId, readOnly, children }: TAgentOverlayProps) {
  const settings = useAgentSettings(projectId);
  if (!settings.data || !isAgentRunning(settings.data)) return children;
  return (
    <Box pos="relative">
      <Box inert aria-hidden style={{ opacity: 0.4, filter: 'grayscale(0.6)', pointerEvents: 'none' }}>
        {children}
      </Box>
      <Box pos="absolute" inset={0} style={{ zIndex: 2 }}>
        <Paper
          withBorder
          shadow="md"
          p="lg"
          radius="md"
          role="region"
          aria-label="Agent is running autonomously"
          maw={420}
          mx="auto"
          mt="xl"
          style={{ position: 'sticky', top: 16 }}
        >
          <Stack gap="sm" align="center">
            <Text fw={700} size="lg">
              Agent is running autonomously
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              It finds, writes and sends DMs on its schedule. Its activity is in step 5.
            </Text>
            <StopAgentButton projectId={projectId} readOnly={readOnly} />
          </Stack>
        </Paper>
      </Box>
    </Box>
  );
}
