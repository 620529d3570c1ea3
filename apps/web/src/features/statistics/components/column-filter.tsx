import { useState } from 'react';
import { ActionIcon, Badge, Box, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';

interface TColumnFilterProps {
  label: string;
  values: readonly string[];
  selected: string[];
  onChange: (selected: string[]) => void;
  format?: (value: string) => string;
}

/** A column's multi-select filter: a header button that opens its distinct values as checkboxes. */
export function ColumnFilter({ label, values, selected, onChange, format = (v) => v }: TColumnFilterProps) {
  const active = selected.length > 0;
  const [opened, setOpened] = useState(false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      shadow="md"
      withinPortal
      // A table can scroll its header out of view; the dropdown stays with the open filter regardless.
      hideDetached={false}
      transitionProps={{ duration: 0 }}
      // By keyboard: opening moves focus to the first value, Tab stays among the values, and Escape
      // closes the dropdown back onto its button.
      trapFocus
      returnFocus
      closeOnEscape
    >
      <Popover.Target>
        <ActionIcon
          onClick={() => setOpened((o) => !o)}
          aria-expanded={opened}
          variant={active ? 'filled' : 'subtle'}
          size="sm"
          aria-label={`Filter ${label}`}
          title={`Filter ${label}`}
        >
          <span aria-hidden>▾</span>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" miw={160}>
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {label}
            </Text>
            {active && <Badge size="xs">{selected.length}</Badge>}
          </Group>
          {values.length === 0 ? (
            <Text size="sm" c="dimmed">
              No values
            </Text>
          ) : (
            <ScrollArea.Autosize mah={240}>
              <Box role="group" aria-label={`${label} values`}>
                <Checkbox.Group value={selected} onChange={onChange}>
                  <Stack gap={6}>
                    {values.map((v) => (
                      <Checkbox key={v} value={v} label={format(v)} size="xs" />
                    ))}
                  </Stack>
                </Checkbox.Group>
              </Box>
            </ScrollArea.Autosize>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
