import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { NO_SUBREDDIT_SELECTED, SUBREDDIT_GENERATION_RUNNING, type TSubreddit } from '@threadreach/contract';
import { RunProgress } from '../../../components/ui/run-progress';
import { ApiError, ContractMismatchError, errorMessage } from '../../../lib/api-error';
import { useApproveSubreddits, useSubredditGeneration, useSubreddits } from '../hooks/use-subreddits';
import { formatMembers, formatRelevance } from '../subreddit-names';
import { BulkAddSubreddits } from './bulk-add-subreddits';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useAiBlockReason } from '../../auth';

/** Texts of spec section 8, "Workflow", and this screen's own confirmations. */
export const SUBREDDIT_MESSAGES = {
  startError: 'Error starting subreddit generation',
  unexpected: 'Unexpected response from server',
  approveError: 'Error approving subreddits',
  completed: 'Subreddit generation completed',
  generating: 'Generating subreddits...',
  empty: 'No subreddits yet. Add some above, or use Generate More to get suggestions from your keywords.',
  noneFound:
    'No subreddit was found for your keywords. Add the communities you know above, or change your keywords in step 2 and use Generate More again.',
} as const;

export interface TSubredditsStepProps {
  projectId: string;
  readOnly: boolean;
  /** Generation was just started (Approve & Continue in step 2): show its progress and outcome. */
  watchGeneration: boolean;
  onBack: () => void;
  onSkip: () => void;
  onApproved: () => void;
}

type TNotice = { color: 'red' | 'yellow'; title?: string; message: string };

