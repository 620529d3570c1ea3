import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';

/** Shown while the user has no project. */
export function NoProjectPrompt({ onCreate }: { onCreate: () => void }) {
  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={520}>
        <Stack align="center" gap="md">
          <Title order={2}>No project yet</Title>
          <Text ta="center">
            A project holds your product information, keywords, subreddits and messages. Create one to start.
          </Text>
          <Button onClick={onCreate}>Create Your First Project</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
