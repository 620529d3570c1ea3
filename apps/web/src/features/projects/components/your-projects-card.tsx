import type { ReactNode } from 'react';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useProjects } from '../hooks/use-projects';
import { DELETE_PROJECT_EXPLAINED, DeleteProjectButton } from './delete-project-button';

/**
 * A customer's own projects on the plans page, each with Delete: one whose plan has ended is sent there
 * from every project screen, and may still delete what they left (the server lets them).
 */
export function YourProjectsCard({ ownerId, note }: { ownerId: string; note?: ReactNode }) {
  const projects = useProjects(true, { pollWhileEmpty: false });
  const own = projects.data?.items.filter((p) => p.user_id === ownerId) ?? [];
  if (own.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="your-projects-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="your-projects-title">
          Your projects
        </Title>
        <Text size="sm" c="dimmed">
          {`Your projects are kept while you have no plan. ${DELETE_PROJECT_EXPLAINED}`}
        </Text>
        {note && (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        )}
        {own.map((project) => (
          <Group key={project.id} justify="space-between" wrap="nowrap" gap="sm">
            <Text fw={500} truncate="end" title={project.name}>
              {project.name}
            </Text>
            <DeleteProjectButton project={project} />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
