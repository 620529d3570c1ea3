import type { ReactNode } from 'react';
import { Anchor, Container, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { PlaceholderPanel } from '../../../components/ui/placeholder-panel';
import { ModeratorOnly } from '../../auth';

function AdminShell({ children }: { children: ReactNode }) {
  return (
    <Container size="lg" py="xl">
      <Stack>
        <Anchor component={Link} to="/">
          Back to Dashboard
        </Anchor>
        {children}
      </Stack>
    </Container>
  );
}

/** /stats: statistics across all projects, for moderators and admins. */
export function StatsPage() {
  return (
    <ModeratorOnly>
      <AdminShell>
        <PlaceholderPanel title="All Projects Statistics" />
      </AdminShell>
    </ModeratorOnly>
  );
}
