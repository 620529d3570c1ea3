import { Alert, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { statisticCards } from '../history-format';
import { useCampaignStatistics } from '../hooks/use-history';

export const STATISTICS_FAILED = 'Failed to load campaign statistics';

/** The project's DMs at a glance: generated, sent, failed, expired, replied and the reply rate. */
export function CampaignStatistics({ projectId }: { projectId: string }) {
  const statistics = useCampaignStatistics(projectId);
  if (statistics.isError) {
    return (
      <Alert color="red" role="alert">
        {STATISTICS_FAILED}: {statistics.error.message}
      </Alert>
    );
  }
  const cards = statistics.data ? statisticCards(statistics.data) : null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm" role="list" aria-label="Campaign statistics">
      {(cards ?? PLACEHOLDERS).map((card) => (
        <Paper key={card.label} withBorder p="sm" radius="md" role="listitem" aria-label={card.label}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {card.label}
          </Text>
          {cards ? (
            <Text size="xl" fw={700}>
              {card.value}
            </Text>
          ) : (
            <Skeleton height={28} mt={4} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}

const PLACEHOLDERS = ['Generated', 'Sent', 'Failed', 'Expired', 'Replied', 'Reply rate'].map((label) => ({
  label,
  value: '',
}));
