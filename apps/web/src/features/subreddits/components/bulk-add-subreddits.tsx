import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import {
  BULK_SUBREDDITS_MAX,
  EMPTY_BULK_SUBREDDITS,
  plural,
  splitSubredditNames,
  type TAddSubredditsBulkResponse,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useAddSubredditsBulk } from '../hooks/use-subreddits';

export const BULK_ERROR_TITLE = 'Error adding subreddits in bulk';
export const TOO_MANY_NAMES = `Add at most ${BULK_SUBREDDITS_MAX} subreddits at once`;

const withPrefix = (names: string[]) => names.map((n) => `r/${n}`).join(', ');

function BulkResult({ result }: { result: TAddSubredditsBulkResponse }) {
  const lines: { label: string; names: string[] }[] = [
    { label: 'Already listed', names: result.already_listed },
    { label: 'Not found on Reddit', names: result.not_found },
    { label: 'Not a subreddit name', names: result.invalid },
  ].filter((l) => l.names.length > 0);
  const problems = result.not_found.length + result.invalid.length > 0;
  return (
    <Alert color={problems ? 'yellow' : 'green'} role="status" title={`Added ${result.added_count}`}>
      <Stack gap={4}>
        {result.added.length > 0 && (
          <Text size="sm">{withPrefix(result.added.map((s) => s.subreddit_name))}</Text>
        )}
        {lines.length > 0 && (
          <List size="sm" spacing={2}>
            {lines.map((l) => (
              <List.Item key={l.label}>
                {l.label}: {l.label === 'Not a subreddit name' ? l.names.join(', ') : withPrefix(l.names)}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}

/** Manual bulk add: names separated by commas or new lines; what Reddit does not know is reported back. */
export function BulkAddSubreddits({ projectId, readOnly }: { projectId: string; readOnly: boolean }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<TAddSubredditsBulkResponse | null>(null);
  const add = useAddSubredditsBulk(projectId);
  const names = splitSubredditNames(text);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (names.length === 0) {
      setError(EMPTY_BULK_SUBREDDITS);
      return;
    }
    if (names.length > BULK_SUBREDDITS_MAX) {
      setError(TOO_MANY_NAMES);
      return;
    }
    add.mutate(names, {
      onSuccess: (answer) => {
        setResult(answer);
        setText('');
      },
      onError: (e) => setFailure(errorMessage(e, '')),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Bulk add subreddits" noValidate>
      <Stack gap="xs">
        <Textarea
          label="Add subreddits"
          description="Names separated by commas or new lines; the r/ prefix is optional."
          placeholder={'r/freelance, r/smallbusiness\nbookkeeping'}
          rows={3}
          resize="vertical"
          value={text}
          error={error}
          disabled={readOnly}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setError(null);
          }}
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {names.length === 0 ? 'No names yet' : plural(names.length, 'name')}
          </Text>
          <Button
            type="submit"
            variant="default"
            loading={add.isPending}
            disabled={readOnly || names.length === 0}
          >
            Add Subreddits
          </Button>
        </Group>
        {failure !== null && (
          <Alert color="red" role="alert" title={BULK_ERROR_TITLE}>
            {failure}
          </Alert>
        )}
        {result && <BulkResult result={result} />}
      </Stack>
    </form>
  );
}
