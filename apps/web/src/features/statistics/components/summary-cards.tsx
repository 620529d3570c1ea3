import { Paper, SimpleGrid, Text } from '@mantine/core';

export interface TSummaryCard {
  label: string;
  value: string | number;
  hint?: string;
}

/** Figures as cards, each labelled so a reader (or a test) finds it by name. */
export function SummaryCards({ label, cards }: { label: string; cards: TSummaryCard[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: Math.min(cards.length, 5) }} aria-label={label} role="list">
      {cards.map((card) => (
        <Paper key={card.label} withBorder p="md" radius="md" role="listitem" aria-label={card.label}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {card.label}
          </Text>
          <Text size="xl" fw={700}>
            {card.value}
          </Text>
          {card.hint && (
            <Text size="xs" c="dimmed">
              {card.hint}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
