import type { ReactNode } from 'react';
import { Center, Group, Paper, Stack, Title } from '@mantine/core';

/** The centred card every subscription page sits in; `badge` goes above the title, `actions` beside it. */
export function SubscriptionShell({
  title,
  children,
  width = 560,
  badge,
  actions,
}: {
  title: string;
  children?: ReactNode;
  width?: number;
  badge?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" maw={width} w="100%">
        <Stack gap="md">
          {badge}
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
