import { useState } from 'react';
import { Accordion, Button, Group, Text } from '@mantine/core';
import { useFileExport } from '../../../lib/use-file-export';
import { exportLeadsCsv } from '../api/leads.api';
import { WebhookSettings } from './webhook-settings';

export const EXPORT_ERROR = 'Failed to export leads';

/** The CSV file's name when the server gives none: the project's leads on this day. */
export function exportFileName(nowMs: number): string {
  return `leads-${new Date(nowMs).toISOString().slice(0, 10)}.csv`;
}

/** Every lead with its score and reasons as CSV: an authenticated download, so fetched, then saved. */
export function ExportCsvButton({ projectId }: { projectId: string }) {
  const { exporting, received, run } = useFileExport(EXPORT_ERROR);
  const exportCsv = () =>
    run(async (onProgress) => {
      // The server names the file after the project, so two projects' exports of a day stay apart.
      const { content, fileName } = await exportLeadsCsv(projectId, onProgress);
      return { content, fileName: fileName ?? exportFileName(Date.now()) };
    });
  return (
    <Group gap="sm">
      <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
        Export CSV
      </Button>
      {received && (
        <Text size="sm" c="dimmed" role="status">
          {received}
        </Text>
      )}
    </Group>
  );
}

/** The lead webhook, loaded when opened. */
export function WebhookPanel({ projectId, readOnly }: { projectId: string; readOnly: boolean }) {
  const [opened, setOpened] = useState<string | null>(null);
  return (
    <Accordion variant="contained" value={opened} onChange={setOpened}>
      <Accordion.Item value="webhook">
        <Accordion.Control>Lead webhook</Accordion.Control>
        <Accordion.Panel>
          {opened === 'webhook' && <WebhookSettings projectId={projectId} readOnly={readOnly} />}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
