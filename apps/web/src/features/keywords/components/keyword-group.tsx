import { ActionIcon, Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { rowKey, type TKeywordRow } from '../keyword-rows';

interface TKeywordGroupProps {
  title: string;
  rows: TKeywordRow[];
  readOnly: boolean;
  onToggle: (row: TKeywordRow, approved: boolean) => void;
  onSetAll: (approved: boolean) => void;
  onRemove: (row: TKeywordRow) => void;
}

/** One column of step 2 (product or ICP keywords) with an approval checkbox per keyword. */
export function KeywordGroup({ title, rows, readOnly, onToggle, onSetAll, onRemove }: TKeywordGroupProps) {
  const selected = rows.filter((r) => r.approved).length;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Text fw={600}>
          {title}{' '}
          <Text span size="sm" c="dimmed">
            ({selected} of {rows.length} selected)
          </Text>
        </Text>
        {rows.length > 0 && (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" disabled={readOnly} onClick={() => onSetAll(true)}>
              Select all
            </Button>
            <Button size="compact-xs" variant="subtle" disabled={readOnly} onClick={() => onSetAll(false)}>
              Clear
            </Button>
          </Group>
        )}
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet.
        </Text>
      ) : (
        <Stack gap={6}>
          {rows.map((row) => (
            <Group key={rowKey(row)} gap="xs" wrap="nowrap" justify="space-between">
              <Checkbox
                label={row.keyword}
                checked={row.approved}
                disabled={readOnly}
                onChange={(e) => onToggle(row, e.currentTarget.checked)}
              />
              {!row.id && (
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={`Remove ${row.keyword}`}
                  disabled={readOnly}
                  onClick={() => onRemove(row)}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
