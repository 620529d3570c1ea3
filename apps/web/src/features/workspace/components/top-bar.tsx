import { Anchor, Badge, Button, Group, Title } from '@mantine/core';
import type { TProject } from '@threadreach/contract';
import { Link } from 'react-router';
import { DemoModeBadge } from '../../../components/ui/demo-mode-badge';
import { READ_ONLY_FLAG, logout, useAuth, useMe, usePublicConfig } from '../../auth';
import { NewProjectButton, ProjectSelector } from '../../projects';

interface TTopBarProps {
  projects: TProject[];
  selectedProjectId: string | null;
  onSelectProject: (projectId: string) => void;
  onNewProject: () => void;
  /** Why New Project is disabled (limit reached, read-only), or null. */
  newProjectBlockReason: string | null;
}

function ProjectsBadge() {
  const auth = useAuth();
  const me = useMe();
  const unlimited = auth.isModerator;
  // A failed read of the subscription counts as a limit of 0 (spec §8).
  const limitIsZero = me.isError || (me.data !== undefined && me.data.profiles_limit <= 0);
  if (!unlimited && limitIsZero) {
    return (
      <Anchor component={Link} to="/subscribe" fw={600}>
        Subscribe
      </Anchor>
    );
  }
  if (!me.data) return null;
  const limit = unlimited ? '∞' : String(me.data.profiles_limit);
  return (
    <Badge variant="light" size="lg" tt="none">
      {`Projects ${me.data.projects_used}/${limit}`}
    </Badge>
  );
}

/** Moderators reach credentials and statistics; admins also the system logs (spec section 6). */
function AdminLinks() {
  const auth = useAuth();
  if (!auth.isModerator) return null;
  return (
    <Group gap="xs" component="nav" aria-label="Administration" wrap="nowrap">
      {auth.isAdmin && (
        <Anchor component={Link} to="/logs">
          System Logs
        </Anchor>
      )}
      <Anchor component={Link} to="/stats">
        Statistics
      </Anchor>
      <Anchor component={Link} to="/credentials">
        Credentials
      </Anchor>
    </Group>
  );
}

export function TopBar({
  projects,
  selectedProjectId,
  onSelectProject,
  onNewProject,
  newProjectBlockReason,
}: TTopBarProps) {
  const auth = useAuth();
  const config = usePublicConfig();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap">
        <Title order={1} size="h3">
          Threadreach
        </Title>
        {config.data?.demo_mode && <DemoModeBadge />}
        {auth.isReadOnly && (
          <Badge color="gray" variant="outline" tt="none">
            {READ_ONLY_FLAG}
          </Badge>
        )}
      </Group>
      <Group gap="sm" wrap="nowrap">
        {projects.length > 0 && (
          <ProjectSelector
            projects={projects}
            value={selectedProjectId}
            onChange={onSelectProject}
            showOwner={auth.isAdmin}
          />
        )}
        <NewProjectButton
          label="New Project"
          variant="light"
          blockReason={newProjectBlockReason}
          onClick={onNewProject}
        />
        <ProjectsBadge />
        <AdminLinks />
        <Button variant="default" onClick={() => void logout()}>
          Logout
        </Button>
      </Group>
    </Group>
  );
}
