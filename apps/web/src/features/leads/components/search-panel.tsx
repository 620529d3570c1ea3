import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  plural,
  NO_APPROVED_KEYWORDS,
  NO_APPROVED_SUBREDDITS,
  NO_SEARCH_TYPE,
  SEARCH_RUNNING,
  type TSearchStatus,
} from '@threadreach/contract';
import { RunProgress } from '../../../components/ui/run-progress';
import { ApiError, ContractMismatchError } from '../../../lib/api-error';
import { localPrefs, type TSearchTypes } from '../../../lib/local-prefs';
import { useSearch } from '../hooks/use-leads';
import { KeywordFilteringSwitch } from './keyword-filtering-switch';

/** Texts of spec section 8, "Workflow", for starting a search. */
export const SEARCH_MESSAGES = {
  startError: 'Error starting post search',
  unexpected: 'Unexpected response from server',
  enhancedFailed: (reason: string) => `Enhanced search failed: ${reason}`,
  searching: 'Searching...',
} as const;

/** The server's own texts for a search that cannot run yet: shown as they are. */
const PRECONDITION_TEXTS: readonly string[] = [NO_APPROVED_KEYWORDS, NO_APPROVED_SUBREDDITS];

function completedText(status: TSearchStatus): string {
  const r = status.result;
  if (!r) return 'Search completed';
  return `Search completed: ${plural(r.posts_found, 'post')} and ${plural(r.comments_found, 'comment')} found`;
}

function startFailureText(error: unknown): string {
  if (error instanceof ContractMismatchError) return SEARCH_MESSAGES.unexpected;
  if (error instanceof ApiError) {
    if (error.detail && PRECONDITION_TEXTS.includes(error.detail)) return error.detail;
    if (error.status === 0) return `${SEARCH_MESSAGES.startError}: ${error.message}`;
    return SEARCH_MESSAGES.enhancedFailed(error.message);
  }
  return SEARCH_MESSAGES.startError;
}

interface TSearchPanelProps {
  projectId: string;
  readOnly: boolean;
  withoutKeywords: boolean;
}

/** Search settings (Posts, Comments; Users stays off), keyword filtering, and a search now with its progress. */
export function SearchPanel({ projectId, readOnly, withoutKeywords }: TSearchPanelProps) {
  // Kept per project, as the results' order is.
  const [types, setTypes] = useState<TSearchTypes>(
    () => localPrefs.getSearchTypes(projectId) ?? { posts: true, comments: true },
  );
  const { posts, comments } = types;
  const choose = (change: Partial<TSearchTypes>) => {
    const next = { ...types, ...change };
    setTypes(next);
    localPrefs.setSearchTypes(projectId, next);
  };
  const [notice, setNotice] = useState<{ color: 'red' | 'yellow'; message: string } | null>(null);
  const { polling, start } = useSearch(projectId, (status) =>
    notifications.show({ color: 'green', message: completedText(status) }),
  );
  const state = polling.state;

  const search = async () => {
    setNotice(null);
    if (!posts && !comments) {
      setNotice({ color: 'yellow', message: NO_SEARCH_TYPE });
      return;
    }
    try {
      const answer = await start.mutateAsync({ posts, comments });
      if (answer?.data?.status !== 'started') {
        setNotice({ color: 'red', message: SEARCH_MESSAGES.unexpected });
        return;
      }
      polling.watch();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setNotice({ color: 'yellow', message: SEARCH_RUNNING });
        polling.watch();
        return;
      }
      setNotice({ color: 'red', message: startFailureText(error) });
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Search settings">
      <Stack gap="sm">
        <Text fw={600}>Search settings</Text>
        <Group gap="lg">
          <Checkbox
            label="Posts"
            checked={posts}
            disabled={readOnly}
            onChange={(e) => choose({ posts: e.currentTarget.checked })}
          />
          <Checkbox
            label="Comments"
            checked={comments}
            disabled={readOnly}
            onChange={(e) => choose({ comments: e.currentTarget.checked })}
          />
          <Checkbox label="Users" checked={false} disabled onChange={() => {}} />
        </Group>
        <KeywordFilteringSwitch projectId={projectId} readOnly={readOnly} withoutKeywords={withoutKeywords} />
        <Group>
          <Button
            onClick={() => void search()}
            loading={start.isPending}
            disabled={readOnly || polling.running}
          >
            Search
          </Button>
          <Text size="xs" c="dimmed">
            Reads the newest posts and comments of your approved subreddits now. New ones are also found every
            minute on their own.
          </Text>
        </Group>
        {state.kind === 'running' && (
          <RunProgress
            label={SEARCH_MESSAGES.searching}
            progress={state.status?.progress}
            durationSeconds={state.status?.duration_seconds}
            showCounts
          />
        )}
        {state.kind === 'error' && (
          <Alert color="red" role="alert">
            {state.message}
          </Alert>
        )}
        {notice && (
          <Alert color={notice.color} role="alert">
            {notice.message}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
