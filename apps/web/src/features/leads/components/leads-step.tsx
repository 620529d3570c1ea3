import { Group, Paper, Stack, Title } from '@mantine/core';
import { DmMessagesPanel } from '../../dms';
import { useProjects } from '../../projects';
import { ExportCsvButton, WebhookPanel } from './export-panel';
import { LeadTabs } from './lead-tabs';
import { SearchPanel } from './search-panel';

export interface TLeadsStepProps {
  projectId: string;
  readOnly: boolean;
}

/**
 * Step 4: search settings, keyword filtering, a search now, the leads found (posts, comments, users), and the
 * DM messages written to them.
 */
export function LeadsStep({ projectId, readOnly }: TLeadsStepProps) {
  const projects = useProjects();
  const project = projects.data?.items.find((p) => p.id === projectId);
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2}>Posts &amp; Messages</Title>
          <ExportCsvButton projectId={projectId} />
        </Group>
        <SearchPanel
          projectId={projectId}
          readOnly={readOnly}
          withoutKeywords={project?.without_keywords ?? false}
        />
        <LeadTabs projectId={projectId} readOnly={readOnly} />
        <DmMessagesPanel projectId={projectId} readOnly={readOnly} />
        <WebhookPanel projectId={projectId} readOnly={readOnly} />
      </Stack>
    </Paper>
  );
}
