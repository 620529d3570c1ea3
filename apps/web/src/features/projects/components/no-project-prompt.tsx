import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { NewProjectButton } from './new-project-button';

/** Shown while the user has no project of their own. */
export function NoProjectPrompt({
  onCreate,
  blockReason = null,
}: {
  onCreate: () => void;
  blockReason?: string | null;
}) {
  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={520}>
        <Stack align="center" gap="md">
          <Title order={2}>No project yet</Title>
          <Text ta="center">
            A project holds your product information, keywords, subreddits and messages. Create one to start.
          </Text>
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
