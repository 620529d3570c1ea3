import { SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TDayProjectStatistics, TProjectStatistics } from '@threadreach/contract';

function SmallTable({ label, head, rows }: { label: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <Table withTableBorder aria-label={label} fz="sm">
      <Table.Thead>
        <Table.Tr>
          {head.map((h) => (
            <Table.Th key={h}>{h}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((cells, i) => (
          <Table.Tr key={`${i}-${String(cells[0])}`}>
            {cells.map((c, j) => (
              <Table.Td key={j}>{c}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An open project row: its top subreddits and its accounts over the range. */
export function ProjectDetails({ project }: { project: TProjectStatistics }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} py="xs">
      <Stack gap={4}>
        <Title order={4} size="h6">
          Top subreddits
        </Title>
        {project.top_subreddits.length === 0 ? (
          <Text size="sm" c="dimmed">
            No posts found or DMs sent in this range.
          </Text>
        ) : (
          <SmallTable
            label={`Top subreddits of ${project.project_name}`}
            head={['Subreddit', 'Posts', 'DMs Sent']}
            rows={project.top_subreddits.map((s) => [`r/${s.subreddit}`, s.posts, s.dms_sent])}
          />
        )}
      </Stack>
      <Stack gap={4}>
        <Title order={4} size="h6">
          Accounts
        </Title>
        {project.accounts.length === 0 ? (
          <Text size="sm" c="dimmed">
            No connected accounts.
          </Text>
        ) : (
          <SmallTable
            label={`Accounts of ${project.project_name}`}
            head={['Username', 'DMs Sent', 'Failed']}
            rows={project.accounts.map((a) => [
              a.account_id === null ? `u/${a.username} (removed)` : `u/${a.username}`,
              a.dms_sent,
              a.dms_failed,
            ])}
          />
        )}
      </Stack>
    </SimpleGrid>
  );
}

/** An open day row: each project's figures that day. */
export function DayDetails({ date, projects }: { date: string; projects: TDayProjectStatistics[] }) {
  return (
    <SmallTable
      label={`Projects on ${date}`}
      head={['Project', 'Posts', 'Generated', 'Sent', 'Failed', 'Expired']}
      rows={projects.map((p) => [
        p.project_name,
        p.posts_searched,
        p.messages_generated,
        p.sent,
        p.failed,
        p.expired,
      ])}
    />
  );
}
