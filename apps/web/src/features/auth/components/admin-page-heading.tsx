import { Anchor, Group, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DemoModeBadge } from '../../../components/ui/demo-mode-badge';
import { usePublicConfig } from '../hooks/use-auth-queries';

/**
 * The way back and the title of a page outside the workspace (/logs, /stats, /credentials), with the
 * demo badge the workspace's top bar shows: what an admin reads there is the simulated Reddit's.
 */
export function AdminPageHeading({ title }: { title: string }) {
  const config = usePublicConfig();
  return (
    <>
      <Anchor component={Link} to="/">
        Back to Dashboard
      </Anchor>
      <Group justify="space-between" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        {config.data?.demo_mode && <DemoModeBadge />}
      </Group>
    </>
  );
}
