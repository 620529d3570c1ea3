import { useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AGENT_TEXTS, LEARNING_MIN_EXAMPLES, type TAgentSettings } from '@threadreach/contract';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { settingsSummary, when } from '../agent-format';
import {
  isAgentRunning,
  useAgentPatterns,
  useAgentSettings,
  useCompleteLearning,
  useSavedEditsCount,
  useToggleAgentMode,
} from '../hooks/use-agent';
import { AgentSettingsDialog } from './agent-settings-dialog';
import { LearningPatternsViewer } from './learning-patterns-viewer';
import { RestartLearningButton } from './restart-learning-button';

export interface TAgentModePanelProps {
  projectId: string;
  /** Owners and admins may change the agent; everyone else only reads it. */
  readOnly: boolean;
}

/** 'Not enough training data!' comes with its explanation and steps after it in the detail. */
function trainingStepsOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.detail) return null;
  return error.detail.replace(AGENT_TEXTS.notEnoughTrainingData, '').trim();
}

/** The explanation, then its numbered steps ("1. … 2. …") as an ordered list. */
function TrainingSteps({ text }: { text: string }) {
  const [intro, ...items] = text.split(/\s+(?=\d+\. \p{Lu})/u);
  return (
    <Stack gap={4}>
      <Text size="sm">{intro}</Text>
      {items.length > 0 && (
        <List type="ordered" size="sm">
          {items.map((item) => (
            <List.Item key={item}>{item.replace(/^\d+\. /, '')}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function LearningPanel({ projectId, readOnly }: TAgentModePanelProps) {
  const saved = useSavedEditsCount(projectId);
  const complete = useCompleteLearning(projectId);
  const count = saved.data ?? 0;
  const steps = trainingStepsOf(complete.error);
  const finish = () =>
    complete.mutate(undefined, {
      onError: (error) => {
        if (trainingStepsOf(error) === null)
          notifications.show({ color: 'red', message: errorMessage(error, 'Error completing learning') });
        // More edits may have been saved meanwhile.
        void saved.refetch();
      },
    });
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Learning">
      <Stack gap="xs">
        <Text fw={600}>Learning how you write</Text>
        <Text size="sm" c="dimmed">
          Edit the drafts below the way you would write them and save them. Once {LEARNING_MIN_EXAMPLES} edits
          are saved, complete learning: the agent then finds, writes and sends on its own every 2 hours. The
          drafts you save are the first the agent sends once learning is complete.
        </Text>
        <Group gap="sm" align="center">
          <Progress
            value={Math.min(100, (count / LEARNING_MIN_EXAMPLES) * 100)}
            w={200}
            aria-label="Saved edits"
          />
          <Text size="sm" aria-live="polite">
            Saved edits: {saved.isPending ? '…' : count} / {LEARNING_MIN_EXAMPLES}
          </Text>
        </Group>
        {steps !== null && (
          <Alert color="yellow" role="alert" title={AGENT_TEXTS.notEnoughTrainingData}>
            <TrainingSteps text={steps} />
          </Alert>
        )}
        <Group>
          <Button onClick={finish} loading={complete.isPending} disabled={readOnly}>
            Complete Learning
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Patterns({ projectId }: { projectId: string }) {
  const patterns = useAgentPatterns(projectId);
  if (patterns.isPending) {
    return (
      <Center py="sm">
        <Loader size="sm" aria-label="Loading learning patterns" />
      </Center>
    );
  }
  if (patterns.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(patterns.error, 'Error loading learning patterns')}
      </Alert>
    );
  }
  if (!patterns.data.patterns) {
    return (
      <Text size="sm" c="dimmed">
        Learning patterns appear here shortly after learning completes.
      </Text>
    );
  }
  return (
    <LearningPatternsViewer
      patterns={patterns.data.patterns}
      learnedAt={patterns.data.learned_at}
      examplesUsed={patterns.data.examples_used}
    />
  );
}

/**
 * A paused agent's reason ends with what starts it again ("complete learning again"): the button is here,
 * so restarting needs neither Restart Learning (which forgets the patterns) nor Stop Agent.
 */
function PausedAgent({ projectId, readOnly, reason }: TAgentModePanelProps & { reason: string }) {
  const complete = useCompleteLearning(projectId);
  const resume = () =>
    complete.mutate(undefined, {
      onError: (error) =>
        notifications.show({ color: 'red', message: errorMessage(error, 'Error completing learning') }),
    });
  return (
    <Alert color="orange" role="alert" title="The agent paused itself">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{reason}</Text>
        <Button size="compact-sm" onClick={resume} loading={complete.isPending} disabled={readOnly}>
          Complete Learning
        </Button>
      </Stack>
    </Alert>
  );
}

function AgentState({ settings, projectId, readOnly }: TAgentModePanelProps & { settings: TAgentSettings }) {
  if (settings.paused_reason) {
    return <PausedAgent projectId={projectId} readOnly={readOnly} reason={settings.paused_reason} />;
  }
  return (
    <Text size="sm">
      {isAgentRunning(settings)
        ? `The agent is running: next run ${when(settings.next_run_at)}, last run ${when(settings.last_run_at)}.`
        : 'The agent is not running.'}
    </Text>
  );
}

/**
 * Step 4's agent controls: the AI mode toggle, the current agent settings with their dialog, the learning
 * panel while the agent learns, and, once it has learned, what it learned, Restart Learning and Stop Agent.
 */
export function AgentModePanel({ projectId, readOnly }: TAgentModePanelProps) {
  const settings = useAgentSettings(projectId);
  const toggle = useToggleAgentMode(projectId);
  const [editing, setEditing] = useState(false);

  if (settings.isPending) {
    return (
      <Center py="sm">
        <Loader size="sm" aria-label="Loading agent settings" />
      </Center>
    );
  }
  if (settings.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(settings.error, 'Error loading agent settings')}
      </Alert>
    );
  }
  const current = settings.data;
  const agentMode = current.mode === 'agent';

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="AI mode">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={3}>{agentMode ? 'AI Agent' : 'AI Assistant'}</Title>
            <Text size="sm" c="dimmed">
              {agentMode
                ? 'The agent learns from your edits, then finds, writes and sends DMs on a schedule.'
                : 'You review, edit and send every DM yourself.'}
            </Text>
          </Stack>
          <Switch
            label="AI Agent mode"
            checked={agentMode}
            disabled={readOnly || toggle.isPending}
            onChange={(e) => toggle.mutate(e.currentTarget.checked ? 'agent' : 'assistant')}
          />
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="sm" aria-label="Current agent settings">
            <Text span fw={600} size="sm">
              Current agent settings:
            </Text>{' '}
            {settingsSummary(current)}
          </Text>
          <Button variant="default" size="compact-sm" onClick={() => setEditing(true)} disabled={readOnly}>
            Agent Settings
          </Button>
        </Group>
        {agentMode && !current.learning_stage_completed && (
          <LearningPanel projectId={projectId} readOnly={readOnly} />
        )}
        {agentMode && current.learning_stage_completed && (
          <>
            <AgentState settings={current} projectId={projectId} readOnly={readOnly} />
            <Patterns projectId={projectId} />
          </>
        )}
        {agentMode && (
          <Group gap="xs">
            {current.learning_stage_completed && (
              <RestartLearningButton projectId={projectId} readOnly={readOnly} disabled={toggle.isPending} />
            )}
            <Button
              color="red"
              variant="light"
              onClick={() => toggle.mutate('assistant')}
              loading={toggle.isPending}
              disabled={readOnly}
            >
              Stop Agent
            </Button>
          </Group>
        )}
      </Stack>
      <AgentSettingsDialog
        projectId={projectId}
        settings={current}
        opened={editing}
        readOnly={readOnly}
        onClose={() => setEditing(false)}
      />
    </Paper>
  );
}
