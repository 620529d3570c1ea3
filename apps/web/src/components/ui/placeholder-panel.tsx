import type { ReactNode } from 'react';
import { Paper, Text, Title } from '@mantine/core';

/** A titled panel for screens whose content arrives later. */
export function PlaceholderPanel({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="sm">
        {title}
      </Title>
      {children ?? <Text c="dimmed">This section is not available yet.</Text>}
    </Paper>
  );
}
