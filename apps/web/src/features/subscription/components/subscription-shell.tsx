import type { ReactNode } from 'react';
import { Center, Group, Paper, Stack, Title } from '@mantine/core';
import { DemoModeBadge } from '../../../components/ui/demo-mode-badge';
import { usePublicConfig } from '../../auth';

/**
 * The centred card every subscription page sits in, `actions` beside the title; in the demo the badge
 * goes above it, as plans there are bought and managed on demo pages that charge no card.
 */
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
  const config = usePublicConfig();
  const badge = config.data?.demo_mode ? <DemoModeBadge /> : null;
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
