import { Alert, Text } from '@mantine/core';
import type { TProject } from '@threadreach/contract';

/** Shown to admins viewing another user's project: they may look, not change it. */
export function ForeignProjectBanner({ project }: { project: TProject }) {
  const owner = project.owner_email ?? project.user_id;
  return (
    <Alert
      color="yellow"
      variant="light"
      mb="md"
      role="status"
      title={`Read-only: this project belongs to ${owner}`}
    >
      <Text size="sm">
        You can view another user&apos;s project but not change it. Only its owner can edit or delete it; as
        an admin you can still manage its connected Reddit accounts.
      </Text>
    </Alert>
  );
}