function SubredditRow({
  subreddit,
  approved,
  disabled,
  onChange,
}: {
  subreddit: TSubreddit;
  approved: boolean;
  disabled: boolean;
  onChange: (approved: boolean) => void;
}) {
  const name = `r/${subreddit.subreddit_name}`;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="subreddit-row">
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Checkbox
          aria-label={name}
          checked={approved}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.checked)}
          mt={2}
        />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>{name}</Text>
            <Badge variant="light" color="gray" tt="none">
              {formatMembers(subreddit.estimated_members)}
            </Badge>
            <Badge variant="light" tt="none">
              {formatRelevance(subreddit.relevance_score)}
            </Badge>
          </Group>
          {subreddit.description && (
            <Text size="sm" c="dimmed" lineClamp={2}>
              {subreddit.description}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** Step 3: subreddits added by hand or suggested, each approved with a checkbox. */
export function SubredditsStep({
  projectId,
  readOnly,
  watchGeneration,
  onBack,
  onSkip,
  onApproved,
}: TSubredditsStepProps) {
  const subreddits = useSubreddits(projectId);
  const [changes, setChanges] = useState<Record<string, boolean>>({});
  const [notice, setNotice] = useState<TNotice | null>(null);
  const [selectionError, setSelectionError] = useState<string | null>(null);
  // A generation that ended here: an empty list after it means none was found, not none asked for yet.
  const [generated, setGenerated] = useState(false);
  const { polling, start } = useSubredditGeneration(projectId, {
    watchFirst: watchGeneration,
    onCompleted: () => {
      setGenerated(true);
      notifications.show({ color: 'green', message: SUBREDDIT_MESSAGES.completed });
    },
  });
  const approve = useApproveSubreddits(projectId);

  const items = subreddits.data?.items ?? [];
  const approvedOf = (s: TSubreddit) => changes[s.id] ?? s.approved;
  const selectedCount = items.filter(approvedOf).length;
  const generating = polling.running;

  const aiBlocked = useAiBlockReason();
  const generateMore = async () => {
    setNotice(null);
    try {
      const answer = await start.mutateAsync();
      if (answer?.data?.status !== 'started') {
        setNotice({ color: 'red', message: SUBREDDIT_MESSAGES.unexpected });
        return;
      }
      polling.watch();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setNotice({ color: 'yellow', message: SUBREDDIT_GENERATION_RUNNING });
        polling.watch();
      } else if (error instanceof ContractMismatchError) {
        setNotice({ color: 'red', message: SUBREDDIT_MESSAGES.unexpected });
      } else {
        setNotice({ color: 'red', title: SUBREDDIT_MESSAGES.startError, message: errorMessage(error, '') });
      }
    }
  };

  const approveAndContinue = () => {
    setNotice(null);
    if (selectedCount === 0) {
      setSelectionError(NO_SUBREDDIT_SELECTED);
      return;
    }
    approve.mutate(
      {
        subreddits: items.map((s) => ({
          id: s.id,
          subreddit_name: s.subreddit_name,
          approved: approvedOf(s),
        })),
      },
      {
        onSuccess: () => onApproved(),
        onError: (error) =>
          setNotice({
            color: 'red',
            title: SUBREDDIT_MESSAGES.approveError,
            message: errorMessage(error, ''),
          }),
      },
    );
  };

  const setApproved = (id: string, approved: boolean) => {
    setChanges((c) => ({ ...c, [id]: approved }));
    if (approved) setSelectionError(null);
  };

  const setAllApproved = (approved: boolean) => {
    setChanges(Object.fromEntries(items.map((s) => [s.id, approved])));
    if (approved) setSelectionError(null);
  };

  const runState = polling.state;

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="md">
        Subreddits
      </Title>
      <Stack gap="md">
        <Text c="dimmed">
          Approve the communities where your buyers ask for help. Only approved subreddits are searched.
        </Text>

        <BulkAddSubreddits projectId={projectId} readOnly={readOnly} />

        <Divider />

        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600}>
              Suggested and added subreddits{' '}
              <Text span size="sm" c="dimmed">
                ({selectedCount} of {items.length} approved)
              </Text>
            </Text>
            {items.length > 0 && (
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  disabled={readOnly || approve.isPending}
                  onClick={() => setAllApproved(true)}
                >
                  Select all
                </Button>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  disabled={readOnly || approve.isPending}
                  onClick={() => setAllApproved(false)}
                >
                  Clear
                </Button>
              </Group>
            )}
          </Group>
          <DisabledReason why={readOnly ? null : aiBlocked}>
            <Button
              variant="light"
              onClick={() => void generateMore()}
              loading={start.isPending}
              disabled={readOnly || aiBlocked !== null || generating}
            >
              Generate More
            </Button>
          </DisabledReason>
        </Group>

        {runState.kind === 'running' && (
          <RunProgress
            label={SUBREDDIT_MESSAGES.generating}
            progress={runState.status?.progress}
            durationSeconds={runState.status?.duration_seconds}
          />
        )}
        {runState.kind === 'error' && (
          <Alert color="red" role="alert">
            {runState.message}
          </Alert>
        )}
        {notice && (
          <Alert color={notice.color} role="alert" title={notice.title}>
            {notice.message || null}
          </Alert>
        )}

        {subreddits.isPending ? (
          <Loader aria-label="Loading subreddits" />
        ) : subreddits.isError ? (
          <Alert color="red" role="alert">
            {subreddits.error.message}
          </Alert>
        ) : items.length === 0 ? (
          // While a generation runs its progress stands in for the empty list.
          !generating &&
          !subreddits.isFetching && (
            <Text size="sm" c="dimmed">
              {generated ? SUBREDDIT_MESSAGES.noneFound : SUBREDDIT_MESSAGES.empty}
            </Text>
          )
        ) : (
          <Stack gap="xs" aria-label="Subreddits" role="list">
            {items.map((s) => (
              <div role="listitem" key={s.id}>
                <SubredditRow
                  subreddit={s}
                  approved={approvedOf(s)}
                  disabled={readOnly || approve.isPending}
                  onChange={(approved) => setApproved(s.id, approved)}
                />
              </div>
            ))}
          </Stack>
        )}

        {selectionError && (
          <Alert color="yellow" role="alert">
            {selectionError}
          </Alert>
        )}

        <Group justify="space-between">
          <Button variant="default" onClick={onBack}>
            Back
          </Button>
          <Group gap="xs">
            <Button variant="subtle" onClick={onSkip}>
              Skip to Posts
            </Button>
            <Button
              onClick={approveAndContinue}
              loading={approve.isPending}
              disabled={readOnly || !subreddits.isSuccess}
            >
              Approve &amp; Continue
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
