import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { NewProjectButton } from './new-project-button';

/** Shown while the user has no project of their own; `othersCount` are other users' projects an admin may open. */
export function NoProjectPrompt({
  onCreate,
  blockReason = null,
  othersCount = 0,
}: {
  onCreate: () => void;
  blockReason?: string | null;
  othersCount?: number;
}) {
  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={520}>
        <Stack align="center" gap="md">
          <Title order={2}>No project yet</Title>
          <Text ta="center">
            A project holds your product information, keywords, subreddits and messages. Create one to start.
          </Text>
          {othersCount > 0 && (
            <Text ta="center" size="sm" c="dimmed">
              {othersCount === 1 ? "One other user's project" : `${othersCount} other users' projects`} can be
              opened from the project selector above.
            </Text>
          )}
          <NewProjectButton label="Create Your First Project" blockReason={blockReason} onClick={onCreate} />
          {blockReason && (
            <Text size="sm" c="dimmed" ta="center" aria-hidden>
              {blockReason}
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
