import { Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { TRunProgress } from '@threadreach/contract';

interface TRunProgressProps {
  label: string;
  progress: TRunProgress | null | undefined;
  durationSeconds: number | null | undefined;
  /** Show items read and leads found (searches); generation shows its phase and time only. */
  showCounts?: boolean;
}

/** What a running generation or search has done so far. */
export function RunProgress({ label, progress, durationSeconds, showCounts = false }: TRunProgressProps) {
  return (
    <Paper withBorder p="sm" radius="md" role="status" aria-live="polite" aria-label={label}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Loader size="sm" aria-hidden />
        <Stack gap={2}>
          <Text fw={600}>{label}</Text>
          <Text size="sm" c="dimmed">
            Phase: {progress?.phase ?? 'starting'}
            {durationSeconds != null && ` · ${Math.round(durationSeconds)} s`}
          </Text>
          {showCounts && progress && (
            <Text size="sm" c="dimmed">
              Items read: {progress.items_read} · Leads found so far: {progress.leads_found}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
