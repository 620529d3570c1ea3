import type { ReactNode } from 'react';
import { Center, Paper, Stack, Title } from '@mantine/core';

/** The centred card every subscription page sits in. */
export function SubscriptionShell({
  title,
  children,
  width = 560,
}: {
  title: string;
  children?: ReactNode;
  width?: number;
}) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" maw={width} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
