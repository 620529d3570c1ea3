import type { ReactNode } from 'react';
import { Center, Group, Paper, Stack, Title } from '@mantine/core';

/** The centred card every subscription page sits in; `actions` go beside the title. */
export function SubscriptionShell({
  title,
  children,
  width = 560,
  actions,
}: {
  title: string;
  children?: ReactNode;
  width?: number;
  actions?: ReactNode;
}) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" maw={width} w="100%">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
            <Title order={1} size="h2">
              {title}
            </Title>
            {actions}
          </Group>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
