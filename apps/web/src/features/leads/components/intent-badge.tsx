import { Badge, List, Stack, Text, Tooltip } from '@mantine/core';
import type { TMatchReason } from '@threadreach/contract';
import { matchSummary } from '../highlight';
import { intentColor } from '../lead-format';

interface TIntentBadgeProps {
  score: number;
  reasons: readonly string[];
  matches?: readonly TMatchReason[];
}

/** The intent score; hovering or focusing it says why the item is a lead. */
export function IntentBadge({ score, reasons, matches = [] }: TIntentBadgeProps) {
  const matched = matchSummary(matches);
  const why = (
    <Stack gap={4}>
      <Text size="xs" fw={700}>
        Why it matched
      </Text>
      {reasons.length > 0 && (
        <List size="xs" spacing={0}>
          {reasons.map((r) => (
            <List.Item key={r}>{r}</List.Item>
          ))}
        </List>
      )}
      {matched.length > 0 && <Text size="xs">Keywords: {matched.join(', ')}</Text>}
      {reasons.length === 0 && matched.length === 0 && <Text size="xs">No signals recorded</Text>}
    </Stack>
  );
  return (
    <Tooltip label={why} multiline w={300} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Badge
        color={intentColor(score)}
        variant="light"
        tt="none"
        tabIndex={0}
        aria-label={`Intent score ${score}`}
        style={{ cursor: 'help' }}
      >
        Intent {score}
      </Badge>
    </Tooltip>
  );
}
